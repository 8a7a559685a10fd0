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
use dusk_core::CoreError;
use wasm_bindgen::prelude::*;

/// Answers one DOM RPC given and returned as JSON text; messages not from this extension are refused.
/// JSON text crosses the wasm boundary in one copy, far cheaper than building JS objects field by field.
#[wasm_bindgen]
pub fn handle_message(message: &str, sender_id: Option<String>) -> String {
    let response = match check_sender(sender_id.as_deref(), &dusk_chrome::runtime::id()) {
        Err(e) => ContentResponse::Error { message: e.to_string() },
        Ok(()) => {
            if let Some(reply) = dark::reply(message) {
                return reply;
            }
            match serde_json::from_str::<ContentRequest>(message).map_err(|e| CoreError::BadMessage(e.to_string()).to_string()) {
                Ok(request) => rpc::handle(request),
                Err(message) => ContentResponse::Error { message },
            }
        }
    };
    serde_json::to_string(&response).unwrap_or_else(|e| format!("{{\"type\":\"error\",\"message\":\"could not encode the reply: {e}\"}}"))
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
