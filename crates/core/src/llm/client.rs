//! The request loop, independent of the browser: build, send, retry, stream, accumulate, and
//! fall back to the text protocol when a model can't do function calling. The worker supplies
//! the `Transport` (fetch) and `Sleeper` (setTimeout).

use super::capabilities::{tools_rejected, Capabilities};
use super::errors::{classify, LlmError};
use super::estimate::{estimate_input_tokens, estimate_output_tokens};
use super::http::HttpRequest;
use super::message::{AssistantReply, ChatRequest, Message, StopReason};
use super::on_device::{self, PromptReply, PromptRequest};
use super::providers::wire::cut_stream;
use super::providers::{build_request, parse_response, StreamDecoder};
use super::retry::{parse_retry_after, RetryPolicy};
use super::sse::SseParser;
use super::stream::{StreamAccumulator, StreamEvent};
use super::text_protocol::{downgrade_request, parse_reply};
use super::tools::ToolSpec;
use super::transport_error::TransportError;
use super::usage::Usage;
use crate::settings::ProviderSettings;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::cell::Cell;

/// A response whose body is read chunk by chunk, as fetch's ReadableStream delivers it.
#[allow(async_fn_in_trait)]
pub trait HttpResponse {
    fn status(&self) -> u16;
    /// A header value, looked up case-insensitively.
    fn header(&self, name: &str) -> Option<String>;
    /// The next body chunk; None at the end of the body.
    async fn next_chunk(&mut self) -> Option<Result<Vec<u8>, TransportError>>;
}

/// How a request is carried: HTTP for the cloud and local servers, the browser's `LanguageModel`
/// for the on-device model. No Send bounds: wasm is single-threaded.
#[allow(async_fn_in_trait)]
pub trait Transport {
    type Response: HttpResponse;
    type Prompt: PromptReply;
    async fn send(&self, request: HttpRequest) -> Result<Self::Response, TransportError>;
    /// Runs one request on the on-device model: availability, `create`, `append`, the prompt.
    async fn prompt(&self, request: PromptRequest) -> Result<Self::Prompt, TransportError>;
}

/// Waits between retries.
#[allow(async_fn_in_trait)]
pub trait Sleeper {
    async fn sleep(&self, ms: u64);
}

/// How many times a text-protocol model is asked to fix an unparsable tool call.
const MAX_FORMAT_REPAIRS: u32 = 2;

/// What "Test connection" reports.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConnectionCheck {
    pub model: String,
    pub reply: String,
    pub usage: Option<Usage>,
    /// Capabilities after the check; `tools` is false if the server rejected them.
    pub capabilities: Capabilities,
}

enum Failure {
    ToolsRejected,
    Llm(LlmError),
}

impl From<LlmError> for Failure {
    fn from(e: LlmError) -> Self {
        Failure::Llm(e)
    }
}

impl From<TransportError> for Failure {
    fn from(e: TransportError) -> Self {
        Failure::Llm(e.into())
    }
}

pub struct LlmClient<T, S> {
    transport: T,
    sleeper: S,
    provider: ProviderSettings,
    policy: RetryPolicy,
    capabilities: Cell<Capabilities>,
    /// The on-device session's last `contextWindow`, which the chat's budget follows.
    context_window: Cell<Option<u64>>,
}

impl<T: Transport, S: Sleeper> LlmClient<T, S> {
    pub fn new(provider: ProviderSettings, transport: T, sleeper: S) -> Self {
        let capabilities = Cell::new(provider.capabilities());
        LlmClient { transport, sleeper, provider, policy: RetryPolicy::default(), capabilities, context_window: Cell::new(None) }
    }

    pub fn with_retry_policy(mut self, policy: RetryPolicy) -> Self {
        self.policy = policy;
        self
    }

    pub fn provider(&self) -> &ProviderSettings {
        &self.provider
    }

    /// Current capabilities: the settings' view, minus tools if the server rejected them.
    pub fn capabilities(&self) -> Capabilities {
        self.capabilities.get()
    }

    /// Whether tools are described in the prompt instead of sent natively.
    pub fn uses_text_protocol(&self) -> bool {
        !self.capabilities.get().tools
    }

    /// The on-device model's context window, as its last session reported it (or the caller restored).
    pub fn context_window(&self) -> Option<u64> {
        self.context_window.get()
    }

    pub fn set_context_window(&self, window: Option<u64>) {
        self.context_window.set(window);
    }

    /// Lets the caller restore a downgrade it persisted (the worker may have restarted).
    pub fn set_text_protocol(&self, on: bool) {
        let mut c = self.capabilities.get();
        c.tools = !on;
        self.capabilities.set(c);
    }

    /// Runs one model call: streams events to `on_event` and returns the complete reply.
    /// Tool calls are returned the same way whether they came natively or via the text protocol.
    /// Borrows the request: an agent's whole conversation is not copied for each call.
    pub async fn complete(&self, request: &ChatRequest, mut on_event: impl FnMut(&StreamEvent)) -> Result<AssistantReply, LlmError> {
        let result = self.run(request, &mut on_event).await;
        if let Err(e) = &result {
            on_event(&StreamEvent::Error { message: e.to_string() });
        }
        result
    }

