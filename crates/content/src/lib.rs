//! The content script's two on-demand layers, one build each (docs/architecture.md):
//! - `page` (page_layer.js): reading, actions, overlay, CSS; loaded when the worker first needs it;
//! - `dark` (dark_layer.js): the dark engine and the guard's measure; registered for dark sites.
//!
//! Both answer synchronously; extension/content.js, always in each top frame, routes to them.
// The dark layer uses a few of the shared DOM helpers only.
#![cfg_attr(not(feature = "page"), allow(dead_code, unused_imports))]

#[cfg(feature = "page")]
mod actions;
#[cfg(feature = "page")]
mod css;
#[cfg(feature = "dark")]
mod dark;
mod dom;
#[cfg(feature = "page")]
mod listeners;
mod names;
#[cfg(feature = "page")]
mod overlay;
#[cfg(feature = "page")]
mod read;
#[cfg(feature = "page")]
mod registry;
#[cfg(feature = "page")]
mod rpc;
mod selector;
mod text;
#[cfg(feature = "page")]
mod walk;

use dusk_core::protocol::check_sender;
use wasm_bindgen::prelude::*;

/// Answers one page-layer RPC given and returned as JSON text; messages not from this extension
/// are refused. JSON text crosses the wasm boundary in one copy, far cheaper than building JS
/// objects field by field.
#[cfg(feature = "page")]
#[wasm_bindgen]
pub fn handle_message(message: &str, sender_id: Option<String>) -> String {
    use dusk_core::protocol::{ContentRequest, ContentResponse};
    let response = match check_sender(sender_id.as_deref(), &dusk_chrome::runtime::id()) {
        Err(e) => ContentResponse::Error { message: e.to_string() },
        Ok(()) => match parse::<ContentRequest>(message) {
            Ok(request) => rpc::handle(request),
            Err(message) => ContentResponse::Error { message },
        },
    };
    encode(&response)
}

/// Answers one dark-layer message (`dark_…`) given and returned as JSON text.
#[cfg(feature = "dark")]
#[wasm_bindgen]
pub fn dark_message(message: &str, sender_id: Option<String>) -> String {
    use dusk_core::protocol::dark::DarkContentResponse;
    match check_sender(sender_id.as_deref(), &dusk_chrome::runtime::id()) {
        Err(e) => encode(&DarkContentResponse::Error { message: e.to_string() }),
        Ok(()) => dark::reply(message),
    }
}

/// Starts dark mode (at document_start when registered): the site's memory decides whether to theme the page.
#[cfg(feature = "dark")]
#[wasm_bindgen]
pub fn dark_start() {
    dark::start();
}

/// A same-origin frame's document asks this (top) layer to theme it; false: it starts its own.
#[cfg(feature = "dark")]
#[wasm_bindgen]
pub fn dark_frame(doc: JsValue) -> bool {
    dark::adopt_frame(doc.unchecked_into())
}

/// Forwards chrome.storage.onChanged (local area) so a toggle anywhere reaches every tab of the site.
#[cfg(feature = "dark")]
#[wasm_bindgen]
pub fn dark_memory_changed(changes: JsValue) {
    dark::memory_changed(changes);
}

/// Kept out of its callers (as are the RPC handlers): wasm2js turns a Rust function into a JS
/// function, and V8 compiles a JS function whole on its first call, so one giant function
/// would make every first RPC compile every handler.
#[inline(never)]
fn parse<T: serde::de::DeserializeOwned>(message: &str) -> Result<T, String> {
    serde_json::from_str(message).map_err(|e| dusk_core::CoreError::BadMessage(e.to_string()).to_string())
}

/// Written straight from the derive, not through a `Value`: no map of every reply is built and sorted.
fn encode<T: dusk_core::protocol::TaggedText>(response: &T) -> String {
    response.tagged_text().unwrap_or_else(|e| format!("{{\"type\":\"error\",\"message\":\"could not encode the reply: {e}\"}}"))
}
