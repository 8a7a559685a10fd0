//! Site customisations in storage, and on pages: custom.js registered at document_start for the
//! customised sites (their CSS, after the dark theme), their JS registered as user scripts.

use dusk_chrome::message::{error_text, from_js, to_js};
use dusk_chrome::{scripting, storage, tabs, user_scripts};
use dusk_core::customize::site::{all_records, css_key, patterns, record_key};
use dusk_core::customize::SiteCustom;
use dusk_core::dark::site::match_pattern;
use serde_json::json;
use wasm_bindgen::JsValue;

const REGISTRATION_ID: &str = "dusk-custom";

pub async fn load(host: &str) -> SiteCustom {
    let stored = storage::local_get(&record_key(host)).await.ok().filter(|v| !v.is_undefined());
    SiteCustom::from_stored(host, stored.and_then(|v| from_js(v).ok()))
}

pub async fn all() -> Vec<SiteCustom> {
    let everything = storage::local_all().await.ok().and_then(|v| from_js::<serde_json::Value>(v).ok()).unwrap_or_default();
    let mut records = all_records(&everything);
    records.sort_by(|a, b| a.host.cmp(&b.host));
    records
}

/// Stores `record` (the CSS in effect under its own key), then brings pages in line.
pub async fn save(record: &SiteCustom) -> Result<(), String> {
    let items = json!({ record_key(&record.host): record, css_key(&record.host): record.active_css() });
    storage::local_set_many(&to_js(&items)).await.map_err(|e| error_text(&e))?;
    sync().await;
    load_into_open_tabs(&record.host).await;
    Ok(())
}

pub async fn delete(host: &str) -> Result<(), String> {
    storage::local_remove_many(&[&record_key(host), &css_key(host)]).await.map_err(|e| error_text(&e))?;
    sync().await;
    Ok(())
}

/// Rewrites both registrations from storage: after a change, an import, install and start-up.
pub async fn sync() {
    let records = all().await;
    let filter = to_js(&json!({ "ids": [REGISTRATION_ID] }));
    let _ = scripting::unregister_content_scripts(&filter).await;
    let matches = patterns(&records);
    if !matches.is_empty() {
        let script = json!([{ "id": REGISTRATION_ID, "matches": matches, "js": ["custom.js"], "runAt": "document_start", "allFrames": false, "persistAcrossSessions": true }]);
        if let Err(e) = scripting::register_content_scripts(&to_js(&script)).await {
            crate::console::web_sys_log(&format!("dusk: could not register custom.js: {}", error_text(&e)));
        }
    }
    sync_user_scripts(&records).await;
}

/// Each site's JS as a user script in the USER_SCRIPT world (no chrome.* APIs), if allowed.
async fn sync_user_scripts(records: &[SiteCustom]) {
    if !user_scripts::allowed().await {
        return;
    }
    let _ = user_scripts::unregister(&JsValue::UNDEFINED).await;
    let scripts: Vec<_> = records
        .iter()
        .filter(|r| !r.active_js().trim().is_empty())
        .map(|r| json!({ "id": format!("custom-js:{}", r.host), "matches": [match_pattern(&r.host)], "js": [{ "code": r.active_js() }], "runAt": "document_idle", "world": "USER_SCRIPT" }))
        .collect();
    if scripts.is_empty() {
        return;
    }
    if let Err(e) = user_scripts::register(&to_js(&scripts)).await {
        crate::console::web_sys_log(&format!("dusk: could not register the sites' scripts: {}", error_text(&e)));
    }
}

/// custom.js into the site's open tabs that don't have it yet, so a save shows at once.
async fn load_into_open_tabs(host: &str) {
    let Ok(list) = tabs::query(&to_js(&json!({ "url": [match_pattern(host)] }))).await else { return };
    for tab in js_sys::Array::from(&list).iter() {
        let Some(id) = js_sys::Reflect::get(&tab, &"id".into()).ok().and_then(|v| v.as_f64()) else { continue };
        let injection = to_js(&json!({ "target": { "tabId": id as i32 }, "files": ["custom.js"], "injectImmediately": true }));
        let _ = scripting::execute_script(&injection).await;
    }
}