    /// A tiny request for the options page: proves key, URL and model work, and whether the
    /// server accepts tools. No retries, so a bad setting fails fast.
    pub async fn test_connection(&self) -> Result<ConnectionCheck, LlmError> {
        let probe = connection_probe();
        let mut req = ChatRequest::new(vec![Message::system("This is a connection test."), Message::user("Reply with the single word OK.")]);
        req.max_tokens = Some(64);
        if self.capabilities().tools {
            req.tools = vec![probe];
        }
        let policy = RetryPolicy::none();
        let reply = self.run_with(&req, &mut |_: &StreamEvent| {}, &policy).await?;
        Ok(ConnectionCheck { model: self.provider.effective_model(), reply: reply.text, usage: reply.usage, capabilities: self.capabilities() })
    }

    async fn run(&self, request: &ChatRequest, on_event: &mut dyn FnMut(&StreamEvent)) -> Result<AssistantReply, LlmError> {
        let policy = self.policy;
        self.run_with(request, on_event, &policy).await
    }

    async fn run_with(&self, request: &ChatRequest, on_event: &mut dyn FnMut(&StreamEvent), policy: &RetryPolicy) -> Result<AssistantReply, LlmError> {
        let tools = &request.tools;
        let mut convo = self.prepare(request);
        let mut spent: Option<Usage> = None;
        let mut repairs = 0;
        loop {
            let text_protocol = self.uses_text_protocol() && !tools.is_empty();
            let downgraded;
            let wire: &ChatRequest = if text_protocol {
                downgraded = downgrade_request(&convo);
                &downgraded
            } else {
                &convo
            };
            let mut reply = match self.send_with_retries(wire, on_event, policy).await {
                Ok(r) => r,
                Err(Failure::ToolsRejected) => {
                    self.set_text_protocol(true);
                    continue;
                }
                Err(Failure::Llm(e)) => return Err(e),
            };
            let usage = reply.usage.unwrap_or_else(|| Usage {
                input_tokens: estimate_input_tokens(&wire.messages, &wire.tools),
                output_tokens: estimate_output_tokens(&reply.text, &reply.tool_calls),
                estimated: true,
            });
            match spent.as_mut() {
                Some(s) => s.add(&usage),
                None => spent = Some(usage),
            }
            if text_protocol {
                match parse_reply(&reply.text, tools) {
                    Ok(parsed) => {
                        for (index, c) in parsed.tool_calls.iter().enumerate() {
                            on_event(&StreamEvent::ToolCallStart { index, id: c.id.clone(), name: c.name.clone(), signature: None });
                            on_event(&StreamEvent::ToolCallArgsDelta { index, fragment: c.arguments.to_string() });
                        }
                        reply.text = parsed.text;
                        reply.stop_reason = StopReason::normalise(Some(reply.stop_reason), !parsed.tool_calls.is_empty());
                        reply.tool_calls = parsed.tool_calls;
                    }
                    Err(e) if repairs < MAX_FORMAT_REPAIRS => {
                        repairs += 1;
                        on_event(&StreamEvent::Retrying { attempt: repairs, delay_ms: 0, reason: "the reply was not a valid tool call".into() });
                        let repaired = convo.to_mut();
                        repaired.messages.push(Message::assistant(reply.text));
                        repaired.messages.push(Message::user(e.to_string()));
                        continue;
                    }
                    Err(e) => return Err(LlmError::ToolCallFormat { message: e.to_string() }),
                }
            }
            reply.usage = spent;
            return Ok(reply);
        }
    }

