//! The composers' chips: the provider and model ("OpenAI · gpt-4o-mini", "On this device" or "Set up a provider")
//! and the permission ("Ask before acting" / "Act, ask for sensitive"). The permission is stored
//! in the agent settings; the worker reads it when a run starts and core's
//! `AgentSettings::policy_for` enforces it, so a blocked site and the safety rules still apply.

use super::composer;
use dusk_chrome::{i18n, message, storage};
use dusk_core::browser_agent::mode::STORAGE_KEY as AGENT_SETTINGS;
use dusk_core::llm::ProviderKind;
use dusk_core::protocol::{Status, WorkerRequest, WorkerResponse};
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

/// What the provider chip says: "OpenAI · gpt-4o-mini", "On this device" or "Set up a
/// provider", and the longer line for its tooltip.
pub async fn provider_label(s: &Status) -> (String, String) {
    if s.on_device {
        return (i18n::message("onThisDevice"), i18n::message("onThisDevice"));
    }
    let Some(p) = s.provider.as_deref() else { return (i18n::message("setUpProvider"), i18n::message("noProvider")) };
    let name = ProviderKind::ALL.iter().find(|k| k.as_str() == p).map_or(p.to_string(), |k| k.display_name().to_string());
    let model = match crate::worker::request(&WorkerRequest::GetSettings).await {
        Ok(WorkerResponse::Settings { settings }) => settings.active().map(|a| a.model).unwrap_or_default(),
        _ => String::new(),
    };
    let text = if model.is_empty() { name.clone() } else { format!("{name} · {model}") };
    (text.clone(), format!("{} {text}", i18n::message("providerConfigured")))
}

/// The agent's provider chip.
pub fn show_provider(chip: &Element) {
    let chip = chip.clone();
    wasm_bindgen_futures::spawn_local(async move {
        if let Ok(s) = crate::status::fetch().await {
            let (text, description) = provider_label(&s).await;
            composer::set_chip(&chip, &text, &description);
        }
    });
}
