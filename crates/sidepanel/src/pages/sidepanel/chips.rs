//! The agent composer's chips: the provider (its name, "On this device" or "Set up a provider")
//! and the permission ("Ask before acting" / "Act, ask for sensitive"). The permission is stored
//! in the agent settings; the worker reads it when a run starts and core's
//! `AgentSettings::policy_for` enforces it, so a blocked site and the safety rules still apply.

use super::composer;
use dusk_chrome::{i18n, message, storage};
use dusk_core::browser_agent::mode::STORAGE_KEY as AGENT_SETTINGS;
use serde_json::{Map, Value};
use web_sys::Element;

const KEY: &str = "ask_before_acting";

/// The stored agent settings as JSON (an empty object when none).
async fn read_settings() -> Map<String, Value> {
    let stored = storage::local_get(AGENT_SETTINGS).await.ok().and_then(|v| message::from_js::<Value>(v).ok());
    match stored {
        Some(Value::Object(map)) => map,
        _ => Map::new(),
    }
}

fn show_permission(chip: &Element, ask_first: bool) {
    let key = if ask_first { "permissionAskFirst" } else { "permissionSensitive" };
    let text = i18n::message(key);
    composer::set_chip(chip, &text, &i18n::message_with("permissionChipLabel", &[&text]));
    let _ = chip.set_attribute("data-ask-first", if ask_first { "true" } else { "false" });
}

/// Shows what is stored now.
pub fn follow_permission(chip: &Element) {
    let chip = chip.clone();
    wasm_bindgen_futures::spawn_local(async move {
        show_permission(&chip, read_settings().await.get(KEY).and_then(Value::as_bool).unwrap_or(false));
    });
}

/// Flips the stored choice, keeping every other agent setting.
pub fn toggle_permission(chip: &Element, status: &Element) {
    let (chip, status) = (chip.clone(), status.clone());
    wasm_bindgen_futures::spawn_local(async move {
        let mut settings = read_settings().await;
        let ask_first = !settings.get(KEY).and_then(Value::as_bool).unwrap_or(false);
        settings.insert(KEY.into(), ask_first.into());
        match storage::local_set(AGENT_SETTINGS, &message::to_js(&Value::Object(settings))).await {
            Ok(()) => show_permission(&chip, ask_first),
            Err(e) => status.set_text_content(Some(&message::error_text(&e))),
        }
    });
}

/// The provider chip: the provider's name, "On this device", or "Set up a provider".
pub fn show_provider(chip: &Element) {
    let chip = chip.clone();
    wasm_bindgen_futures::spawn_local(async move {
        if let Ok(s) = crate::status::fetch().await {
            let name = s
                .provider
                .as_deref()
                .map(|p| dusk_core::llm::ProviderKind::ALL.iter().find(|k| k.as_str() == p).map_or(p.to_string(), |k| k.display_name().to_string()));
            let text = if s.on_device { i18n::message("onThisDevice") } else { name.unwrap_or_else(|| i18n::message("setUpProvider")) };
            composer::set_chip(&chip, &text, &text);
        }
    });
}
