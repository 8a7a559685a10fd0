use crate::llm::{AssistantReply, ChatRequest, StreamEvent};
use serde::{Deserialize, Serialize};

/// The name UI pages give `chrome.runtime.connect` to stream a model call.
pub const LLM_PORT: &str = "llm";

/// Messages a UI page posts on the `llm` port.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self", rename_all = "snake_case")]
pub enum PortRequest {
    /// Runs one model call with the active provider; an empty `model` means the configured one.
    Complete { request_id: String, request: ChatRequest },
    /// The user pressed Stop: abort the request, streaming included.
    Stop { request_id: String },
}
crate::protocol::tagged::type_tagged!(PortRequest, "type");

/// What the worker posts back on the `llm` port.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self", rename_all = "snake_case")]
pub enum PortEvent {
    /// One streamed event (text delta, tool call fragment, usage, retrying …).
    Event { request_id: String, event: StreamEvent },
    /// The call finished; `cost_usd` is None when the model's price is unknown.
    Reply { request_id: String, reply: AssistantReply, cost_usd: Option<f64> },
    /// The call was stopped by the user; what streamed so far stays on screen.
    Stopped { request_id: String },
    /// The call failed; `message` is written for the user.
    Failed { request_id: String, message: String },
}
crate::protocol::tagged::type_tagged!(PortEvent, "type");
