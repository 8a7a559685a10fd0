//! The `chat` port: binds core's two-pass chat agent to tabs, storage and the side panel.

mod browser;
mod store;
mod tabs;

use crate::fetch::controller_with_timeout;
use crate::llm::{client_for, remember_downgrade};
use crate::route::settings;
use browser::TabBrowser;
use dusk_chrome::message::to_js;
use dusk_chrome::runtime::Port;
use dusk_core::chat::{answer, mention, ChatSession, ChatSink};
use dusk_core::llm::LlmError;
use dusk_core::protocol::{ChatEvent, ChatPortRequest};
use std::cell::RefCell;
use wasm_bindgen::JsValue;
use web_sys::AbortController;

/// A whole answer, pass 2 included, must finish within this.
const ANSWER_TIMEOUT_MS: u32 = 600_000;

thread_local! {
    static RUNNING: RefCell<Vec<(i32, AbortController)>> = const { RefCell::new(Vec::new()) };
}

struct PortSink(Port);

impl ChatSink for PortSink {
    fn emit(&self, event: ChatEvent) {
        // A closed port only means the panel went away; the answer is still saved.
        let _ = self.0.post_message(&to_js(&event));
    }
}

pub async fn handle(port: Port, request: ChatPortRequest) {
    let sink = PortSink(port);
    match request {
        ChatPortRequest::Load { window_id } => sink.emit(ChatEvent::Session { session: store::load(window_id).await }),
        ChatPortRequest::ListTabs { window_id } => sink.emit(ChatEvent::Tabs { tabs: tabs::list(window_id).await }),
        ChatPortRequest::Clear { window_id } => {
            stop(window_id);
            store::clear(window_id).await;
            sink.emit(ChatEvent::Session { session: ChatSession::default() });
        }
        ChatPortRequest::Stop { window_id } => stop(window_id),
        ChatPortRequest::Ask { window_id, question, tab_ids } => ask(&sink, window_id, question, tab_ids).await,
    }
}

fn stop(window_id: i32) {
    RUNNING.with(|r| r.borrow().iter().filter(|(w, _)| *w == window_id).for_each(|(_, c)| c.abort_with_reason(&JsValue::from_str("stop"))));
}

async fn ask(sink: &PortSink, window_id: i32, question: String, tab_ids: Vec<i32>) {
    let Some(provider) = settings::load().await.active().filter(|p| p.is_configured()) else {
        let message = LlmError::NotConfigured("open Dusk's settings to choose one".into()).to_string();
        return sink.emit(ChatEvent::Failed { message });
    };
    let all = tabs::list(window_id).await;
    let mut chosen: Vec<_> = all.iter().filter(|t| tab_ids.contains(&t.tab_id)).cloned().collect();
    for t in mention::mentioned_tabs(&question, &all) {
        if !chosen.iter().any(|c| c.tab_id == t.tab_id) {
            chosen.push(t);
        }
    }
    if chosen.is_empty() {
        chosen.extend(tabs::active(window_id).await);
    }
    let Ok(controller) = controller_with_timeout(ANSWER_TIMEOUT_MS) else {
        return sink.emit(ChatEvent::Failed { message: "could not start the request".into() });
    };
    RUNNING.with(|r| r.borrow_mut().push((window_id, controller.clone())));
    let mut session = store::load(window_id).await;
    store::save_interrupted(window_id, &session, &question, &chosen).await;
    let client = client_for(provider, controller.signal()).await;
    answer(&mut session, &question, chosen, &client, &TabBrowser, sink).await;
    remember_downgrade(&client).await;
    RUNNING.with(|r| r.borrow_mut().retain(|(w, _)| *w != window_id));
    store::save(window_id, &session).await;
}
