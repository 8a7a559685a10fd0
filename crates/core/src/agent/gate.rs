//! The confirmation gate: a tool names how sensitive a call is (from the real page, never the
//! model's words); the runtime blocks, asks, or goes on. An approval counts only for the exact
//! action it was issued for.

use serde::{Deserialize, Serialize};

pub use crate::browser_agent::safety::{action_digest, ConfirmLevel};

/// A tool's verdict on one call.
#[derive(Debug, Clone, PartialEq)]
pub struct Gate {
    pub level: ConfirmLevel,
    pub reasons: Vec<String>,
}

impl Gate {
    pub fn auto() -> Self {
        Gate { level: ConfirmLevel::Auto, reasons: Vec::new() }
    }
}

/// What the user is asked to approve.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConfirmRequest {
    pub run_id: String,
    pub step: u32,
    pub tool: String,
    pub summary: String,
    pub reasons: Vec<String>,
    /// `action_digest` of this exact call; the approval must carry it.
    pub digest: String,
}

/// Issued by the side panel when the user approves one action.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Approval {
    pub run_id: String,
    pub step: u32,
    pub digest: String,
}

impl Approval {
    pub fn is_for(&self, request: &ConfirmRequest) -> bool {
        self.run_id == request.run_id && self.step == request.step && self.digest == request.digest
    }
}
