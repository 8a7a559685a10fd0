//! A site's refinement history (chrome.storage.local), its active CSS (the key pages read at
//! document_start), and each tab's run view for the popup (chrome.storage.session).

use dusk_chrome::message::{error_text, to_js};
use dusk_chrome::storage;
use dusk_core::dark_agent::versions::{history_key, theme_key, SiteThemes};
use dusk_core::protocol::dark::{DarkRunView, VersionView};
use wasm_bindgen::JsValue;

pub async fn history(host: &str) -> SiteThemes {
    let v = storage::local_get(&history_key(host)).await.ok();
    v.and_then(|v| serde_wasm_bindgen::from_value::<serde_json::Value>(v).ok()).and_then(|v| dusk_core::protocol::from_value(v).ok()).unwrap_or_default()
}

/// Saves the history and publishes its active CSS, which every open page of the site follows.
pub async fn save_history(host: &str, themes: &SiteThemes) -> Result<(), String> {
    storage::local_set(&history_key(host), &to_js(themes)).await.map_err(|e| error_text(&e))?;
    let css = themes.active_css().unwrap_or("");
    storage::local_set(&theme_key(host), &JsValue::from_str(css)).await.map_err(|e| error_text(&e))
}

pub fn version_view(themes: &SiteThemes) -> Option<VersionView> {
    let i = themes.active?;
    let v = themes.versions.get(i)?;
    Some(VersionView { number: i as u32 + 1, mode: v.mode, model: v.model.clone(), aa: v.aa, created_ms: v.created_ms })
}

fn view_key(tab_id: i32) -> String {
    format!("dark_run:{tab_id}")
}

pub async fn view(tab_id: i32) -> Option<DarkRunView> {
    let text = storage::session_get(&view_key(tab_id)).await.ok()?.as_string()?;
    dusk_core::protocol::from_str(&text).ok()
}

pub async fn set_view(tab_id: i32, view: &DarkRunView) {
    let text = serde_json::to_string(view).unwrap_or_default();
    let _ = storage::session_set(&view_key(tab_id), &JsValue::from_str(&text)).await;
}
