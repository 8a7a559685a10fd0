//! The run's sites where the browser acts: core's `safety::boundary` rules handed to
//! chrome.declarativeNetRequest, and the Public Suffix List that core's site rule reads once.

use dusk_chrome::declarative_net_request as dnr;
use dusk_chrome::message::{error_text, from_js, to_js};
use dusk_core::browser_agent::safety::boundary;
#[cfg(feature = "agents")]
use {dusk_core::browser_agent::safety::site, wasm_bindgen::JsCast, wasm_bindgen_futures::JsFuture};

#[cfg(feature = "agents")]
/// The site rule's inputs: the browser's URL parser, and the Public Suffix List, which ships as
/// data beside the worker (as code it would weigh on every start).
pub async fn load_suffix_list() -> Result<(), String> {
    dusk_chrome::url::use_browser_parser();
    if site::list_loaded() {
        return Ok(());
    }
    let failed = |e: wasm_bindgen::JsValue| format!("the public suffix list could not be read ({})", error_text(&e));
    let url = dusk_chrome::runtime::get_url("public_suffix_list.dat");
    let response: web_sys::Response = JsFuture::from(crate::fetch::scope().fetch_with_str(&url)).await.map_err(failed)?.unchecked_into();
    let text = JsFuture::from(response.text().map_err(failed)?).await.map_err(failed)?;
    site::load_list(&text.as_string().unwrap_or_default())
}

/// Puts the run's rules in force; the tabs of every window besides the run's are the user's own.
pub async fn set(b: &boundary::Boundary) -> Result<(), String> {
    let others: Vec<i32> = crate::window_tabs::query(-1).await?.into_iter().filter_map(|t| t.id).collect();
    dnr::update_session_rules(&to_js(&b.update(&others))).await.map(|_| ()).map_err(|e| error_text(&e))
}

pub async fn lift(window_id: i32) {
    let _ = dnr::update_session_rules(&to_js(&boundary::lift(window_id))).await;
}

#[derive(serde::Deserialize)]
struct RuleId {
    id: u32,
}

/// At start-up: rules of runs that didn't survive the worker come off.
pub async fn lift_stale(live_windows: &[i32]) {
    let Ok(rules) = dnr::get_session_rules().await else { return };
    let ids: Vec<u32> = from_js::<Vec<RuleId>>(rules).unwrap_or_default().into_iter().map(|r| r.id).collect();
    let stale = boundary::stale(&ids, live_windows);
    if !stale.is_empty() {
        let _ = dnr::update_session_rules(&to_js(&serde_json::json!({ "removeRuleIds": stale }))).await;
    }
}
