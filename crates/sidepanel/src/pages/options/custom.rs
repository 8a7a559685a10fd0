//! The options page's Customised sites: each site's CSS and JS in plain text editors, on/off,
//! its history with revert, and delete. Export and import go with the Data section's backup.

use crate::{dom, worker};
use dusk_chrome::i18n;
use dusk_core::customize::SiteCustom;
use dusk_core::protocol::{WorkerRequest, WorkerResponse};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::spawn_local;
use web_sys::{Element, HtmlElement, HtmlTextAreaElement};

pub async fn render(body: &HtmlElement) -> Result<(), JsValue> {
    let section = dom::append(body, "fieldset", "custom-options", "")?;
    section.set_id("custom-options");
    dom::append_i18n(&section, "legend", "", "optCustomTitle")?;
    dom::append_i18n(&section, "p", "notice", "optCustomIntro")?;
    let list = dom::append(&section, "div", "custom-sites", "")?;
    list.set_id("custom-sites");
    let result = dom::append(&section, "div", "result", "")?;
    result.set_id("custom-result");
    result.set_attribute("role", "status")?;
    let ui = Rc::new(Section { list, result });
    ui.clone().ask(WorkerRequest::CustomList, false).await;
    Ok(())
}

struct Section {
    list: Element,
    result: Element,
}

impl Section {
    /// Sends `request` and shows the list it answers with (or the error).
    async fn ask(self: Rc<Self>, request: WorkerRequest, saved: bool) {
        match worker::request(&request).await {
            Ok(WorkerResponse::CustomSites { sites, user_scripts }) => {
                if let Err(e) = self.clone().show(&sites, user_scripts) {
                    self.status("error", &format!("{e:?}"));
                } else if saved {
                    self.status("ok", &i18n::message("optCustomSaved"));
                }
            }
            Ok(WorkerResponse::Error { message }) => self.status("error", &message),
            Ok(_) => self.status("error", "unexpected reply"),
            Err(e) => self.status("error", &e),
        }
    }

    fn status(&self, class: &str, text: &str) {
        self.result.set_class_name(&format!("result {class}"));
        self.result.set_text_content(Some(text));
    }

    fn send(self: &Rc<Self>, request: WorkerRequest) {
        spawn_local(self.clone().ask(request, true));
    }

    fn show(self: Rc<Self>, sites: &[SiteCustom], user_scripts: bool) -> Result<(), JsValue> {
        self.list.set_inner_html("");
        if sites.is_empty() {
            dom::append_i18n(&self.list, "p", "empty", "optCustomNone")?;
            return Ok(());
        }
        if !user_scripts && sites.iter().any(|s| !s.js().trim().is_empty()) {
            let note = dom::append_i18n(&self.list, "p", "notice warn", "optCustomNoUserScripts")?;
            note.set_id("custom-user-scripts");
        }
        for (n, site) in sites.iter().enumerate() {
            self.site(n, site)?;
        }
        Ok(())
    }

    fn site(self: &Rc<Self>, n: usize, site: &SiteCustom) -> Result<(), JsValue> {
        let host = site.host.clone();
        let item = dom::append(&self.list, "details", "custom-site", "")?;
        item.set_attribute("data-host", &host)?;
        dom::append(&item, "summary", "", &host)?;
        let enabled = dom::input(&item, &format!("custom-enabled-{n}"), "optCustomEnabled", "checkbox")?;
        enabled.set_checked(site.enabled);
        let css = editor(&item, &format!("custom-css-{n}"), "optCustomCss", &site.css())?;
        let js = editor(&item, &format!("custom-js-{n}"), "optCustomJs", &site.js())?;
        dom::append_i18n(&item, "p", "notice custom-yours", "optCustomYours")?;
        let buttons = dom::append(&item, "div", "buttons", "")?;
        let save = dom::append_i18n(&buttons, "button", "primary custom-save", "optCustomSaveEdit")?;
        let versions: Vec<(String, String)> = site
            .versions
            .iter()
            .enumerate()
            .rev()
            .map(|(i, v)| {
                let when = js_sys::Date::new(&JsValue::from_f64(v.saved_ms)).to_locale_string("default", &JsValue::UNDEFINED);
                (i.to_string(), format!("#{} · {} · {}", i + 1, String::from(when), v.note))
            })
            .collect();
        let options: Vec<(&str, String)> = versions.iter().map(|(v, t)| (v.as_str(), t.clone())).collect();
        let history = dom::select(&item, &format!("custom-history-{n}"), "optCustomHistory", &options)?;
        let revert = dom::append_i18n(&item, "button", "custom-revert", "optCustomRevert")?;
        // Deleting can't be undone: last, behind a confirmation.
        let delete = dom::append_i18n(&item, "button", "danger custom-delete", "optCustomDelete")?;
        {
            let (ui, host) = (self.clone(), host.clone());
            dom::on(&enabled.clone().into(), "change", move || ui.send(WorkerRequest::CustomSetEnabled { host: host.clone(), enabled: enabled.checked() }))?;
        }
        {
            let (ui, host) = (self.clone(), host.clone());
            dom::on(&save, "click", move || ui.send(WorkerRequest::CustomSave { host: host.clone(), css: css.value(), js: js.value() }))?;
        }
        {
            let (ui, host) = (self.clone(), host.clone());
            dom::on(&delete, "click", move || {
                let question = i18n::message_with("optCustomDeleteConfirm", &[&host]);
                if web_sys::window().and_then(|w| w.confirm_with_message(&question).ok()).unwrap_or(false) {
                    ui.send(WorkerRequest::CustomDelete { host: host.clone() });
                }
            })?;
        }
        let ui = self.clone();
        dom::on(&revert, "click", move || {
            if let Ok(version) = history.value().parse() {
                ui.send(WorkerRequest::CustomRevert { host: host.clone(), version });
            }
        })
    }
}

/// A labelled plain-text editor.
fn editor(parent: &Element, id: &str, label: &str, text: &str) -> Result<HtmlTextAreaElement, JsValue> {
    let row = dom::append(parent, "label", "field", "")?;
    dom::append_i18n(&row, "span", "label", label)?;
    let area: HtmlTextAreaElement = dom::append(&row, "textarea", "code", "")?.dyn_into()?;
    area.set_id(id);
    area.set_value(text);
    area.set_attribute("spellcheck", "false")?;
    area.set_rows(6);
    Ok(area)
}
