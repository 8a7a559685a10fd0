//! The service worker. JS registers the listeners; each message lands in `handle_message`.
//! Built twice: whole (feature `agents`), and without the agents for dark mode, the popup, the
//! toolbar, shortcuts and the context menu, which is what most of a day's events need; worker.js
//! starts the agents' build when the small one answers a message as not its own.
// What only the agents use is left unused, not wrong, in the dark-mode build.
#![cfg_attr(not(feature = "agents"), allow(dead_code))]

/// Modules only the whole build has.
macro_rules! agents_only {
    ($($module:item)*) => { $( #[cfg(feature = "agents")] $module )* };
}

agents_only! {
    mod browser_agent;
    mod chat;
    mod checkpoints;
    mod content_rpc;
    mod debugger_choice;
    mod dialogs;
    mod frames;
    mod history;
    mod listeners;
    mod live;
    mod llm;
    mod on_device;
    mod port;
    mod read_port;
    pub(crate) mod route;
    mod screenshot;
}
mod boundary;
mod clock;
mod commands;
mod console;
mod customize;
mod dark;
mod dark_agent;
mod fetch;
mod foreign_css;
mod layer_load;
mod runs;
mod status;
mod stored;
mod toolbar;
mod window_tabs;

use dusk_core::protocol::sender::{check, Sender};
use dusk_core::protocol::{WorkerRequest, WorkerResponse};
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

/// `runtime.onInstalled`: the dark sites' registration is rewritten (so an update's
/// dark_layer.js replaces the previous one), the context menu made, and on a first install
/// the welcome page opened.
#[wasm_bindgen]
pub async fn installed(reason: String) {
    dark::sync_registration(&stored::load_memory().await).await;
    customize::sync().await;
    commands::install_menus().await;
    if reason == "install" {
        let _ = dusk_chrome::tabs::create(&dusk_chrome::message::to_js(&serde_json::json!({ "url": "welcome.html" }))).await;
    }
}

/// `commands.onCommand`: a keyboard shortcut, with the tab it was pressed in.
#[wasm_bindgen]
pub async fn on_command(name: String, tab: JsValue) {
    commands::on_command(&name, dusk_chrome::message::from_js(tab).unwrap_or_default()).await;
}

/// `contextMenus.onClicked`: the item, the selection (if any) and the tab.
#[wasm_bindgen]
pub async fn on_menu(id: String, selection: Option<String>, tab: JsValue) {
    commands::on_menu(&id, selection, dusk_chrome::message::from_js(tab).unwrap_or_default()).await;
}

/// `tabs.onUpdated` with a new URL: the toolbar button follows the tab's site.
#[wasm_bindgen]
pub async fn tab_changed(tab_id: i32) {
    toolbar::refresh(tab_id).await;
}

#[cfg(feature = "agents")]
/// `debugger.onDetach`: the tab's debugging ended (the user may have closed Chrome's bar).
#[wasm_bindgen]
pub fn debugger_detached(tab_id: i32, reason: String) {
    listeners::detached(tab_id, &reason);
}

#[cfg(feature = "agents")]
/// `debugger.onEvent`: the page's dialogs (worker.js passes only `Page.javascriptDialog*`).
#[wasm_bindgen]
pub fn debugger_event(tab_id: i32, method: String, params: JsValue) {
    dialogs::event(tab_id, &method, params);
}

#[cfg(feature = "agents")]
/// `storage.onChanged` of `agent_settings`: the debugger switch takes effect at once.
#[wasm_bindgen]
pub fn agent_settings_changed(value: JsValue) {
    let value = dusk_chrome::message::from_js::<serde_json::Value>(value).ok();
    let on = dusk_core::browser_agent::AgentSettings::from_stored(value).use_debugger;
    debugger_choice::set(on);
    // Switched off, the debugger leaves every tab now.
    if !on {
        wasm_bindgen_futures::spawn_local(listeners::release_all());
    }
}

/// Checks `kind` (a message type or port name) against core's sender table.
pub(crate) fn allowed(kind: &str, sender: JsValue) -> Result<Sender, &'static str> {
    let sender: Sender = dusk_chrome::message::from_js(sender).unwrap_or_default();
    check(kind, &sender, &dusk_chrome::runtime::id(), &dusk_chrome::runtime::get_url(""))?;
    Ok(sender)
}

/// Answers one message; never rejects, errors come back as `{type: "error"}`. `sender` is the
/// browser's `MessageSender`: each message type is served only to the senders core's table allows.
/// The dark-mode build answers `undefined` to what only the agents' build serves (worker.js then
/// hands the message to that one).
#[wasm_bindgen]
pub async fn handle_message(message: JsValue, sender: JsValue) -> JsValue {
    let json = match dusk_chrome::message::from_js::<serde_json::Value>(message) {
        Ok(json) => json,
        Err(message) => return dusk_chrome::message::to_js(&WorkerResponse::Error { message }),
    };
    let kind = json.get("type").and_then(|t| t.as_str()).unwrap_or_default().to_string();
    let sender = match allowed(&kind, sender) {
        Ok(s) => s,
        Err(message) => return dusk_chrome::message::to_js(&WorkerResponse::Error { message: message.into() }),
    };
    if dusk_core::protocol::dark::is_dark_message(&json) {
        let reply = match dusk_core::protocol::parse::<dusk_core::protocol::dark::DarkRequest>(json) {
            Ok(request) if !cfg!(feature = "agents") && request.is_refinement() => return JsValue::UNDEFINED,
            Ok(request) => dark::handle(request, &sender).await,
            Err(e) => dusk_core::protocol::dark::DarkResponse::Error { message: e.to_string() },
        };
        return dusk_chrome::message::to_js(&reply);
    }
    match worker_request(json, &sender).await {
        Some(response) => dusk_chrome::message::to_js(&response),
        None => JsValue::UNDEFINED,
    }
}

#[cfg(feature = "agents")]
async fn worker_request(json: serde_json::Value, sender: &Sender) -> Option<WorkerResponse> {
    Some(match dusk_core::protocol::parse::<WorkerRequest>(json) {
        Ok(WorkerRequest::AgentStop) => {
            if let Some(tab) = sender.tab_id() {
                browser_agent::stop_in_tab(tab);
            }
            WorkerResponse::Saved
        }
        Ok(request) => route::handle(request).await,
        Err(e) => WorkerResponse::Error { message: e.to_string() },
    })
}

/// The dark-mode build's part: what the popup asks on opening.
#[cfg(not(feature = "agents"))]
async fn worker_request(json: serde_json::Value, _sender: &Sender) -> Option<WorkerResponse> {
    match dusk_core::protocol::parse::<WorkerRequest>(json).ok()? {
        WorkerRequest::Ping => Some(status::pong()),
        WorkerRequest::GetStatus => Some(status::status().await),
        _ => None,
    }
}
