//! The options page's dark-mode section: the default engine, Thorough's limits, the default
//! adjustments, and the sites with their own choice.

use crate::dom;
use dusk_chrome::{i18n, message, runtime, storage};
use dusk_core::dark::adjust::{Adjustments, GLOBAL_KEY};
use dusk_core::dark::site::{Mode, MODE_KEY, SITES_KEY};
use dusk_core::dark_agent::thorough::{ThoroughSettings, MAX_TURNS, SETTINGS_KEY};
use dusk_core::protocol::dark::{DarkRequest, DarkResponse};
use wasm_bindgen::prelude::*;
use web_sys::{HtmlElement, HtmlInputElement, HtmlSelectElement};

async fn read<T: serde::de::DeserializeOwned + Default>(key: &str) -> T {
    let v = storage::local_get(key).await.ok();
    v.and_then(|v| message::from_js::<T>(v).ok()).unwrap_or_default()
}

fn number(parent: &web_sys::Element, id: &str, label_key: &str, value: f64, min: f64, max: f64) -> Result<HtmlInputElement, JsValue> {
    let label = dom::append(parent, "label", "field", "")?;
    dom::append_i18n(&label, "span", "", label_key)?;
    let input: HtmlInputElement = dom::document()?.create_element("input")?.dyn_into()?;
    input.set_type("number");
    input.set_id(id);
    input.set_min(&min.to_string());
    input.set_max(&max.to_string());
    input.set_value_as_number(value);
    label.append_child(&input)?;
    Ok(input)
}

pub async fn render(body: &HtmlElement) -> Result<(), JsValue> {
    let section = dom::append(body, "fieldset", "dark-options", "")?;
    section.set_id("dark-options");
    dom::append_i18n(&section, "legend", "", "darkTitle")?;
    let mode: Mode = read(MODE_KEY).await;
    let limits: ThoroughSettings = read(SETTINGS_KEY).await;

    let label = dom::append(&section, "label", "field", "")?;
    dom::append_i18n(&label, "span", "", "darkModeLabel")?;
    let select: HtmlSelectElement = dom::document()?.create_element("select")?.dyn_into()?;
    select.set_id("dark-default-mode");
    for (m, key) in [(Mode::Instant, "darkModeInstant"), (Mode::Quick, "darkModeQuick"), (Mode::Thorough, "darkModeThorough")] {
        let option = dom::append_i18n(&select, "option", "", key)?;
        let value = serde_json::to_value(m).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default();
        option.set_attribute("value", &value)?;
        if m == mode {
            option.set_attribute("selected", "")?;
        }
    }
    label.append_child(&select)?;
    {
        let select = select.clone();
        dom::on(&select.clone().into(), "change", move || {
            let Ok(mode) = dusk_core::protocol::from_value::<Mode>(select.value().into()) else { return };
            wasm_bindgen_futures::spawn_local(async move {
                let _ = runtime::send_message(&message::to_js(&DarkRequest::DarkSetMode { mode, tab_id: None })).await;
            });
        })?;
    }
    let turns = number(&section, "dark-max-turns", "darkMaxTurns", limits.max_turns as f64, 1.0, MAX_TURNS as f64)?;
    let tokens = number(&section, "dark-max-tokens", "darkMaxTokens", limits.max_input_tokens as f64, 1000.0, 1_000_000.0)?;
    let result = dom::append(&section, "div", "result", "")?;
    result.set_id("dark-limits-result");
    result.set_attribute("role", "status")?;
    let save = {
        let (turns, tokens, result) = (turns.clone(), tokens.clone(), result.clone());
        move || {
            let n = |i: &HtmlInputElement, d: f64| if i.value_as_number().is_finite() { i.value_as_number() } else { d };
            let limits = ThoroughSettings {
                max_turns: n(&turns, 5.0).clamp(1.0, MAX_TURNS as f64) as u32,
                max_input_tokens: n(&tokens, 25_000.0).clamp(1000.0, 1_000_000.0) as u64,
            };
            turns.set_value_as_number(limits.max_turns as f64);
            tokens.set_value_as_number(limits.max_input_tokens as f64);
            let result = result.clone();
            wasm_bindgen_futures::spawn_local(async move {
                // A failed write is said, with what to do; the stored limits stay as they were.
                match storage::local_set(SETTINGS_KEY, &message::to_js(&limits)).await {
                    Ok(()) => {
                        result.set_class_name("result");
                        result.set_text_content(None);
                    }
                    Err(e) => {
                        result.set_class_name("result error");
                        result.set_text_content(Some(&format!("{} {}", i18n::message("saveFailed"), message::error_text(&e))));
                    }
                }
            });
        }
    };
    let save2 = save.clone();
    dom::on(&turns.into(), "change", save)?;
    dom::on(&tokens.into(), "change", save2)?;
    adjust_defaults(&section).await?;
    sites(&section).await
}

/// Brightness, contrast, sepia and grayscale for every site without its own (set in the popup).
async fn adjust_defaults(section: &web_sys::Element) -> Result<(), JsValue> {
    let group = dom::append(section, "div", "dark-adjust", "")?;
    group.set_id("dark-adjust-defaults");
    dom::append_i18n(&group, "h3", "", "darkAdjustDefaultsTitle")?;
    let stored: serde_json::Value = read(GLOBAL_KEY).await;
    let sliders = crate::adjust_sliders::render(&group, "dark-adjust-default", Adjustments::from_stored(Some(stored), None).global)?;
    crate::adjust_sliders::aa_note(&group)?;
    sliders.on("change", |adjust| {
        let request = DarkRequest::DarkSetAdjust { tab_id: None, site: false, adjust: Some(adjust) };
        wasm_bindgen_futures::spawn_local(async move {
            let _ = runtime::send_message(&message::to_js(&request)).await;
        });
    })
}

/// The sites with their own choice, each removable (auto then decides for it).
async fn sites(section: &web_sys::Element) -> Result<(), JsValue> {
    let box_ = dom::append(section, "div", "dark-sites", "")?;
    box_.set_id("dark-sites");
    dom::append_i18n(&box_, "h3", "", "darkSitesTitle")?;
    let memory: std::collections::BTreeMap<String, bool> = read(SITES_KEY).await;
    if memory.is_empty() {
        dom::append_i18n(&box_, "p", "notice", "darkSitesEmpty")?;
        return Ok(());
    }
    let list = dom::append(&box_, "ul", "site-list", "")?;
    for (host, on) in memory {
        let row = dom::append(&list, "li", "site", "")?;
        row.set_attribute("data-host", &host)?;
        dom::append(&row, "span", "site-host", &host)?;
        dom::append_i18n(&row, "span", "site-choice", if on { "darkSiteOn" } else { "darkSiteOff" })?;
        let remove = dom::append_i18n(&row, "button", "", "darkSiteRemove")?;
        remove.set_attribute("aria-label", &format!("{} {host}", i18n::message("darkSiteRemove")))?;
        let row2 = row.clone();
        dom::on(&remove, "click", move || {
            let (row, host) = (row2.clone(), host.clone());
            wasm_bindgen_futures::spawn_local(async move {
                let reply = runtime::send_message(&message::to_js(&DarkRequest::DarkForgetSite { host })).await;
                if matches!(reply.map(message::from_js::<DarkResponse>), Ok(Ok(DarkResponse::DarkState(_)))) {
                    row.remove();
                }
            });
        })?;
    }
    Ok(())
}
