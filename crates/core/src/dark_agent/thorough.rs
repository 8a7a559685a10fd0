//! Thorough: the agent runtime with all six tools, seeded like Quick. Its result is the last
//! applied version that passed the guard.

use super::prompt::{context_message, system_thorough};
use super::session::{DarkContext, DarkPage, DarkRunInfo, DarkSession};
use super::tools;
use crate::agent::{AgentSpec, Budget, RunState};
use crate::llm::Message;

/// Thorough's defaults; options may set turns from 1 to 15.
pub const DEFAULT_TURNS: u32 = 5;
pub const MAX_TURNS: u32 = 15;
pub const DEFAULT_INPUT_TOKENS: u64 = 25_000;

pub fn budget(max_turns: u32, max_input_tokens: u64) -> Budget {
    Budget { max_turns: max_turns.clamp(1, MAX_TURNS), max_input_tokens: max_input_tokens.max(1_000), max_wall_ms: 240_000 }
}

pub fn spec<'h, P: DarkPage>(budget: Budget) -> AgentSpec<DarkSession<'h, P>> {
    AgentSpec { name: "dark", tools: tools::registry(), budget, max_tokens: Some(4096), superseded: &[] }
}

pub fn start(run_id: String, ctx: &DarkContext, info: &DarkRunInfo, budget: &Budget) -> RunState {
    let messages = vec![Message::system(system_thorough(budget.max_turns)), context_message(ctx)];
    let mut state = RunState::new(run_id, "dark", format!("Thorough dark mode for {}", info.host), messages);
    state.tab_id = Some(info.tab_id);
    state.extra = serde_json::to_value(info).unwrap_or_default();
    state
}

/// chrome.storage.local key of Thorough's limits, set in options.
pub const SETTINGS_KEY: &str = "dark_agent";

#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct ThoroughSettings {
    pub max_turns: u32,
    pub max_input_tokens: u64,
}

impl Default for ThoroughSettings {
    fn default() -> Self {
        ThoroughSettings { max_turns: DEFAULT_TURNS, max_input_tokens: DEFAULT_INPUT_TOKENS }
    }
}

impl ThoroughSettings {
    pub fn budget(&self) -> Budget {
        budget(self.max_turns, self.max_input_tokens)
    }
}
