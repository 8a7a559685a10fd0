//! A window's conversation and its pass-2 run in chrome.storage.session, so the panel and a
//! restarted worker find them.

use dusk_chrome::message::{from_js, to_js};
use dusk_chrome::storage;
use dusk_core::agent::RunState;
use dusk_core::chat::{ChatEntry, ChatSession, TabInfo};
use wasm_bindgen::JsValue;

pub async fn load(window_id: i32) -> ChatSession {
    let stored = storage::session_get(&ChatSession::storage_key(window_id)).await.ok();
    stored.and_then(|v| from_js(v).ok()).unwrap_or_default()
}

pub async fn save(window_id: i32, session: &ChatSession) {
    let _ = storage::session_set(&ChatSession::storage_key(window_id), &to_js(session)).await;
}

pub async fn clear(window_id: i32) {
    let _ = storage::session_remove(&ChatSession::storage_key(window_id)).await;
    let _ = storage::session_remove(&RunState::storage_key(&run_id(window_id))).await;
}

/// Saved before answering: if the worker dies mid-answer, the panel still shows the question.
pub async fn save_interrupted(window_id: i32, session: &ChatSession, question: &str, tabs: &[TabInfo]) {
    let mut copy = session.clone();
    copy.entries.push(ChatEntry::User { text: question.to_string(), tabs: tabs.to_vec() });
    copy.entries.push(ChatEntry::Assistant {
        text: String::new(),
        stopped: false,
        error: Some("The answer was interrupted because the background service restarted. Ask again.".into()),
    });
    save(window_id, &copy).await;
}

/// One chat run per window.
pub fn run_id(window_id: i32) -> String {
    format!("chat-{window_id}")
}

pub fn window_of(run_id: &str) -> Option<i32> {
    run_id.strip_prefix("chat-")?.parse().ok()
}

/// The checkpoint as JSON text: one string is far cheaper to store than a tree of JS objects.
pub async fn save_run(state: &RunState) {
    let text = serde_json::to_string(&state.checkpoint()).unwrap_or_default();
    let _ = storage::session_set(&RunState::storage_key(&state.run_id), &JsValue::from_str(&text)).await;
}

pub async fn load_run(run_id: &str) -> Option<RunState> {
    let text = storage::session_get(&RunState::storage_key(run_id)).await.ok()?.as_string()?;
    serde_json::from_str(&text).ok()
}

/// Every chat run whose checkpoint says it is still running.
pub async fn running_runs() -> Vec<RunState> {
    let Ok(all) = storage::session_all().await else { return vec![] };
    let Ok(map) = from_js::<serde_json::Map<String, serde_json::Value>>(all) else { return vec![] };
    map.into_iter()
        .filter(|(k, _)| k.starts_with("run:chat-"))
        .filter_map(|(_, v)| serde_json::from_str::<RunState>(v.as_str()?).ok())
        .filter(RunState::is_running)
        .collect()
}
