//! The content script. JS registers the listener; each message lands in `handle_message`,
//! which answers synchronously so it can run at document_start.

mod actions;
mod css;
mod dark;
mod dom;
mod overlay;
mod read;
mod registry;
mod rpc;
mod selector;
mod walk;

use dusk_core::protocol::{check_sender, ContentRequest, ContentResponse};
use wasm_bindgen::prelude::*;

/// Answers one DOM RPC; messages not from this extension are refused.
#[wasm_bindgen]
pub fn handle_message(message: JsValue, sender_id: Option<String>) -> JsValue {
    let response = match check_sender(sender_id.as_deref(), &dusk_chrome::runtime::id()) {
        Err(e) => ContentResponse::Error { message: e.to_string() },
        Ok(()) => {
            if let Some(reply) = dark::handle_message(&message) {
                return reply;
            }
            match dusk_chrome::message::from_js::<ContentRequest>(message) {
                Ok(request) => rpc::handle(request),
                Err(message) => ContentResponse::Error { message },
            }
        }
    };
    dusk_chrome::message::to_js(&response)
}

/// Starts dark mode at document_start: the site's memory decides whether to theme the page.
#[wasm_bindgen]
pub fn dark_start() {
    dark::start();
}

/// Forwards chrome.storage.onChanged (local area) so a toggle anywhere reaches every tab of the site.
#[wasm_bindgen]
pub fn dark_memory_changed(changes: JsValue) {
    dark::memory_changed(changes);
}
