//! A run's whole state as JSON, written to chrome.storage.session after every tool result, so a
//! restarted worker resumes where the last one stopped.

use super::budget::BudgetUsed;
use super::events::AgentEvent;
use super::history;
use super::repeat::RepeatGuard;
use super::transcript::Step;
use crate::llm::Message;
use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self", rename_all = "snake_case")]
pub enum RunStatus {
    Running,
    Finished { text: String },
    Failed { message: String },
    Stopped,
}
crate::protocol::tagged::type_tagged!(RunStatus, "state");

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunState {
    pub run_id: String,
    pub agent: String,
    /// The tab the run works on, if any.
    #[serde(default)]
    pub tab_id: Option<i32>,
    pub task: String,
    /// What the model sees: system prompt, task, turns. Only the newest screenshot is an image.
    pub messages: Vec<Message>,
    /// Tool calls run so far.
    #[serde(default)]
    pub step: u32,
    #[serde(default)]
    pub used: BudgetUsed,
    #[serde(default)]
    pub transcript: Vec<Step>,
    #[serde(default)]
    pub repeat: RepeatGuard,
    /// Malformed calls in a row (bad arguments, unknown tool).
    #[serde(default)]
    pub malformed_streak: u32,
    /// The step whose screenshot is the image still in `messages`.
    #[serde(default)]
    pub image_step: Option<u32>,
    pub status: RunStatus,
    /// Whatever the agent needs to finish the run after a restart (e.g. the chat's window).
    #[serde(default)]
    pub extra: Value,
    /// What the agent learned step by step (a browser run's text read per site): only ever
    /// appended, so each entry is written once, however long the run.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub journal: Vec<Value>,
}

impl RunState {
    pub fn new(run_id: impl Into<String>, agent: impl Into<String>, task: impl Into<String>, messages: Vec<Message>) -> Self {
        RunState {
            run_id: run_id.into(),
            agent: agent.into(),
            tab_id: None,
            task: task.into(),
            messages,
            step: 0,
            used: BudgetUsed::default(),
            transcript: Vec::new(),
            repeat: RepeatGuard::default(),
            malformed_streak: 0,
            image_step: None,
            status: RunStatus::Running,
            extra: Value::Null,
            journal: Vec::new(),
        }
    }

    /// The storage key for a run's checkpoint.
    pub fn storage_key(run_id: &str) -> String {
        format!("run:{run_id}")
    }

    pub fn is_running(&self) -> bool {
        self.status == RunStatus::Running
    }

    /// What is written to storage: the state with every image replaced by its placeholder.
    pub fn checkpoint(&self) -> RunState {
        let mut copy = self.clone();
        history::drop_images(&mut copy.messages, self.image_step.unwrap_or(0));
        copy.image_step = None;
        copy
    }

    pub fn to_json(&self) -> Value {
        serde_json::to_value(self.checkpoint()).unwrap_or(Value::Null)
    }

    pub fn from_json(v: Value) -> Result<RunState, String> {
        crate::protocol::from_value(v).map_err(|e| format!("unreadable run checkpoint: {e}"))
    }

    /// The events a UI that (re)connects needs to show the run as it stands.
    pub fn replay(&self) -> Vec<AgentEvent> {
        let mut out = vec![AgentEvent::Started { run_id: self.run_id.clone(), agent: self.agent.clone(), task: self.task.clone(), resumed: false }];
        for s in &self.transcript {
            out.push(AgentEvent::ToolStarted { step: s.n, tool: s.tool.clone(), summary: s.summary.clone() });
            out.push(AgentEvent::ToolFinished { step: s.n, tool: s.tool.clone(), success: s.success, summary: s.summary.clone() });
        }
        out.push(AgentEvent::Usage {
            input_tokens: self.used.input_tokens,
            output_tokens: self.used.output_tokens,
            cost_usd: self.used.priced.then_some(self.used.cost_usd),
        });
        match &self.status {
            RunStatus::Running => {}
            RunStatus::Finished { text } => out.push(AgentEvent::Finished { text: text.clone() }),
            RunStatus::Failed { message } => out.push(AgentEvent::Failed { message: message.clone() }),
            RunStatus::Stopped => out.push(AgentEvent::Stopped),
        }
        out
    }

    /// The run as a JSON document for bug reports: task, steps, totals and outcome.
    pub fn export(&self) -> Value {
        serde_json::json!({
            "run_id": self.run_id,
            "agent": self.agent,
            "task": self.task,
            "status": self.status,
            "used": self.used,
            "steps": self.transcript,
        })
    }
}
