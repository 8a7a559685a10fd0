//! The page's own dialogs (alert, confirm, prompt, leave-page), as the browser sees them:
//! `Page.javascriptDialogOpening` on the debugger the listener lookup already attaches, answered
//! with `Page.handleJavaScriptDialog`. Nothing runs in the page's world. Core decides what to ask.

use dusk_chrome::debugger;
use dusk_chrome::message::{error_text, from_js, to_js};
use dusk_core::browser_agent::browser::{DialogAnswer, DialogKind, PageDialog};
use serde_json::{json, Value};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::task::{Poll, Waker};
use wasm_bindgen::JsValue;

thread_local! {
    /// Dialogs open in each tab that no step has taken yet.
    static OPEN: RefCell<BTreeMap<i32, PageDialog>> = const { RefCell::new(BTreeMap::new()) };
    /// Steps waiting for a dialog in each tab.
    static WAITING: RefCell<BTreeMap<i32, Vec<Waker>>> = const { RefCell::new(BTreeMap::new()) };
}

/// Attaches (if not yet) and has the browser report the tab's dialogs; false when it can't or
/// the user switched Dusk's use of the debugger off (`listeners::attach` asks `debugger_choice`).
pub async fn watch(tab_id: i32) -> bool {
    if crate::listeners::attach(tab_id).await.is_err() {
        return false;
    }
    if crate::listeners::page_events(tab_id) {
        return true;
    }
    match debugger::send_command(tab_id, "Page.enable", &to_js(&json!({}))).await {
        Ok(_) => {
            crate::listeners::set_page_events(tab_id);
            true
        }
        Err(_) => false,
    }
}

/// `debugger.onEvent` for a tab: a dialog opened or closed.
pub fn event(tab_id: i32, method: &str, params: JsValue) {
    match method {
        "Page.javascriptDialogOpening" => {
            let p: Value = from_js(params).unwrap_or_default();
            let text = |k: &str| p.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
            let kind = match p.get("type").and_then(Value::as_str) {
                Some("confirm") => DialogKind::Confirm,
                Some("prompt") => DialogKind::Prompt,
                Some("beforeunload") => DialogKind::Beforeunload,
                _ => DialogKind::Alert,
            };
            let dialog = PageDialog { kind, message: text("message"), default_prompt: text("defaultPrompt"), url: text("url") };
            OPEN.with(|o| o.borrow_mut().insert(tab_id, dialog));
            WAITING.with(|w| w.borrow_mut().remove(&tab_id)).into_iter().flatten().for_each(Waker::wake);
        }
        // Answered some other way (the user in the tab): no step asks about it any more.
        "Page.javascriptDialogClosed" => {
            OPEN.with(|o| o.borrow_mut().remove(&tab_id));
        }
        _ => {}
    }
}

/// The next dialog opened in the tab that no step has taken.
pub async fn opened(tab_id: i32) -> PageDialog {
    std::future::poll_fn(|cx| match OPEN.with(|o| o.borrow_mut().remove(&tab_id)) {
        Some(dialog) => Poll::Ready(dialog),
        None => {
            // One waker per task: a run's round trips all wait in one task, so this stays small.
            WAITING.with(|w| {
                let mut w = w.borrow_mut();
                let wakers = w.entry(tab_id).or_default();
                if !wakers.iter().any(|k| k.will_wake(cx.waker())) {
                    wakers.push(cx.waker().clone());
                }
            });
            Poll::Pending
        }
    })
    .await
}

pub async fn answer(tab_id: i32, answer: &DialogAnswer) -> Result<(), String> {
    let mut params = json!({ "accept": answer.accept });
    if let Some(text) = &answer.prompt_text {
        params["promptText"] = json!(text);
    }
    debugger::send_command(tab_id, "Page.handleJavaScriptDialog", &to_js(&params)).await.map(|_| ()).map_err(|e| error_text(&e))
}
