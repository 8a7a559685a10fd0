//! A tool call as the model made it. Below the conversation and the tool schemas, which both
//! carry it.

use serde::{Deserialize, Serialize};

/// A tool call the model made.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    /// Normally an object; a string holds arguments that were not valid JSON, verbatim.
    pub arguments: serde_json::Value,
    /// Opaque provider data that must be echoed back (Gemini's thought signature).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
}

impl ToolCall {
    pub fn new(id: impl Into<String>, name: impl Into<String>, arguments: serde_json::Value) -> Self {
        ToolCall { id: id.into(), name: name.into(), arguments, signature: None }
    }

    /// The arguments as an object, which is what Anthropic and Gemini require on replay.
    pub fn arguments_object(&self) -> serde_json::Value {
        match &self.arguments {
            serde_json::Value::Object(_) => self.arguments.clone(),
            serde_json::Value::String(s) => match serde_json::from_str::<serde_json::Value>(s) {
                Ok(v @ serde_json::Value::Object(_)) => v,
                _ => serde_json::json!({}),
            },
            _ => serde_json::json!({}),
        }
    }

    /// The arguments as the JSON text OpenAI expects, keeping invalid JSON exactly as sent.
    pub fn arguments_text(&self) -> String {
        match &self.arguments {
            serde_json::Value::String(s) => s.clone(),
            serde_json::Value::Null => "{}".into(),
            v => v.to_string(),
        }
    }
}
