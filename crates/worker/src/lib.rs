//! The service worker. JS registers the listeners; each message lands in `handle_message`.

mod browser_agent;
mod chat;
mod clock;
mod content_rpc;
mod dark;
mod dark_agent;
mod foreign_css;
mod fetch;
mod live;
mod llm;
mod port;
mod runs;
mod screenshot;
mod window_tabs;
pub(crate) mod route;

use std::cell::Cell;
use wasm_bindgen::prelude::*;

thread_local! {
    static INIT_MS: Cell<f64> = const { Cell::new(-1.0) };
}

/// JS measures fetch + compile + instantiate and hands the figure over for `ping`.
#[wasm_bindgen]
pub fn set_init_ms(ms: f64) {
    INIT_MS.with(|c| c.set(ms));
}

pub(crate) fn init_ms() -> f64 {
    INIT_MS.with(|c| c.get())
}

/// Answers one message from a UI page; never rejects, errors come back as `{type: "error"}`.
/// `sender_tab`: the tab of the content script that sent it, if any.
#[wasm_bindgen]
pub async fn handle_message(message: JsValue, sender_tab: Option<i32>) -> JsValue {
    if let Ok(json) = dusk_chrome::message::from_js::<serde_json::Value>(message.clone()) {
        if dusk_core::protocol::dark::is_dark_message(&json) {
            let reply = match dusk_core::protocol::parse(json) {
                Ok(request) => dark::handle(request).await,
                Err(e) => dusk_core::protocol::dark::DarkResponse::Error { message: e.to_string() },
            };
            return dusk_chrome::message::to_js(&reply);
        }
    }
    let response = match dusk_chrome::message::from_js(message) {
        Ok(dusk_core::protocol::WorkerRequest::AgentStop) => {
            if let Some(tab) = sender_tab {
                browser_agent::stop_in_tab(tab);
            }
            dusk_core::protocol::WorkerResponse::Saved
        }
        Ok(request) => route::handle(request).await,
        Err(e) => dusk_core::protocol::WorkerResponse::Error { message: e },
    };
    dusk_chrome::message::to_js(&response)
}
