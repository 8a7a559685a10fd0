//! The confirmation gate: a tool names how sensitive a call is (from the real page, never the
//! model's words); the runtime blocks, asks, or goes on. An approval counts only for the exact
//! action it was issued for.

use crate::protocol::page::Rect;
use serde::{Deserialize, Serialize};

pub use crate::browser_agent::safety::{action_digest, ConfirmLevel};

/// The real element an action is about, as the page reported it (for the confirmation card).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct GateTarget {
    pub index: u32,
    pub tag: String,
    pub text: String,
    /// CSS pixels in the top frame's viewport, for the card's highlighted crop.
    pub rect: Rect,
}

/// A tool's verdict on one call.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Gate {
    pub level: ConfirmLevel,
    pub reasons: Vec<String>,
    pub target: Option<GateTarget>,
    /// The page the action happens on.
    pub page: Option<String>,
    /// What the user must see in full before approving, e.g. the script to run.
    pub detail: Option<String>,
    /// What the model is told when the user declines, if more than "the user declined".
    pub declined: Option<String>,
    /// What the model is told when a block is not a rule but a fact, e.g. the target is gone.
    pub refused: Option<String>,
}

impl Gate {
    pub fn auto() -> Self {
        Gate::default()
    }

    pub fn new(level: ConfirmLevel, reasons: Vec<String>) -> Self {
        Gate { level, reasons, ..Gate::default() }
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
    #[serde(default)]
    pub target: Option<GateTarget>,
    #[serde(default)]
    pub page: Option<String>,
    #[serde(default)]
    pub detail: Option<String>,
    /// The call's arguments, for the card's sentence (`browser_agent::card`).
    #[serde(default)]
    pub arguments: serde_json::Value,
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
