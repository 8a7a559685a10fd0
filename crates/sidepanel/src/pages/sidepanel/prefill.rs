//! "Ask Dusk about this" (the context menu): the worker leaves the selection for this window's
//! panel, which puts it in the chat box, quoted, ready for the question.

use dusk_chrome::storage;
use dusk_core::commands::{ChatPrefill, CHAT_PREFILL_KEY};
use wasm_bindgen::JsValue;
use web_sys::HtmlTextAreaElement;

pub fn follow(question: HtmlTextAreaElement, window_id: i32) {
    // One read at a time: the first read and a storage change may both see the same prefill.
    let busy = std::rc::Rc::new(std::cell::Cell::new(false));
    let take = {
        let question = question.clone();
        move || {
            if busy.replace(true) {
                return;
            }
            let (question, busy) = (question.clone(), busy.clone());
            wasm_bindgen_futures::spawn_local(async move {
                take_prefill(&question, window_id).await;
                busy.set(false);
            });
        }
    };
    take();
    storage::on_changed(move |changes, area| {
        if area == "session" && js_sys::Reflect::has(&changes, &CHAT_PREFILL_KEY.into()).unwrap_or(false) {
            take();
        }
    });
}

async fn take_prefill(question: &HtmlTextAreaElement, window_id: i32) {
    let stored = storage::session_get(CHAT_PREFILL_KEY).await.unwrap_or(JsValue::UNDEFINED);
    let Ok(prefill) = dusk_chrome::message::from_js::<ChatPrefill>(stored) else { return };
    if prefill.window_id != window_id {
        return;
    }
    let _ = storage::session_remove(CHAT_PREFILL_KEY).await;
    question.set_value(&format!("{}{}", prefill.text, question.value()));
    let _ = question.focus();
    let end = question.value().encode_utf16().count() as u32;
    let _ = question.set_selection_range(end, end);
}
