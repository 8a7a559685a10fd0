//! Binds core's LLM `Transport` and `Sleeper` to fetch (or, for the on-device model, Chrome's
//! `LanguageModel`) and setTimeout. No logic.

use crate::fetch::{self, StreamedResponse};
use dusk_chrome::message::error_text;
use dusk_core::llm::{HttpRequest, HttpResponse, LlmClient, Sleeper, Transport, TransportError};
use dusk_core::settings::ProviderSettings;
use wasm_bindgen::JsValue;
use web_sys::AbortSignal;

pub struct FetchTransport {
    pub signal: AbortSignal,
}

pub struct FetchResponse {
    inner: StreamedResponse,
    signal: AbortSignal,
}

/// An abort is a timeout when our timer gave "timeout" as the reason, else the user's Stop.
fn abort_error(signal: &AbortSignal, e: &JsValue) -> TransportError {
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
    type Prompt = crate::on_device::Session;

    async fn prompt(&self, request: dusk_core::llm::on_device::PromptRequest) -> Result<crate::on_device::Session, TransportError> {
        crate::on_device::prompt(request, &self.signal).await
    }

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

/// What the worker remembers of a provider across restarts: a rejected `tools`, the on-device
/// model's context window.
#[derive(Default)]
pub struct Remembered {
    text_protocol: bool,
    context_window: Option<u64>,
}

/// Servers that rejected `tools`, as one object keyed by `text_protocol_key`: a fixed key, so a
/// question reads it with its conversation instead of after the settings.
const TEXT_PROTOCOL_KEY: &str = "text_protocol";
/// Where the on-device session's last `contextWindow` is kept, so the next chat's budget follows it.
const CONTEXT_WINDOW_KEY: &str = "on_device_context_window";

/// The session keys `remembered_in` reads, for a caller to fetch along with its own.
pub const REMEMBERED_KEYS: [&str; 2] = [TEXT_PROTOCOL_KEY, CONTEXT_WINDOW_KEY];

/// What is remembered of `provider`, from a `storage.session.get` that included `REMEMBERED_KEYS`.
pub fn remembered_in(stored: &JsValue, provider: &ProviderSettings) -> Remembered {
    let field = |k: &str| dusk_chrome::storage::field(stored, k);
    let text_protocol = field(TEXT_PROTOCOL_KEY).and_then(|m| dusk_chrome::storage::field(&m, &provider.text_protocol_key())).and_then(|v| v.as_bool());
    let on_device = provider.kind.is_on_device();
    let window = field(CONTEXT_WINDOW_KEY).and_then(|v| v.as_f64()).filter(|w| on_device && w.is_finite() && *w > 0.0);
    Remembered { text_protocol: text_protocol.unwrap_or(false), context_window: window.map(|w| w as u64) }
}

/// Reads what is remembered of `provider`, in one storage call.
pub async fn remembered(provider: &ProviderSettings) -> Remembered {
    let keys: js_sys::Array = REMEMBERED_KEYS.iter().map(|k| JsValue::from_str(k)).collect();
    match dusk_chrome::storage::session_get_keys(&keys).await {
        Ok(stored) => remembered_in(&stored, provider),
        Err(_) => Remembered::default(),
    }
}

/// A client for `provider`, downgraded if this server rejected tools earlier.
pub fn client_with(provider: ProviderSettings, signal: AbortSignal, remembered: Remembered) -> LlmClient<FetchTransport, TimerSleeper> {
    let on_device = provider.kind.is_on_device();
    let client = LlmClient::new(provider, FetchTransport { signal }, TimerSleeper);
    if remembered.text_protocol {
        client.set_text_protocol(true);
    }
    if on_device {
        client.set_context_window(remembered.context_window);
    }
    client
}

/// A client for `provider`, already downgraded if this server rejected tools earlier.
pub async fn client_for(provider: ProviderSettings, signal: AbortSignal) -> LlmClient<FetchTransport, TimerSleeper> {
    let known = remembered(&provider).await;
    client_with(provider, signal, known)
}

/// Remembers a runtime downgrade, so the next request doesn't pay for a rejected `tools` again.
pub async fn remember_downgrade(client: &LlmClient<FetchTransport, TimerSleeper>) {
    if let Some(window) = client.context_window().filter(|_| client.provider().kind.is_on_device()) {
        let _ = dusk_chrome::storage::session_set(CONTEXT_WINDOW_KEY, &JsValue::from_f64(window.min(1 << 40) as f64)).await;
    }
    if client.uses_text_protocol() && client.provider().capabilities().tools {
        let key = JsValue::from_str(&client.provider().text_protocol_key());
        let known = dusk_chrome::storage::session_get(TEXT_PROTOCOL_KEY).await.ok().filter(JsValue::is_object);
        if known.as_ref().is_some_and(|m| js_sys::Reflect::get(m, &key).ok().and_then(|v| v.as_bool()) == Some(true)) {
            return;
        }
        let servers = known.unwrap_or_else(|| js_sys::Object::new().into());
        let _ = js_sys::Reflect::set(&servers, &key, &JsValue::TRUE);
        let _ = dusk_chrome::storage::session_set(TEXT_PROTOCOL_KEY, &servers).await;
    }
}