    /// Removes images a model without vision would reject; copies the request only then.
    fn prepare<'a>(&self, request: &'a ChatRequest) -> Cow<'a, ChatRequest> {
        let mut req = Cow::Borrowed(request);
        let has_image = |m: &Message| matches!(m, Message::User { images, .. } if !images.is_empty()) || matches!(m, Message::Tool(r) if r.image.is_some());
        if self.capabilities().vision || !request.messages.iter().any(has_image) {
            return req;
        }
        for m in &mut req.to_mut().messages {
            match m {
                Message::User { text, images } if !images.is_empty() => {
                    text.push_str(&format!("\n[{} image(s) omitted: this model cannot view images]", images.len()));
                    images.clear();
                }
                Message::Tool(r) if r.image.is_some() => {
                    r.image = None;
                    r.content.push_str("\n[image omitted: this model cannot view images]");
                }
                _ => {}
            }
        }
        req
    }

    /// The model a request names, or the provider's when it names none.
    fn model_of(&self, wire: &ChatRequest) -> String {
        match wire.model.trim() {
            "" => self.provider.effective_model(),
            m => m.to_string(),
        }
    }

    async fn send_with_retries(&self, wire: &ChatRequest, on_event: &mut dyn FnMut(&StreamEvent), policy: &RetryPolicy) -> Result<AssistantReply, Failure> {
        let mut attempt = 0;
        loop {
            attempt += 1;
            match self.attempt(wire, on_event).await {
                Ok(r) => return Ok(r),
                Err(Failure::ToolsRejected) => return Err(Failure::ToolsRejected),
                Err(Failure::Llm(e)) => match policy.delay_after(attempt, &e) {
                    Some(delay_ms) => {
                        on_event(&StreamEvent::Retrying { attempt, delay_ms, reason: e.to_string() });
                        self.sleeper.sleep(delay_ms).await;
                    }
                    None => return Err(Failure::Llm(e)),
                },
            }
        }
    }

    async fn attempt(&self, wire: &ChatRequest, on_event: &mut dyn FnMut(&StreamEvent)) -> Result<AssistantReply, Failure> {
        let kind = self.provider.kind;
        if kind.is_on_device() {
            return self.attempt_on_device(wire, on_event).await;
        }
        let http = build_request(&self.provider, wire)?;
        let model = self.model_of(wire);
        let mut resp = self.transport.send(http).await?;
        let status = resp.status();
        if !(200..300).contains(&status) {
            let body = read_body(&mut resp).await.unwrap_or_default();
            if !wire.tools.is_empty() && tools_rejected(status, &body) {
                return Err(Failure::ToolsRejected);
            }
            return Err(classify(kind, &model, status, retry_after_ms(&resp), &body).into());
        }
        let json_body = resp.header("content-type").is_some_and(|c| c.to_ascii_lowercase().contains("application/json"));
        if !wire.stream || json_body {
            // Some compatible servers answer a streaming request with one JSON body.
            let body = read_body(&mut resp).await?;
            let reply = parse_response(kind, &model, &body)?;
            replay(&reply, on_event);
            return Ok(reply);
        }
        let mut sse = SseParser::new();
        let mut decoder = StreamDecoder::new(kind, &model);
        let mut acc = StreamAccumulator::new();
        let mut emit = |events: Vec<StreamEvent>, acc: &mut StreamAccumulator| {
            for e in &events {
                acc.push(e);
                on_event(e);
            }
        };
        while let Some(chunk) = resp.next_chunk().await {
            let chunk = chunk?;
            for ev in sse.feed(&chunk) {
                emit(decoder.feed(&ev)?, &mut acc);
            }
            if acc.is_done() {
                break;
            }
        }
        if !acc.is_done() {
            for ev in sse.finish() {
                // An unterminated last event that doesn't parse is a cut stream, not a bad one.
                let events = decoder.feed(&ev).map_err(|e| match e {
                    LlmError::MalformedResponse(_) => cut_stream(),
                    e => e,
                })?;
                emit(events, &mut acc);
            }
            emit(decoder.finish()?, &mut acc);
        }
        Ok(acc.finish()?)
    }
}

impl<T: Transport, S: Sleeper> LlmClient<T, S> {
    /// One request to the browser's model: shaped in core, carried by the transport's `prompt`.
    async fn attempt_on_device(&self, wire: &ChatRequest, on_event: &mut dyn FnMut(&StreamEvent)) -> Result<AssistantReply, Failure> {
        let request = on_device::shape(wire, self.capabilities().vision)?;
        let reply = self.transport.prompt(request).await?;
        let (reply, context) = on_device::reply::read(reply, on_event).await?;
        if let Some(c) = context {
            self.context_window.set(Some(c.window));
        }
        Ok(reply)
    }
}

/// Emits the events a stream would have produced, so callers see one vocabulary either way.
fn replay(reply: &AssistantReply, on_event: &mut dyn FnMut(&StreamEvent)) {
    if !reply.text.is_empty() {
        on_event(&StreamEvent::TextDelta { text: reply.text.clone() });
    }
    for (index, c) in reply.tool_calls.iter().enumerate() {
        on_event(&StreamEvent::ToolCallStart { index, id: c.id.clone(), name: c.name.clone(), signature: c.signature.clone() });
        on_event(&StreamEvent::ToolCallArgsDelta { index, fragment: c.arguments_text() });
    }
    if let Some(usage) = reply.usage {
        on_event(&StreamEvent::Usage { usage });
    }
    on_event(&StreamEvent::Done { stop_reason: Some(reply.stop_reason.clone()) });
}

async fn read_body<R: HttpResponse>(resp: &mut R) -> Result<String, TransportError> {
    let mut bytes = vec![];
    while let Some(chunk) = resp.next_chunk().await {
        bytes.extend(chunk?);
    }
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// `retry-after-ms` (OpenAI) is more precise than `Retry-After`, so it wins.
fn retry_after_ms<R: HttpResponse>(resp: &R) -> Option<u64> {
    let ms = resp.header("retry-after-ms").and_then(|v| v.trim().parse::<f64>().ok()).filter(|v| v.is_finite() && *v >= 0.0);
    ms.map(|v| v.round() as u64).or_else(|| resp.header("retry-after").as_deref().and_then(parse_retry_after))
}

/// The one tool Test connection offers, to learn whether the server accepts tools at all.
pub fn connection_probe() -> ToolSpec {
    ToolSpec::new("report_ok", "Reports that the connection works.", serde_json::json!({"type": "object", "properties": {}}))
}
