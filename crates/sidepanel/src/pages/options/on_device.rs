//! The provider form's on-device part: the availability line, the option disabled where Chrome has
//! no built-in model, and Download (`LanguageModel.create()` inside the click, with a progress bar
//! from `downloadprogress`). The worker's answer decides; this page only calls the API to download.

use crate::{dom, worker};
use dusk_chrome::i18n;
use dusk_core::llm::on_device::shape::availability_options;
use dusk_core::llm::on_device::Availability;
use dusk_core::llm::ProviderKind;
use dusk_core::protocol::{WorkerRequest, WorkerResponse};
use js_sys::{Function, Object, Promise, Reflect};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{spawn_local, JsFuture};
use web_sys::{Element, HtmlSelectElement};

pub struct OnDevice {
    select: HtmlSelectElement,
    line: Element,
    download: Element,
    progress: Element,
}

pub async fn availability() -> Availability {
    match worker::request(&WorkerRequest::OnDeviceStatus).await {
        Ok(WorkerResponse::OnDevice { availability }) => availability,
        _ => Availability::Absent,
    }
}

impl OnDevice {
    /// Builds the block under the provider select; `refresh` fills it in.
    pub fn build(form: &Element, select: HtmlSelectElement) -> Result<Rc<OnDevice>, JsValue> {
        let block = dom::append(form, "div", "on-device-block", "")?;
        block.set_id("on-device");
        // Right under the provider choice it describes.
        if let Some(row) = select.parent_element() {
            row.after_with_node_1(&block)?;
        }
        let line = dom::append(&block, "p", "on-device-line", "")?;
        line.set_id("on-device-availability");
        line.set_attribute("role", "status")?;
        let download = dom::append_i18n(&block, "button", "", "onDeviceDownload")?;
        download.set_id("on-device-download");
        download.set_attribute("type", "button")?;
        let progress = dom::append(&block, "progress", "", "")?;
        progress.set_id("on-device-progress");
        progress.set_attribute("max", "1")?;
        progress.set_attribute("aria-label", &i18n::message("onDeviceDownload"))?;
        download.set_attribute("hidden", "")?;
        progress.set_attribute("hidden", "")?;
        let me = Rc::new(OnDevice { select, line, download, progress });
        let this = me.clone();
        dom::on(&me.download.clone(), "click", move || this.clone().start_download())?;
        Ok(me)
    }

    /// Shows what the worker says about the built-in model.
    pub async fn refresh(self: Rc<Self>) {
        let _ = self.show(availability().await);
    }

    fn show(&self, a: Availability) -> Result<(), JsValue> {
        self.line.set_text_content(Some(&i18n::message(a.message_key())));
        self.line.set_attribute("data-availability", &serde_json::to_value(a).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default())?;
        if let Some(option) = self.select.query_selector(&format!("option[value=\"{}\"]", ProviderKind::OnDevice.as_str()))? {
            // Never chosen where it can't run, so it never fails later, mid-run.
            option.toggle_attribute_with_force("disabled", !a.selectable())?;
        }
        self.download.toggle_attribute_with_force("hidden", !a.downloadable())?;
        self.progress.toggle_attribute_with_force("hidden", a != Availability::Downloading)?;
        Ok(())
    }

    /// `create()` must run inside the click (Chrome asks for a user gesture to download).
    fn start_download(self: Rc<Self>) {
        let progress = self.progress.clone();
        let _ = progress.remove_attribute("hidden");
        let _ = progress.set_attribute("value", "0");
        let started = create_with_progress(progress);
        spawn_local(async move {
            let result = match started {
                Ok(promise) => JsFuture::from(promise).await,
                Err(e) => Err(e),
            };
            match result {
                Ok(session) => {
                    if let Ok(destroy) = Reflect::get(&session, &"destroy".into()).and_then(|f| f.dyn_into::<Function>()) {
                        let _ = destroy.call0(&session);
                    }
                    let _ = self.show(availability().await);
                }
                Err(e) => {
                    let _ = self.show(availability().await);
                    self.line.set_text_content(Some(&format!("{} {}", i18n::message("onDeviceDownloadFailed"), dusk_chrome::message::error_text(&e))));
                }
            }
        });
    }
}

/// `LanguageModel.create({monitor, expectedInputs, expectedOutputs})`; progress fills the bar.
fn create_with_progress(progress: Element) -> Result<Promise, JsValue> {
    let api = Reflect::get(&js_sys::global(), &"LanguageModel".into())?;
    let create: Function = Reflect::get(&api, &"create".into())?.dyn_into()?;
    let options: Object = dusk_chrome::message::to_js(&availability_options(false)).dyn_into()?;
    let on_progress = Closure::<dyn FnMut(JsValue)>::new(move |e: JsValue| {
        let loaded = Reflect::get(&e, &"loaded".into()).ok().and_then(|v| v.as_f64()).unwrap_or(0.0);
        let _ = progress.set_attribute("value", &loaded.clamp(0.0, 1.0).to_string());
    });
    let listener: JsValue = on_progress.into_js_value();
    let monitor = Closure::<dyn FnMut(JsValue)>::new(move |m: JsValue| {
        if let Ok(add) = Reflect::get(&m, &"addEventListener".into()).and_then(|f| f.dyn_into::<Function>()) {
            let _ = add.call2(&m, &"downloadprogress".into(), &listener);
        }
    });
    Reflect::set(&options, &"monitor".into(), &monitor.into_js_value())?;
    Ok(Promise::resolve(&create.call1(&api, &options)?))
}
