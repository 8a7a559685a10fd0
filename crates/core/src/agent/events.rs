//! What a run tells the UI, so the popup and side panel can show progress.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self", rename_all = "snake_case")]
pub enum AgentEvent {
    /// `resumed` is true when a restarted worker picked the run up from its checkpoint.
    Started {
        run_id: String,
        agent: String,
        task: String,
        resumed: bool,
    },
    /// Model turn `n` of at most `of` begins.
    ModelTurn {
        n: u32,
        of: u32,
    },
    /// Streamed text of the current turn.
    TextDelta {
        text: String,
    },
    /// Forget the text streamed in this turn (the provider retried).
    TextReset,
    ToolStarted {
        step: u32,
        tool: String,
        summary: String,
    },
    ToolFinished {
        step: u32,
        tool: String,
        success: bool,
        summary: String,
    },
    Screenshot {
        step: u32,
        data_url: String,
    },
    /// A line about the whole run, shown once under its task (what a setting leaves out).
    Note {
        text: String,
    },
    /// A sensitive action waits for the user's approval (browser agent).
    ConfirmRequest {
        step: u32,
        tool: String,
        summary: String,
    },
    /// Run totals so far.
    /// `cost_usd` is None while no model of the run has a known price.
    Usage {
        input_tokens: u64,
        output_tokens: u64,
        cost_usd: Option<f64>,
    },
    Finished {
        text: String,
    },
    Failed {
        message: String,
    },
    Stopped,
}
crate::protocol::tagged::type_tagged!(AgentEvent, "type");
