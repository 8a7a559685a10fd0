//! The `llm` port: streams a model call to a UI page and aborts it on Stop or when the page goes.

use crate::fetch::controller_with_timeout;
use crate::llm::{client_for, remember_downgrade};
use crate::route::settings;
use dusk_chrome::message::{error_text, from_js, to_js};
use dusk_chrome::runtime::Port;
use dusk_core::llm::{usage::cost_usd, ChatRequest, LlmError};
use dusk_core::protocol::{PortEvent, PortRequest};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use web_sys::AbortController;

/// A whole streamed answer must finish within this; Stop ends it sooner.
const CALL_TIMEOUT_MS: u32 = 300_000;

thread_local! {
    static IN_FLIGHT: RefCell<Vec<(Port, String, AbortController)>> = const { RefCell::new(Vec::new()) };
}

fn post(port: &Port, event: &PortEvent) {
    // A closed port means the page went away; the abort on disconnect handles the rest.
    let _ = port.post_message(&to_js(event));
}

/// Messages on a long-lived port: `chat` for the side panel, `llm` for raw model calls.
#[wasm_bindgen]
pub async fn handle_port_message(port: Port, message: JsValue) {
    if let Err(message) = crate::allowed(&port.name(), port.sender()) {
        let _ = port.post_message(&to_js(&dusk_core::protocol::WorkerResponse::Error { message: message.into() }));
        return;
    }
    if port.name() == dusk_core::protocol::AGENT_PORT {
        match from_js(message) {
            Ok(request) => crate::browser_agent::handle(port, request).await,
            Err(message) => {
                let _ = port.post_message(&to_js(&dusk_core::protocol::AgentPortEvent::Error { message }));
            }
        }
        return;
    }
    if port.name() == dusk_core::protocol::CHAT_PORT {
        match from_js(message) {
            Ok(request) => crate::chat::handle(port, request).await,
            Err(message) => {
                let _ = port.post_message(&to_js(&dusk_core::protocol::ChatEvent::Failed { message }));
            }
        }
        return;
    }
    match from_js::<PortRequest>(message) {
        Ok(PortRequest::Complete { request_id, request }) => complete(port, request_id, request).await,
        Ok(PortRequest::Stop { request_id }) => abort_where(|_, id| id == request_id),
        Err(message) => post(&port, &PortEvent::Failed { request_id: String::new(), message }),
    }
}

/// The page closed its port: nobody is listening, so stop its calls.
#[wasm_bindgen]
pub fn port_closed(port: Port) {
    crate::chat::port_closed(&port);
    crate::browser_agent::port_closed(&port);
    abort_where(|p, _| js_sys::Object::is(p, &port));
}

fn abort_where(matches: impl Fn(&Port, &str) -> bool) {
    IN_FLIGHT.with(|f| {
        for (p, id, c) in f.borrow().iter() {
            if matches(p, id) {
                c.abort_with_reason(&JsValue::from_str("stop"));
            }
        }
    });
}

async fn complete(port: Port, request_id: String, request: ChatRequest) {
    let Some(provider) = settings::load().await.active().filter(|p| p.is_configured()) else {
        let message = LlmError::NotConfigured("open Dusk's settings to choose one".into()).to_string();
        return post(&port, &PortEvent::Failed { request_id, message });
    };
    let controller = match controller_with_timeout(CALL_TIMEOUT_MS) {
        Ok(c) => c,
        Err(e) => return post(&port, &PortEvent::Failed { request_id, message: error_text(&e) }),
    };
    IN_FLIGHT.with(|f| f.borrow_mut().push((port.clone(), request_id.clone(), controller.clone())));
    let model = provider.effective_model();
    let client = client_for(provider, controller.signal()).await;
    let result = client.complete(&request, |event| post(&port, &PortEvent::Event { request_id: request_id.clone(), event: event.clone() })).await;
    remember_downgrade(&client).await;
    IN_FLIGHT.with(|f| f.borrow_mut().retain(|(_, id, _)| *id != request_id));
    let done = match result {
        Ok(reply) => {
            let cost = reply.usage.as_ref().and_then(|u| cost_usd(&model, u));
            if let Some(u) = &reply.usage {
                settings::record_usage(&model, u).await;
            }
            PortEvent::Reply { request_id, reply, cost_usd: cost }
        }
        Err(LlmError::Aborted) => PortEvent::Stopped { request_id },
        Err(e) => PortEvent::Failed { request_id, message: e.to_string() },
    };
    post(&port, &done);
}
