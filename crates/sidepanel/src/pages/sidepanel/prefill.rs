//! "Ask Dusk about this" (the context menu): the worker leaves the selection for this window's
//! panel, which puts it in the chat box, quoted, ready for the question.

use dusk_chrome::storage;
use dusk_core::commands::{ChatPrefill, CHAT_PREFILL_KEY};
use wasm_bindgen::JsValue;
use web_sys::HtmlTextAreaElement;

pub fn follow(question: HtmlTextAreaElement, window_id: i32) {
    let take = {
        let question = question.clone();
        move || {
            let question = question.clone();
            wasm_bindgen_futures::spawn_local(async move {
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
