//! One module per provider: each turns a `ChatRequest` into an `HttpRequest` and the provider's
//! responses (whole or streamed) into the common reply and events.

pub mod anthropic;
pub mod gemini;
pub mod openai;
pub mod openai_compatible;
pub mod openai_stream;
pub mod wire;

use super::errors::LlmError;
use super::http::HttpRequest;
use super::message::{AssistantReply, ChatRequest};
pub use super::provider_kind::ProviderKind;
use super::sse::SseEvent;
use super::stream::StreamEvent;
use crate::settings::ProviderSettings;

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
    Openai(openai_stream::StreamDecoder),
    Anthropic(anthropic::StreamDecoder),
    Gemini(gemini::StreamDecoder),
}

impl StreamDecoder {
    pub fn new(kind: ProviderKind, model: &str) -> Self {
        match kind {
            // On-device replies are text deltas, never SSE; the arm only keeps the match whole.
            ProviderKind::Openai | ProviderKind::OpenaiCompatible | ProviderKind::OnDevice => {
                StreamDecoder::Openai(openai_stream::StreamDecoder::new(kind, model))
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosted_providers_need_a_key() {
        let p = ProviderSettings::new(ProviderKind::Anthropic);
        let e = build_request(&p, &ChatRequest::new(vec![])).unwrap_err();
        assert!(matches!(e, LlmError::NotConfigured(_)));
        let p = ProviderSettings::new(ProviderKind::OpenaiCompatible);
        assert!(build_request(&p, &ChatRequest::new(vec![])).is_ok());
    }
}
