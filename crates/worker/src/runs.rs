//! Picking up agent runs a dead worker left running, when the worker starts.

use dusk_chrome::message::from_js;
use dusk_chrome::storage;
use dusk_core::agent::RunState;
use wasm_bindgen::prelude::*;

/// Every run whose checkpoint says it is still running.
async fn running() -> Vec<RunState> {
    let Ok(all) = storage::session_all().await else { return vec![] };
    let Ok(map) = from_js::<serde_json::Map<String, serde_json::Value>>(all) else { return vec![] };
    let part = |k: &str| Some(map.get(k)?.as_str()?.to_string());
    map.iter().filter(|(k, _)| k.starts_with("run:")).filter_map(|(_, v)| RunState::from_parts(v.as_str()?, &part).ok()).filter(RunState::is_running).collect()
}

#[cfg(feature = "agents")]
/// Called once when the worker starts: every run a dead worker left running goes on. Each is
/// registered as live before this returns, so port messages (which wait for it) see it.
#[wasm_bindgen]
pub async fn resume_runs() {
    let mut browser_windows = Vec::new();
    for state in running().await {
        match state.agent.as_str() {
            "chat" => crate::chat::resume(state),
            "dark" => crate::dark_agent::resume(state),
            dusk_core::browser_agent::AGENT => {
                browser_windows.extend(state.extra.get("window_id").and_then(|w| w.as_i64()).map(|w| w as i32));
                crate::browser_agent::resume(state)
            }
            _ => {}
        }
    }
    // A boundary whose run didn't survive the worker would block the user's own browsing.
    crate::boundary::lift_stale(&browser_windows).await;
}

/// Called once when the dark-mode build starts: whether a dead worker left runs for the agents'
/// build to pick up. With none, no boundary of theirs may keep blocking the user's browsing.
#[cfg(not(feature = "agents"))]
#[wasm_bindgen]
pub async fn runs_to_resume() -> bool {
    if !running().await.is_empty() {
        return true;
    }
    crate::boundary::lift_stale(&[]).await;
    false
}
