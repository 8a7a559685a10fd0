//! The common streaming vocabulary every provider's stream is decoded into, and the fold from
//! those events back into a complete reply.

use super::errors::LlmError;
use super::message::{AssistantReply, StopReason, ToolCall};
use super::usage::Usage;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self", rename_all = "snake_case")]
pub enum StreamEvent {
    TextDelta {
        text: String,
    },
    /// A tool call begins; `index` counts tool calls in this reply from 0.
    ToolCallStart {
        index: usize,
        id: String,
        name: String,
        signature: Option<String>,
    },
    ToolCallArgsDelta {
        index: usize,
        fragment: String,
    },
    /// Cumulative usage so far; a later event replaces an earlier one.
    Usage {
        usage: Usage,
    },
    Done {
        stop_reason: Option<StopReason>,
    },
    /// The request failed for good; the client also returns the error.
    Error {
        message: String,
    },
    /// A transient failure: output streamed so far for this request must be discarded.
    Retrying {
        attempt: u32,
        delay_ms: u64,
        reason: String,
    },
}
crate::protocol::tagged::type_tagged!(StreamEvent, "type");

#[derive(Debug, Default)]
struct PartialCall {
    id: String,
    name: String,
    args: String,
    signature: Option<String>,
}

/// Folds stream events into an `AssistantReply`.
#[derive(Debug, Default)]
pub struct StreamAccumulator {
    text: String,
    calls: Vec<PartialCall>,
    usage: Option<Usage>,
    stop_reason: Option<StopReason>,
    done: bool,
    error: Option<String>,
}

impl StreamAccumulator {
    pub fn new() -> Self {
        Self::default()
    }

    fn call(&mut self, index: usize) -> &mut PartialCall {
        if self.calls.len() <= index {
            self.calls.resize_with(index + 1, PartialCall::default);
        }
        &mut self.calls[index]
    }

    pub fn push(&mut self, event: &StreamEvent) {
        match event {
            StreamEvent::TextDelta { text } => self.text.push_str(text),
            StreamEvent::ToolCallStart { index, id, name, signature } => {
                let c = self.call(*index);
                c.id = id.clone();
                c.name = name.clone();
                if signature.is_some() {
                    c.signature = signature.clone();
                }
            }
            StreamEvent::ToolCallArgsDelta { index, fragment } => self.call(*index).args.push_str(fragment),
            StreamEvent::Usage { usage } => self.usage = Some(*usage),
            StreamEvent::Done { stop_reason } => {
                self.done = true;
                if stop_reason.is_some() {
                    self.stop_reason = stop_reason.clone();
                }
            }
            StreamEvent::Error { message } => self.error = Some(message.clone()),
            StreamEvent::Retrying { .. } => *self = Self::default(),
        }
    }

    /// Whether the stream said it was complete.
    pub fn is_done(&self) -> bool {
        self.done
    }

    pub fn has_output(&self) -> bool {
        !self.text.is_empty() || !self.calls.is_empty()
    }

    pub fn finish(self) -> Result<AssistantReply, LlmError> {
        if let Some(message) = self.error {
            return Err(LlmError::MalformedResponse(message));
        }
        let tool_calls: Vec<ToolCall> = self
            .calls
            .into_iter()
            .filter(|c| !c.name.is_empty())
            .map(|c| ToolCall { id: c.id, name: c.name, arguments: parse_arguments(&c.args), signature: c.signature })
            .collect();
        let stop_reason = StopReason::normalise(self.stop_reason, !tool_calls.is_empty());
        Ok(AssistantReply { text: self.text, tool_calls, usage: self.usage, stop_reason })
    }
}

/// Streamed arguments arrive as text; invalid JSON is kept verbatim so the error can quote it.
pub fn parse_arguments(raw: &str) -> serde_json::Value {
    if raw.trim().is_empty() {
        return serde_json::json!({});
    }
    serde_json::from_str(raw).unwrap_or_else(|_| serde_json::Value::String(raw.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn folds_text_and_interleaved_tool_calls() {
        let mut acc = StreamAccumulator::new();
        let events = [
            StreamEvent::TextDelta { text: "Let me ".into() },
            StreamEvent::TextDelta { text: "check.".into() },
            StreamEvent::ToolCallStart { index: 0, id: "a".into(), name: "click".into(), signature: None },
            StreamEvent::ToolCallStart { index: 1, id: "b".into(), name: "scroll".into(), signature: None },
            StreamEvent::ToolCallArgsDelta { index: 0, fragment: "{\"index\":".into() },
            StreamEvent::ToolCallArgsDelta { index: 1, fragment: "".into() },
            StreamEvent::ToolCallArgsDelta { index: 0, fragment: "4}".into() },
            StreamEvent::Usage { usage: Usage::new(10, 1) },
            StreamEvent::Usage { usage: Usage::new(10, 5) },
            StreamEvent::Done { stop_reason: None },
        ];
        events.iter().for_each(|e| acc.push(e));
        assert!(acc.is_done());
        let r = acc.finish().unwrap();
        assert_eq!(r.text, "Let me check.");
        assert_eq!(r.tool_calls[0].arguments, json!({"index": 4}));
        assert_eq!(r.tool_calls[1].arguments, json!({}));
        assert_eq!(r.usage, Some(Usage::new(10, 5)));
        assert_eq!(r.stop_reason, StopReason::ToolUse);
    }

    #[test]
    fn retrying_resets_and_errors_surface() {
        let mut acc = StreamAccumulator::new();
        acc.push(&StreamEvent::TextDelta { text: "partial".into() });
        acc.push(&StreamEvent::Retrying { attempt: 1, delay_ms: 5, reason: "x".into() });
        assert!(!acc.has_output());
        acc.push(&StreamEvent::Error { message: "bad".into() });
        assert!(acc.finish().is_err());
    }

    #[test]
    fn invalid_arguments_are_kept_verbatim() {
        assert_eq!(parse_arguments("{\"a\":"), json!("{\"a\":"));
    }
}
