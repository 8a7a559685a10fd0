//! Binds core's LLM `Transport` and `Sleeper` to fetch and setTimeout. No logic.

use crate::fetch::{self, StreamedResponse};
use dusk_chrome::message::error_text;
use dusk_core::llm::{HttpRequest, HttpResponse, LlmClient, Sleeper, Transport, TransportError};
use dusk_core::settings::ProviderSettings;
use web_sys::AbortSignal;

pub struct FetchTransport {
    pub signal: AbortSignal,
}

pub struct FetchResponse {
    inner: StreamedResponse,
    signal: AbortSignal,
}

/// An abort is a timeout when our timer gave "timeout" as the reason, else the user's Stop.
fn abort_error(signal: &AbortSignal, e: &wasm_bindgen::JsValue) -> TransportError {
    if signal.aborted() {
        if signal.reason().as_string().as_deref() == Some("timeout") {
            TransportError::Timeout
        } else {
            TransportError::Aborted
        }
    } else {
        TransportError::Network(error_text(e))
    }
}

impl Transport for FetchTransport {
    type Response = FetchResponse;

    async fn send(&self, r: HttpRequest) -> Result<FetchResponse, TransportError> {
        match fetch::fetch(&r.method, &r.url, &r.headers, &r.body, &self.signal).await {
            Ok(inner) => Ok(FetchResponse { inner, signal: self.signal.clone() }),
            Err(e) => Err(abort_error(&self.signal, &e)),
        }
    }
}

impl HttpResponse for FetchResponse {
    fn status(&self) -> u16 {
        self.inner.status
    }

    fn header(&self, name: &str) -> Option<String> {
        self.inner.header(name)
    }

    async fn next_chunk(&mut self) -> Option<Result<Vec<u8>, TransportError>> {
        match self.inner.next_chunk().await? {
            Ok(bytes) => Some(Ok(bytes)),
            Err(e) => Some(Err(abort_error(&self.signal, &e))),
        }
    }
}

pub struct TimerSleeper;

impl Sleeper for TimerSleeper {
    async fn sleep(&self, ms: u64) {
        fetch::sleep(ms.min(u32::MAX as u64) as u32).await;
    }
}

/// A client for `provider`, already downgraded if this server rejected tools earlier.
pub async fn client_for(provider: ProviderSettings, signal: AbortSignal) -> LlmClient<FetchTransport, TimerSleeper> {
    let key = provider.text_protocol_key();
    let known = dusk_chrome::storage::session_get(&key).await.ok().and_then(|v| v.as_bool()).unwrap_or(false);
    let client = LlmClient::new(provider, FetchTransport { signal }, TimerSleeper);
    if known {
        client.set_text_protocol(true);
    }
    client
}

/// Remembers a runtime downgrade, so the next request doesn't pay for a rejected `tools` again.
pub async fn remember_downgrade(client: &LlmClient<FetchTransport, TimerSleeper>) {
    if client.uses_text_protocol() && client.provider().capabilities().tools {
        let key = client.provider().text_protocol_key();
        let _ = dusk_chrome::storage::session_set(&key, &wasm_bindgen::JsValue::TRUE).await;
    }
}
