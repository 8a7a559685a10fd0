//! What the runtime needs from the world, beyond the model: a clock, Stop, checkpoint storage and
//! a check that the run's tab still exists. Each agent's host adds what its tools need.

use super::checkpoint::RunState;
use super::events::AgentEvent;
use super::gate::{Approval, ConfirmRequest};
use super::stop::StopSignal;

#[allow(async_fn_in_trait)]
pub trait Host {
    /// Epoch milliseconds, sub-millisecond where the platform allows.
    fn now_ms(&self) -> f64;
    fn stop_signal(&self) -> &StopSignal;
    /// Writes the run's state (chrome.storage.session in the worker).
    async fn save_checkpoint(&self, state: &RunState);
    /// The host's own part of the checkpoint, put into the state before each write: the run's
    /// tab (if it has one) and `extra`. Set in place, not on a copy of the whole run.
    fn own_state(&self) -> Option<(Option<i32>, serde_json::Value)> {
        None
    }
    /// Entries learned since the last call, appended to the checkpoint's journal before each write.
    fn take_journal(&self) -> Vec<serde_json::Value> {
        Vec::new()
    }
    /// Err with the reason when the run's target is gone, e.g. its tab was closed.
    async fn check_target(&self) -> Result<(), String> {
        Ok(())
    }
    /// Waits for the user's answer to `request`: an approval, or None (denied, or no answer in
    /// time). Hosts without a UI to ask never approve.
    async fn approval(&self, _request: &ConfirmRequest) -> Option<Approval> {
        None
    }
    /// A tool call is about to be judged and run as `step` of `run_id` (a host may ask the user
    /// about what the call sets off, such as a load the browser stopped).
    fn step_started(&self, _run_id: &str, _step: u32) {}
    /// Sees a tool result exactly as the model will read it (a host may note what the model knows).
    fn observe(&self, _tool: &str, _content: &str) {}
}

/// Where events for the UI go.
pub trait Sink {
    fn emit(&self, event: AgentEvent);
}
