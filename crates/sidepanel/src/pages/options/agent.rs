//! The options page's agent section: how the agent sees pages, its turn limit, per-site policy,
//! and whether it may use Chrome's debugger to find clickable elements.

use crate::dom;
use dusk_chrome::i18n;
use dusk_chrome::{message, storage};
use dusk_core::browser_agent::mode::{parse_sites, sites_text, AgentSettings, ModeChoice, MAX_TURNS, STORAGE_KEY};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use web_sys::{Element, HtmlElement, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};

pub async fn render(body: &HtmlElement) -> Result<(), JsValue> {
    let section = dom::append(body, "fieldset", "agent-options", "")?;
    section.set_id("agent-options");
    dom::append_i18n(&section, "legend", "", "optAgentTitle")?;
    let stored = storage::local_get(STORAGE_KEY).await.ok().and_then(|v| message::from_js::<serde_json::Value>(v).ok());
    let settings = AgentSettings::from_stored(stored);

    let modes = [
        ("auto", i18n::message("optAgentModeAuto")),
        ("dom", i18n::message("optAgentModeDom")),
        ("vision", i18n::message("optAgentModeVision")),
        ("hybrid", i18n::message("optAgentModeHybrid")),
    ];
    let mode = dom::select(&section, "agent-mode", "optAgentMode", &modes)?;
    mode.set_value(serde_json::to_value(settings.mode).ok().and_then(|v| v.as_str().map(str::to_string)).as_deref().unwrap_or("auto"));
    let turns = dom::input(&section, "agent-max-turns", "optAgentTurns", "number")?;
    turns.set_min("1");
    turns.set_max(&MAX_TURNS.to_string());
    turns.set_value_as_number(settings.max_turns as f64);
    let label = dom::append(&section, "label", "field", "")?;
    dom::append_i18n(&label, "span", "label", "optAgentSites")?;
    let sites: HtmlTextAreaElement = dom::append(&label, "textarea", "", "")?.dyn_into()?;
    sites.set_id("agent-sites");
    sites.set_rows(4);
    sites.set_value(&sites_text(&settings.sites));
    let debugger = switch(&section, "agent-debugger", "optAgentDebugger", settings.use_debugger)?;
    let debugger_state = debugger.clone();
    let save = dom::append_i18n(&section, "button", "primary", "optAgentSave")?;
    save.set_id("agent-save");
    let result = dom::append(&section, "div", "result", "")?;
    result.set_id("agent-result");
    result.set_attribute("role", "status")?;
    let result_for_switch = result.clone();
    let on_save = Rc::new(move |mode: &HtmlSelectElement, turns: &HtmlInputElement, sites: &HtmlTextAreaElement| {
        let (parsed, errors) = parse_sites(&sites.value());
        if !errors.is_empty() {
            result.set_class_name("result error");
            result.set_text_content(Some(&errors.join("; ")));
            return;
        }
        let n = turns.value_as_number();
        let settings = AgentSettings {
            mode: dusk_core::protocol::from_value::<ModeChoice>(mode.value().into()).unwrap_or_default(),
            max_turns: if n.is_finite() { (n as u32).clamp(1, MAX_TURNS) } else { 20 },
            sites: parsed,
            ask_before_acting: false,
            use_debugger: crate::switch::is_on(&debugger_state),
        };
        turns.set_value_as_number(settings.max_turns as f64);
        sites.set_value(&sites_text(&settings.sites));
        let result = result.clone();
        wasm_bindgen_futures::spawn_local(async move {
            // The panel's permission chip sets this one; a save here keeps what it chose.
            let stored = storage::local_get(STORAGE_KEY).await.ok().and_then(|v| message::from_js::<serde_json::Value>(v).ok());
            let settings = AgentSettings { ask_before_acting: AgentSettings::from_stored(stored).ask_before_acting, ..settings };
            match storage::local_set(STORAGE_KEY, &message::to_js(&settings)).await {
                Ok(()) => {
                    result.set_class_name("result ok");
                    result.set_text_content(Some(&i18n::message("optAgentSaved")));
                }
                Err(e) => {
                    result.set_class_name("result error");
                    result.set_text_content(Some(&message::error_text(&e)));
                }
            }
        });
    });
    on_debugger_toggle(&debugger, result_for_switch)?;
    dom::on(&save, "click", move || on_save(&mode, &turns, &sites))?;
    Ok(())
}

/// A labelled switch with its one-line hint under it.
fn switch(parent: &Element, id: &str, message_key: &str, on: bool) -> Result<Element, JsValue> {
    let button = crate::switch::switch(parent, id, message_key, on)?;
    button.set_attribute("aria-describedby", &format!("{id}-hint"))?;
    let hint = dom::append_i18n(parent, "p", "notice", &format!("{message_key}Hint"))?;
    hint.set_id(&format!("{id}-hint"));
    Ok(button)
}

/// The debugger switch applies at once: only its field of the stored settings changes.
fn on_debugger_toggle(switch: &Element, result: Element) -> Result<(), JsValue> {
    let target = switch.clone();
    dom::on(switch, "click", move || {
        let on = !crate::switch::is_on(&target);
        let _ = target.set_attribute("aria-checked", if on { "true" } else { "false" });
        let result = result.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let stored = storage::local_get(STORAGE_KEY).await.ok().and_then(|v| message::from_js::<serde_json::Value>(v).ok());
            let mut fields = match stored {
                Some(serde_json::Value::Object(map)) => map,
                _ => serde_json::Map::new(),
            };
            fields.insert("use_debugger".into(), on.into());
            match storage::local_set(STORAGE_KEY, &message::to_js(&serde_json::Value::Object(fields))).await {
                Ok(()) => {
                    result.set_class_name("result ok");
                    result.set_text_content(Some(&i18n::message("optAgentSaved")));
                }
                Err(e) => {
                    result.set_class_name("result error");
                    result.set_text_content(Some(&message::error_text(&e)));
                }
            }
        });
    })
}
