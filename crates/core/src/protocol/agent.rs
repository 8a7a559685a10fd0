//! The `agent` port between the side panel's Agent mode and the worker's browser runs.

use crate::agent::{AgentEvent, ConfirmRequest};
use crate::browser_agent::TabView;
use crate::protocol::actions::FilePayload;
use serde::{Deserialize, Serialize};

/// The name the side panel gives `chrome.runtime.connect` for the agent.
pub const AGENT_PORT: &str = "agent";

/// Messages the side panel posts on the `agent` port.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self", rename_all = "snake_case")]
pub enum AgentPortRequest {
    /// The window's run as it stands (live or last finished), to render after the panel (re)opens.
    Load {
        window_id: i32,
    },
    ListTabs {
        window_id: i32,
    },
    /// A task for the tab `tab_id` (the window's active tab when None).
    Start {
        window_id: i32,
        task: String,
        #[serde(default)]
        tab_id: Option<i32>,
        /// Act on pages (the Agent mode) or customise the site (the Customize mode).
        #[serde(default)]
        kind: crate::browser_agent::RunKind,
    },
    Stop {
        window_id: i32,
    },
    /// The user approved the card `token` was issued with; `files` are those picked for an upload.
    Approve {
        window_id: i32,
        run_id: String,
        step: u32,
        digest: String,
        token: String,
        #[serde(default)]
        files: Vec<FilePayload>,
        /// What the user typed to answer a page's prompt dialog.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        text: Option<String>,
    },
    Deny {
        window_id: i32,
        run_id: String,
        step: u32,
        token: String,
    },
    ExportRun {
        window_id: i32,
    },
}
crate::protocol::tagged::type_tagged!(AgentPortRequest, "type");

/// A confirmation card: the runtime's request plus what the user needs to judge it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConfirmCard {
    pub request: ConfirmRequest,
    /// Issued to the panel with this card only; an approval without it is refused.
    pub token: String,
    /// A JPEG data URL of the page around the highlighted target.
    #[serde(default)]
    pub crop: Option<String>,
    /// The user must pick files before approving.
    #[serde(default)]
    pub upload: bool,
}

/// What the worker posts back on the `agent` port.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self", rename_all = "snake_case")]
// Each event is built, serialised and dropped at once: its size never matters.
#[allow(clippy::large_enum_variant)]
pub enum AgentPortEvent {
    Tabs {
        tabs: Vec<TabView>,
        active: Option<i32>,
    },
    /// No run in this window yet.
    Idle,
    Event {
        event: AgentEvent,
    },
    Confirm {
        card: ConfirmCard,
    },
    /// The card for `step` was answered, timed out or refused; the panel removes it.
    ConfirmClosed {
        step: u32,
        approved: bool,
    },
    RunExport {
        run: serde_json::Value,
    },
    Error {
        message: String,
    },
}
crate::protocol::tagged::type_tagged!(AgentPortEvent, "type");
