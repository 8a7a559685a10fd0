//! One module per provider: each turns a `ChatRequest` into an `HttpRequest` and the provider's
//! responses (whole or streamed) into the common reply and events.

pub mod anthropic;
pub mod gemini;
pub mod openai;
pub mod openai_compatible;

use super::errors::LlmError;
use super::http::HttpRequest;
use super::message::{AssistantReply, ChatRequest, StopReason};
use super::sse::SseEvent;
use super::stream::StreamEvent;
use crate::settings::ProviderSettings;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProviderKind {
    Openai,
    Anthropic,
    Gemini,
    OpenaiCompatible,
    /// Chrome's built-in model through the Prompt API (`LanguageModel`): no key, no URL, no HTTP.
    OnDevice,
}

impl ProviderKind {
    pub const ALL: [ProviderKind; 5] =
        [ProviderKind::Openai, ProviderKind::Anthropic, ProviderKind::Gemini, ProviderKind::OpenaiCompatible, ProviderKind::OnDevice];

    /// The snake_case name used in settings and in `Status.provider`.
    pub fn as_str(self) -> &'static str {
        match self {
            ProviderKind::Openai => "openai",
            ProviderKind::Anthropic => "anthropic",
            ProviderKind::Gemini => "gemini",
            ProviderKind::OpenaiCompatible => "openai_compatible",
            ProviderKind::OnDevice => "on_device",
        }
    }

    pub fn parse(s: &str) -> Option<ProviderKind> {
        Self::ALL.into_iter().find(|k| k.as_str() == s.trim())
    }

    pub fn display_name(self) -> &'static str {
        match self {
            ProviderKind::Openai => "OpenAI",
            ProviderKind::Anthropic => "Anthropic",
            ProviderKind::Gemini => "Google Gemini",
            ProviderKind::OpenaiCompatible => "OpenAI-compatible server",
            ProviderKind::OnDevice => "On this device (Chrome)",
        }
    }

    pub fn default_base_url(self) -> &'static str {
        match self {
            ProviderKind::Openai => "https://api.openai.com/v1",
            ProviderKind::Anthropic => "https://api.anthropic.com",
            ProviderKind::Gemini => "https://generativelanguage.googleapis.com",
            ProviderKind::OpenaiCompatible => "http://localhost:11434/v1",
            ProviderKind::OnDevice => "",
        }
    }

    pub fn default_model(self) -> &'static str {
        match self {
            ProviderKind::Openai => "gpt-4.1-mini",
            ProviderKind::Anthropic => "claude-sonnet-4-5",
            ProviderKind::Gemini => "gemini-2.5-flash",
            ProviderKind::OpenaiCompatible => "qwen2.5:7b",
            ProviderKind::OnDevice => crate::llm::on_device::MODEL_NAME,
        }
    }

    /// Models the options page offers for this kind (any other name can still be typed).
    pub fn known_models(self) -> Vec<&'static str> {
        match self {
            ProviderKind::Openai => crate::llm::usage::known_models(&["gpt-"]),
            ProviderKind::Anthropic => crate::llm::usage::known_models(&["claude-"]),
            ProviderKind::Gemini => crate::llm::usage::known_models(&["gemini-"]),
            ProviderKind::OpenaiCompatible | ProviderKind::OnDevice => vec![self.default_model()],
        }
    }

    /// Local servers usually run without a key; hosted ones never do; Chrome's model has none.
    pub fn needs_api_key(self) -> bool {
        !matches!(self, ProviderKind::OpenaiCompatible | ProviderKind::OnDevice)
    }

    /// The browser's own model: requests go to `LanguageModel`, never over the network.
    pub fn is_on_device(self) -> bool {
        self == ProviderKind::OnDevice
    }
}

impl std::fmt::Display for ProviderKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Joins a base URL and a path without doubling or dropping the slash.
pub(crate) fn join_url(base: &str, path: &str) -> String {
    format!("{}/{}", base.trim().trim_end_matches('/'), path.trim_start_matches('/'))
}

/// Builds the HTTP request for the configured provider.
pub fn build_request(provider: &ProviderSettings, request: &ChatRequest) -> Result<HttpRequest, LlmError> {
    if provider.kind.is_on_device() {
        return Err(LlmError::BadRequest { provider: provider.kind.display_name().into(), message: "the on-device model is not reached over HTTP".into() });
    }
    if provider.kind.needs_api_key() && provider.api_key.trim().is_empty() {
        return Err(LlmError::NotConfigured(format!("{} needs an API key.", provider.kind.display_name())));
    }
    if provider.effective_base_url().is_empty() {
        return Err(LlmError::NotConfigured("the provider has no base URL.".into()));
    }
    let model = if request.model.trim().is_empty() { provider.effective_model() } else { request.model.trim().to_string() };
    if model.is_empty() {
        return Err(LlmError::NotConfigured("no model is set.".into()));
    }
    Ok(match provider.kind {
        ProviderKind::Openai => openai::build_request(provider, &model, request),
        ProviderKind::Anthropic => anthropic::build_request(provider, &model, request),
        ProviderKind::Gemini => gemini::build_request(provider, &model, request),
        ProviderKind::OpenaiCompatible | ProviderKind::OnDevice => openai_compatible::build_request(provider, &model, request),
    })
}

