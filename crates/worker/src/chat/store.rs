//! A window's conversation and its pass-2 run in chrome.storage.session, so the panel and a
//! restarted worker find them.

use dusk_chrome::message::{from_js, to_js};
use dusk_chrome::storage;
use dusk_core::chat::{ChatEntry, ChatSession, PendingQuestion, TabInfo};
use dusk_core::history::Item;
use std::cell::RefCell;
use wasm_bindgen::JsValue;

thread_local! {
    /// Per window, the end of an answer whose session is still being saved.
    static SAVING: RefCell<Vec<(i32, js_sys::Promise)>> = const { RefCell::new(Vec::new()) };
}

/// Held while a finished answer's session is saved: the window's next load or clear waits for it,
/// so the window can take the next question at once.
pub struct Saving(i32, Option<js_sys::Function>);

impl Saving {
    pub fn begin(window_id: i32) -> Saving {
        // Not Function::default(): that is `new Function`, which the worker's CSP refuses.
        let mut done = None;
        let promise = js_sys::Promise::new(&mut |resolve, _| done = Some(resolve));
        SAVING.with(|s| s.borrow_mut().push((window_id, promise)));
        Saving(window_id, done)
    }
}

impl Drop for Saving {
    fn drop(&mut self) {
        SAVING.with(|s| s.borrow_mut().retain(|(w, _)| *w != self.0));
        if let Some(done) = &self.1 {
            let _ = done.call0(&JsValue::UNDEFINED);
        }
    }
}

/// Waits for the window's session saves still going.
async fn settled(window_id: i32) {
    while let Some(p) = SAVING.with(|s| s.borrow().iter().find(|(w, _)| *w == window_id).map(|(_, p)| p.clone())) {
        let _ = wasm_bindgen_futures::JsFuture::from(p).await;
    }
}

/// The window's two keys: its conversation, and the question whose answer is running.
fn keys(window_id: i32) -> [String; 2] {
    [ChatSession::storage_key(window_id), PendingQuestion::storage_key(window_id)]
}

/// The conversation, with a question a dead worker left unanswered shown as interrupted.
pub async fn load(window_id: i32) -> ChatSession {
    load_with(window_id, &[]).await.0
}

/// `load`, and what the session keys `also` hold, in the same storage call.
pub async fn load_with(window_id: i32, also: &[&str]) -> (ChatSession, JsValue) {
    settled(window_id).await;
    let [session_key, pending_key] = keys(window_id);
    let names = js_sys::Array::of2(&session_key.as_str().into(), &pending_key.as_str().into());
    for k in also {
        names.push(&JsValue::from_str(k));
    }
    let Ok(stored) = storage::session_get_keys(&names).await else { return (ChatSession::default(), JsValue::UNDEFINED) };
    let field = |key: &str| storage::field(&stored, key);
    let mut session: ChatSession = field(&session_key).and_then(|v| dusk_core::protocol::from_str(&v.as_string()?).ok()).unwrap_or_default();
    if let Some(pending) = field(&pending_key).and_then(|v| from_js::<PendingQuestion>(v).ok()) {
        session.restore_pending(pending);
    }
    (session, stored)
}

/// Saves the conversation; a question it holds is no longer pending. As JSON text: one string is
/// far cheaper to store, and to read back before the next question's request, than a tree of JS objects.
pub async fn save(window_id: i32, session: &ChatSession) {
    let [session_key, pending_key] = keys(window_id);
    if let Ok(text) = serde_json::to_string(session) {
        let _ = storage::session_set(&session_key, &JsValue::from_str(&text)).await;
    }
    let _ = storage::session_remove(&pending_key).await;
}

pub async fn clear(window_id: i32) {
    settled(window_id).await;
    let [session_key, pending_key] = keys(window_id);
    let _ = storage::session_remove_keys(&js_sys::Array::of2(&session_key.into(), &pending_key.into())).await;
    crate::checkpoints::remove(&run_id(window_id)).await;
}

/// Saved as the answer starts: if the worker dies mid-answer, the panel still shows the question.
/// Only the question is written, not the conversation, so the first word doesn't wait behind it;
/// a later save of the window awaits the promise first.
pub fn save_interrupted(window_id: i32, session: &ChatSession, question: &str, tabs: &[TabInfo]) -> js_sys::Promise {
    let pending = to_js(&PendingQuestion { text: question.to_string(), tabs: tabs.to_vec(), after: session.entries.len() });
    wasm_bindgen_futures::future_to_promise(async move {
        let _ = storage::session_set(&PendingQuestion::storage_key(window_id), &pending).await;
        Ok(JsValue::UNDEFINED)
    })
}

/// One chat run per window.
pub fn run_id(window_id: i32) -> String {
    format!("chat-{window_id}")
}

pub fn window_of(run_id: &str) -> Option<i32> {
    run_id.strip_prefix("chat-")?.parse().ok()
}

/// The conversation's history id, given on its first answer; None while it has none.
pub fn history_id(session: &mut ChatSession) -> Option<String> {
    if !session.entries.iter().any(|e| matches!(e, ChatEntry::Assistant { .. })) {
        return None;
    }
    Some(session.history_id.get_or_insert_with(|| format!("chat-{}", crate::clock::now_ms() as u64)).clone())
}

/// Keeps the conversation in history (chrome.storage.local) under `id`.
pub async fn keep(id: Option<String>, session: &ChatSession) {
    if let Some(id) = id {
        crate::history::save(&Item::chat(&id, session, crate::clock::now_ms())).await;
    }
}

/// A kept conversation as the window's own, to read and continue.
pub async fn reopen(window_id: i32, id: &str) -> Option<ChatSession> {
    let item = crate::history::get(id).await?;
    let dusk_core::history::Body::Chat { mut session } = item.body else { return None };
    session.history_id = Some(id.to_string());
    clear(window_id).await;
    save(window_id, &session).await;
    Some(session)
}
