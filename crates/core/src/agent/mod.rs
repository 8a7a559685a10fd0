//! The agent runtime: the one tool-calling loop every agent runs on (chat pass 2, dark mode,
//! browser actions). Agents differ only in their `AgentSpec`: prompt, tools, budget.
//!
//! ```ignore
//! let mut state = RunState::new("run-1", "chat", task_messages);
//! let outcome = run(&spec, &mut state, &model, &host, &sink).await;
//! ```

pub mod budget;
pub mod checkpoint;
pub mod checkpoint_parts;
pub mod events;
pub mod gate;
pub mod history;
pub mod host;
pub mod model;
pub mod repeat;
pub mod result;
pub mod run;
pub mod stop;
pub mod tool;
pub mod transcript;

pub use budget::{Budget, BudgetKind, BudgetUsed};
pub use checkpoint::{RunState, RunStatus};
pub use checkpoint_parts::CheckpointWriter;
pub use events::AgentEvent;
pub use gate::{Approval, ConfirmLevel, ConfirmRequest, Gate, GateTarget};
pub use host::{Host, Sink};
pub use model::Model;
pub use result::ToolOutcome;
pub use run::{run, AgentSpec, EndReason, RunOutcome};
pub use stop::StopSignal;
pub use tool::{Registry, Tool, ToolContext, ToolOutput};
pub use transcript::Step;
