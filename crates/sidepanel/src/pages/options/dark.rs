//! The options page's dark-mode section: the default engine and Thorough's limits.

use crate::dom;
use dusk_chrome::{message, runtime, storage};
use dusk_core::dark::site::{Mode, MODE_KEY};
use dusk_core::dark_agent::thorough::{ThoroughSettings, MAX_TURNS, SETTINGS_KEY};
use dusk_core::protocol::dark::DarkRequest;
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
            let Ok(mode) = serde_json::from_value::<Mode>(select.value().into()) else { return };
            wasm_bindgen_futures::spawn_local(async move {
                let _ = runtime::send_message(&message::to_js(&DarkRequest::DarkSetMode { mode, tab_id: None })).await;
            });
        })?;
    }
    let turns = number(&section, "dark-max-turns", "darkMaxTurns", limits.max_turns as f64, 1.0, MAX_TURNS as f64)?;
    let tokens = number(&section, "dark-max-tokens", "darkMaxTokens", limits.max_input_tokens as f64, 1000.0, 1_000_000.0)?;
    let save = {
        let (turns, tokens) = (turns.clone(), tokens.clone());
        move || {
            let n = |i: &HtmlInputElement, d: f64| if i.value_as_number().is_finite() { i.value_as_number() } else { d };
            let limits = ThoroughSettings {
                max_turns: n(&turns, 5.0).clamp(1.0, MAX_TURNS as f64) as u32,
                max_input_tokens: n(&tokens, 25_000.0).clamp(1000.0, 1_000_000.0) as u64,
            };
            turns.set_value_as_number(limits.max_turns as f64);
            tokens.set_value_as_number(limits.max_input_tokens as f64);
            wasm_bindgen_futures::spawn_local(async move {
                let _ = storage::local_set(SETTINGS_KEY, &message::to_js(&limits)).await;
            });
        }
    };
    let save2 = save.clone();
    dom::on(&turns.into(), "change", save)?;
    dom::on(&tokens.into(), "change", save2)?;
    Ok(())
}