/// Parses a complete (non-streamed) successful response body.
pub fn parse_response(kind: ProviderKind, model: &str, body: &str) -> Result<AssistantReply, LlmError> {
    match kind {
        ProviderKind::Openai | ProviderKind::OpenaiCompatible | ProviderKind::OnDevice => openai::parse_response(kind, model, body),
        ProviderKind::Anthropic => anthropic::parse_response(model, body),
        ProviderKind::Gemini => gemini::parse_response(model, body),
    }
}

/// Decodes one provider's SSE events into `StreamEvent`s.
#[derive(Debug)]
pub enum StreamDecoder {
    Openai(openai::StreamDecoder),
    Anthropic(anthropic::StreamDecoder),
    Gemini(gemini::StreamDecoder),
}

impl StreamDecoder {
    pub fn new(kind: ProviderKind, model: &str) -> Self {
        match kind {
            // On-device replies are text deltas, never SSE; the arm only keeps the match whole.
            ProviderKind::Openai | ProviderKind::OpenaiCompatible | ProviderKind::OnDevice => StreamDecoder::Openai(openai::StreamDecoder::new(kind, model)),
            ProviderKind::Anthropic => StreamDecoder::Anthropic(anthropic::StreamDecoder::new(model)),
            ProviderKind::Gemini => StreamDecoder::Gemini(gemini::StreamDecoder::new(model)),
        }
    }

    pub fn feed(&mut self, event: &SseEvent) -> Result<Vec<StreamEvent>, LlmError> {
        match self {
            StreamDecoder::Openai(d) => d.feed(event),
            StreamDecoder::Anthropic(d) => d.feed(event),
            StreamDecoder::Gemini(d) => d.feed(event),
        }
    }

    /// Called at the end of the byte stream: emits the final `Done` or says the stream was cut.
    pub fn finish(&mut self) -> Result<Vec<StreamEvent>, LlmError> {
        match self {
            StreamDecoder::Openai(d) => d.finish(),
            StreamDecoder::Anthropic(d) => d.finish(),
            StreamDecoder::Gemini(d) => d.finish(),
        }
    }
}

/// The error for a stream that stopped before the provider said it was complete.
/// Ends a stream: one Done when a finish reason was seen (some servers send no end marker), else a cut.
pub(crate) fn end_stream(done: &mut bool, finish: Option<StopReason>) -> Result<Vec<StreamEvent>, LlmError> {
    if *done {
        return Ok(vec![]);
    }
    match finish {
        Some(r) => {
            *done = true;
            Ok(vec![StreamEvent::Done { stop_reason: Some(r) }])
        }
        None => Err(cut_stream()),
    }
}

pub fn cut_stream() -> LlmError {
    LlmError::Network("the response stream ended before the reply was complete".into())
}

/// Parses a JSON body or reports it as malformed, quoting the start of it.
pub(crate) fn parse_json(body: &str) -> Result<serde_json::Value, LlmError> {
    serde_json::from_str(body.trim()).map_err(|e| {
        let start: String = body.trim().chars().take(120).collect();
        LlmError::MalformedResponse(format!("{e} in `{start}`"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_round_trip_as_snake_case() {
        for k in ProviderKind::ALL {
            assert_eq!(ProviderKind::parse(k.as_str()), Some(k));
            assert_eq!(serde_json::to_value(k).unwrap(), serde_json::json!(k.as_str()));
        }
        assert_eq!(ProviderKind::parse("mistral"), None);
    }

    #[test]
    fn urls_join_cleanly() {
        assert_eq!(join_url("https://a/v1/", "/chat/completions"), "https://a/v1/chat/completions");
        assert_eq!(join_url("https://a/v1", "chat/completions"), "https://a/v1/chat/completions");
    }

    #[test]
    fn hosted_providers_need_a_key() {
        let p = ProviderSettings::new(ProviderKind::Anthropic);
        let e = build_request(&p, &ChatRequest::new(vec![])).unwrap_err();
        assert!(matches!(e, LlmError::NotConfigured(_)));
        let p = ProviderSettings::new(ProviderKind::OpenaiCompatible);
        assert!(build_request(&p, &ChatRequest::new(vec![])).is_ok());
    }
}
