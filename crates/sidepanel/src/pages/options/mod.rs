//! The options page: a sticky left navigation (a drawer below 980 px) with one hash route per
//! section — Provider (Save, Test connection, tokens spent so far), Dark mode, Browser agent,
//! Customised sites, Data, About — and the sections as cards of rows at most 680 px wide.

mod agent;
mod custom;
mod dark;
mod data;
mod fields;
mod nav;
mod on_device;

use crate::{dom, status, worker};
use dusk_chrome::i18n;
use dusk_core::protocol::{WorkerRequest, WorkerResponse};
use dusk_core::settings::Settings;
use fields::Fields;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::spawn_local;
use web_sys::{Element, HtmlElement};

pub async fn render(body: &HtmlElement) -> Result<(), JsValue> {
    let sections = nav::render(body)?;
    let settings = match worker::request(&WorkerRequest::GetSettings).await {
        Ok(WorkerResponse::Settings { settings }) => settings,
        _ => Settings::default(),
    };
    // Every section holds cards: a fieldset with its legend, at most 680 px wide.
    let section = dom::append(&sections.provider, "fieldset", "provider-options", "")?;
    section.set_id("provider-options");
    dom::append_i18n(&section, "legend", "", "optProviderTitle")?;
    let form = dom::append(&section, "form", "settings", "")?;
    form.set_id("provider-form");
    let fields = Rc::new(Fields::build(&form)?);
    let state = Rc::new(RefCell::new(settings));
    fields.show(&state.borrow());
    // Its availability arrives later, so Save and Test connection are wired without waiting for it.
    spawn_local(on_device::OnDevice::build(&form, fields.provider.clone())?.refresh());

    let buttons = dom::append(&form, "div", "buttons", "")?;
    let save = dom::append_i18n(&buttons, "button", "primary", "save")?;
    save.set_id("save");
    // Plain buttons: a submit would reload the page and lose the result line.
    save.set_attribute("type", "button")?;
    let test = dom::append_i18n(&buttons, "button", "", "testConnection")?;
    test.set_id("test");
    test.set_attribute("type", "button")?;
    let result = dom::append(&form, "div", "result", "")?;
    result.set_id("result");
    result.set_attribute("role", "status")?;
    let usage = dom::append(&section, "p", "usage", "")?;
    usage.set_id("usage");
    spawn_local(show_usage(usage.clone()));

    {
        let (fields, state) = (fields.clone(), state.clone());
        dom::on(&fields.provider.clone().into(), "change", move || fields.switch_provider(&state.borrow()))?;
    }
    {
        let (fields, state, result) = (fields.clone(), state.clone(), result.clone());
        dom::on(&save, "click", move || {
            let settings = fields.apply(&mut state.borrow_mut());
            spawn_local(save_settings(settings, result.clone()));
        })?;
    }
    dom::on(&test.clone(), "click", move || {
        if let Some(provider) = fields.read() {
            show(&result, "pending", &i18n::message("testing"));
            spawn_local(test_connection(provider, result.clone(), usage.clone()));
        } else {
            show(&result, "error", &i18n::message("chooseProvider"));
        }
    })?;
    // The provider form answers before the other sections load: a quick click is never lost.
    let html = |e: &Element| e.clone().dyn_into::<HtmlElement>();
    dark::render(&html(&sections.dark)?).await?;
    agent::render(&html(&sections.agent)?).await?;
    custom::render(&html(&sections.custom)?).await?;
    data::render(&html(&sections.data)?)?;
    let about = dom::append(&sections.about, "div", "options-card", "")?;
    status::render(&about).await?;
    dom::append_i18n(&about, "p", "notice", "aboutText")?;
    nav::arrived();
    Ok(())
}

fn show(result: &Element, class: &str, text: &str) {
    result.set_class_name(&format!("result {class}"));
    result.set_text_content(Some(text));
}

async fn save_settings(settings: Settings, result: Element) {
    match worker::request(&WorkerRequest::SaveSettings { settings }).await {
        Ok(_) => show(&result, "ok", &i18n::message("saved")),
        Err(e) => show(&result, "error", &e),
    }
}

async fn test_connection(provider: dusk_core::settings::ProviderSettings, result: Element, usage: Element) {
    match worker::request(&WorkerRequest::TestConnection { provider }).await {
        Ok(WorkerResponse::ConnectionResult(report)) => {
            show(&result, if report.ok { "ok" } else { "error" }, &report.message);
            show_usage(usage).await;
        }
        Ok(other) => show(&result, "error", &format!("unexpected reply: {other:?}")),
        Err(e) => show(&result, "error", &e),
    }
}

async fn show_usage(usage: Element) {
    if let Ok(WorkerResponse::Usage(t)) = worker::request(&WorkerRequest::GetUsage).await {
        usage.set_text_content(Some(&status::usage_words(&t)));
    }
}
