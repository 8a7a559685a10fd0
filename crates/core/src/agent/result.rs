//! The standard tool result, as the model reads it: `{ success, data, error?, tool, timestamp }`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolOutcome {
    pub success: bool,
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub data: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    pub tool: String,
    /// Epoch milliseconds when the tool finished.
    pub timestamp: u64,
}

impl ToolOutcome {
    pub fn ok(tool: &str, data: Value, timestamp: f64) -> Self {
        ToolOutcome { success: true, data, error: None, tool: tool.to_string(), timestamp: timestamp as u64 }
    }

    pub fn failed(tool: &str, error: impl Into<String>, timestamp: f64) -> Self {
        ToolOutcome { success: false, data: Value::Null, error: Some(error.into()), tool: tool.to_string(), timestamp: timestamp as u64 }
    }

    /// The tool message's text.
    pub fn to_content(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| format!("{{\"success\":false,\"tool\":\"{}\"}}", self.tool))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serialises_in_the_documented_shape() {
        let ok = ToolOutcome::ok("scroll", serde_json::json!("scrolled to 800"), 1_700_000_000_123.4);
        assert_eq!(ok.to_content(), r#"{"success":true,"data":"scrolled to 800","tool":"scroll","timestamp":1700000000123}"#);
        let bad = ToolOutcome::failed("scroll", "no such tab", 5.0);
        assert_eq!(bad.to_content(), r#"{"success":false,"error":"no such tab","tool":"scroll","timestamp":5}"#);
    }
}
