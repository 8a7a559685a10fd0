//! The provider-neutral conversation: what every provider module translates to and from.

pub use super::tool_call::ToolCall;
use super::tools::ToolSpec;
use super::usage::Usage;
use serde::{Deserialize, Serialize};

/// An image sent inline, as providers accept it: base64 data plus its mime type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Image {
    pub mime_type: String,
    /// Base64 without a `data:` prefix.
    pub data: String,
}

impl Image {
    pub fn new(mime_type: impl Into<String>, data: impl Into<String>) -> Self {
        Image { mime_type: mime_type.into(), data: data.into() }
    }

    pub fn data_url(&self) -> String {
        format!("data:{};base64,{}", self.mime_type, self.data)
    }
}

/// The result of running a tool, sent back to the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolResult {
    pub tool_call_id: String,
    pub name: String,
    pub content: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<Image>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub is_error: bool,
}

/// One turn of the conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self", rename_all = "snake_case")]
pub enum Message {
    System {
        text: String,
    },
    User {
        text: String,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        images: Vec<Image>,
    },
    Assistant {
        #[serde(default)]
        text: String,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        tool_calls: Vec<ToolCall>,
    },
    Tool(ToolResult),
}
crate::protocol::tagged::type_tagged!(Message, "role");

impl Message {
    pub fn system(text: impl Into<String>) -> Self {
        Message::System { text: text.into() }
    }
    pub fn user(text: impl Into<String>) -> Self {
        Message::User { text: text.into(), images: vec![] }
    }
    pub fn user_with_images(text: impl Into<String>, images: Vec<Image>) -> Self {
        Message::User { text: text.into(), images }
    }
    pub fn assistant(text: impl Into<String>) -> Self {
        Message::Assistant { text: text.into(), tool_calls: vec![] }
    }
    pub fn tool_result(call: &ToolCall, content: impl Into<String>) -> Self {
        Message::Tool(ToolResult { tool_call_id: call.id.clone(), name: call.name.clone(), content: content.into(), image: None, is_error: false })
    }
}

/// Why the model stopped.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    #[default]
    EndTurn,
    ToolUse,
    MaxTokens,
    ContentFilter,
    Other(String),
}

impl StopReason {
    /// Maps the many provider spellings to one enum.
    pub fn from_provider(s: &str) -> StopReason {
        match s {
            "stop" | "end_turn" | "STOP" | "stop_sequence" | "eos" => StopReason::EndTurn,
            "tool_calls" | "function_call" | "tool_use" => StopReason::ToolUse,
            "length" | "max_tokens" | "MAX_TOKENS" | "model_length" => StopReason::MaxTokens,
            "content_filter" | "refusal" | "SAFETY" | "RECITATION" | "BLOCKLIST" | "PROHIBITED_CONTENT" | "SPII" | "IMAGE_SAFETY" => StopReason::ContentFilter,
            other => StopReason::Other(other.to_string()),
        }
    }

    /// Some providers say "stop" although they called tools; the calls are what matter.
    pub fn normalise(reason: Option<StopReason>, has_tool_calls: bool) -> StopReason {
        match reason {
            None | Some(StopReason::EndTurn) if has_tool_calls => StopReason::ToolUse,
            None => StopReason::EndTurn,
            Some(r) => r,
        }
    }
}

/// A request to a chat model, independent of the provider.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChatRequest {
    /// Empty means the provider settings' model.
    #[serde(default)]
    pub model: String,
    pub messages: Vec<Message>,
    #[serde(default)]
    pub tools: Vec<ToolSpec>,
    #[serde(default)]
    pub stream: bool,
    #[serde(default)]
    pub max_tokens: Option<u32>,
    #[serde(default)]
    pub temperature: Option<f64>,
}

impl ChatRequest {
    pub fn new(messages: Vec<Message>) -> Self {
        ChatRequest { model: String::new(), messages, tools: vec![], stream: false, max_tokens: None, temperature: None }
    }
    pub fn with_tools(mut self, tools: Vec<ToolSpec>) -> Self {
        self.tools = tools;
        self
    }
    pub fn streaming(mut self, stream: bool) -> Self {
        self.stream = stream;
        self
    }
}

/// The model's complete reply, from a stream or a single response.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct AssistantReply {
    pub text: String,
    pub tool_calls: Vec<ToolCall>,
    /// Always set by `LlmClient`, estimated when the provider sent none.
    pub usage: Option<Usage>,
    pub stop_reason: StopReason,
}

impl AssistantReply {
    /// The message to append to the history so the next turn sees this reply.
    pub fn to_message(&self) -> Message {
        Message::Assistant { text: self.text.clone(), tool_calls: self.tool_calls.clone() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn messages_serialise_with_a_role_tag() {
        let m = Message::user("hi");
        assert_eq!(serde_json::to_value(&m).unwrap(), json!({"role": "user", "text": "hi"}));
        let call = ToolCall::new("c1", "click", json!({"index": 1}));
        let back: Message = crate::protocol::from_value(serde_json::to_value(Message::tool_result(&call, "ok")).unwrap()).unwrap();
        assert_eq!(back, Message::tool_result(&call, "ok"));
    }

    #[test]
    fn arguments_survive_both_encodings() {
        let c = ToolCall::new("a", "t", json!("{\"x\":1}"));
        assert_eq!(c.arguments_object(), json!({"x": 1}));
        assert_eq!(c.arguments_text(), "{\"x\":1}");
        let bad = ToolCall::new("a", "t", json!("{oops"));
        assert_eq!(bad.arguments_object(), json!({}));
        assert_eq!(bad.arguments_text(), "{oops");
    }

    #[test]
    fn stop_reasons_normalise() {
        assert_eq!(StopReason::from_provider("tool_calls"), StopReason::ToolUse);
        assert_eq!(StopReason::from_provider("MAX_TOKENS"), StopReason::MaxTokens);
        assert_eq!(StopReason::normalise(Some(StopReason::EndTurn), true), StopReason::ToolUse);
        assert_eq!(StopReason::normalise(None, false), StopReason::EndTurn);
        assert_eq!(StopReason::normalise(Some(StopReason::MaxTokens), true), StopReason::MaxTokens);
    }
}
