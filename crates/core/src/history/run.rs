//! An agent or Customize run as kept: the task, each step with its small screenshot, the outcome
//! and what it cost. Built from the run's checkpoint and the thumbnails the worker made.

use crate::agent::{RunState, RunStatus};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KeptStep {
    pub n: u32,
    pub tool: String,
    pub summary: String,
    pub success: bool,
    /// A small JPEG data URL of the page after the step, when one was taken.
    #[serde(default)]
    pub thumb: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KeptRun {
    pub task: String,
    pub status: RunStatus,
    pub steps: Vec<KeptStep>,
    pub input_tokens: u64,
    pub output_tokens: u64,
    #[serde(default)]
    pub cost_usd: Option<f64>,
}

impl KeptRun {
    /// The run's steps and outcome; `thumbs` are (step, data URL) pairs.
    pub fn from_state(state: &RunState, thumbs: &[(u32, String)]) -> KeptRun {
        let steps = state
            .transcript
            .iter()
            .map(|s| KeptStep {
                n: s.n,
                tool: s.tool.clone(),
                summary: s.summary.clone(),
                success: s.success,
                thumb: thumbs.iter().rev().find(|(n, _)| *n == s.n).map(|(_, t)| t.clone()),
            })
            .collect();
        let used = &state.used;
        KeptRun {
            task: state.task.clone(),
            status: state.status.clone(),
            steps,
            input_tokens: used.input_tokens,
            output_tokens: used.output_tokens,
            cost_usd: used.priced.then_some(used.cost_usd),
        }
    }

    /// The run with its oldest thumbnails dropped until it fits in `bytes`.
    pub fn within(mut self, bytes: usize) -> KeptRun {
        let size = |r: &KeptRun| serde_json::to_string(r).map_or(0, |s| s.len());
        for i in 0..self.steps.len() {
            if size(&self) <= bytes {
                break;
            }
            self.steps[i].thumb = None;
        }
        self
    }

    /// The text the run ended with: its answer, its failure, or nothing when stopped.
    pub fn outcome(&self) -> Option<&str> {
        match &self.status {
            RunStatus::Finished { text } => Some(text),
            RunStatus::Failed { message } => Some(message),
            RunStatus::Running | RunStatus::Stopped => None,
        }
    }
}
