//! The run's step list: what ran, with what, what came back and what it cost. Shown and exported
//! for bug reports; it never holds API keys, which only the transport sees.

use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Step {
    pub n: u32,
    /// The model turn whose reply asked for this call.
    pub turn: u32,
    pub tool: String,
    pub arguments: Value,
    pub success: bool,
    pub summary: String,
    /// Tokens of the model turn that produced the call.
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub model_ms: f64,
    /// The tool's own time, without `approval_ms`.
    pub tool_ms: f64,
    /// The runtime's own time for this step: parsing, events, checkpoint, next request.
    pub overhead_ms: f64,
    /// How long the step waited on the user's approval: its card made and shown, then answered.
    pub approval_ms: f64,
}

impl Default for Step {
    fn default() -> Self {
        Step {
            n: 0,
            turn: 0,
            tool: String::new(),
            arguments: Value::Null,
            success: false,
            summary: String::new(),
            input_tokens: 0,
            output_tokens: 0,
            model_ms: 0.0,
            tool_ms: 0.0,
            overhead_ms: 0.0,
            approval_ms: 0.0,
        }
    }
}
