//! Reading the on-device model's reply: text deltas become the client's stream events, and the
//! session's `contextUsage`/`contextWindow` its usage.

use super::ContextUse;
use crate::llm::message::{AssistantReply, StopReason};
use crate::llm::stream::{StreamAccumulator, StreamEvent};
use crate::llm::transport_error::TransportError;
use crate::llm::LlmError;

/// A reply from the on-device model, read as text deltas (`promptStreaming`) or one piece (`prompt`).
#[allow(async_fn_in_trait)]
pub trait PromptReply {
    /// The next piece of text; None at the end.
    async fn next_delta(&mut self) -> Option<Result<String, TransportError>>;
    /// `contextUsage`/`contextWindow` once the reply has ended.
    fn context(&self) -> Option<ContextUse>;
}

/// The `Prompt` of a transport with no on-device model (tests of HTTP providers).
pub struct NoPrompt;

impl PromptReply for NoPrompt {
    async fn next_delta(&mut self) -> Option<Result<String, TransportError>> {
        None
    }
    fn context(&self) -> Option<ContextUse> {
        None
    }
}

/// What a transport without a built-in model answers to `prompt`.
pub fn no_on_device_model() -> TransportError {
    TransportError::OnDevice { name: "NotSupportedError".into(), message: "this browser has no built-in model".into() }
}

/// Streams `reply` to `on_event` and returns it whole, with the session's context use.
pub async fn read(mut reply: impl PromptReply, on_event: &mut dyn FnMut(&StreamEvent)) -> Result<(AssistantReply, Option<ContextUse>), LlmError> {
    let mut acc = StreamAccumulator::new();
    let mut text = String::new();
    while let Some(delta) = reply.next_delta().await {
        let delta = delta?;
        if delta.is_empty() {
            continue;
        }
        text.push_str(&delta);
        let e = StreamEvent::TextDelta { text: delta };
        acc.push(&e);
        on_event(&e);
    }
    let context = reply.context();
    let mut ending = vec![];
    if let Some(c) = context {
        ending.push(StreamEvent::Usage { usage: c.usage(&text) });
    }
    ending.push(StreamEvent::Done { stop_reason: Some(StopReason::EndTurn) });
    for e in &ending {
        acc.push(e);
        on_event(e);
    }
    Ok((acc.finish()?, context))
}
