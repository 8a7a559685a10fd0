use crate::chat::{ChatSession, TabInfo};
use serde::{Deserialize, Serialize};

/// The name the side panel gives `chrome.runtime.connect` for chat.
pub const CHAT_PORT: &str = "chat";

/// Messages the side panel posts on the `chat` port.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self", rename_all = "snake_case")]
pub enum ChatRequest {
    /// The window's conversation so far, to render after the panel (re)opens.
    Load {
        window_id: i32,
    },
    /// Open tabs of the window, for the tab picker.
    ListTabs {
        window_id: i32,
    },
    /// A question about `tab_ids`; empty means the active tab, and `@mentions` add tabs.
    Ask {
        window_id: i32,
        question: String,
        tab_ids: Vec<i32>,
    },
    Stop {
        window_id: i32,
    },
    /// Starts a new conversation.
    Clear {
        window_id: i32,
    },
    /// The window's last pass-2 run (steps, tokens, timings) as JSON, for a bug report.
    ExportRun {
        window_id: i32,
    },
    /// Asks the last question again: it and its answer are replaced by the new answer.
    Retry {
        window_id: i32,
    },
    /// `question` about the text selected in the active tab (or the first of `tab_ids`), quoted.
    AskSelection {
        window_id: i32,
        question: String,
        tab_ids: Vec<i32>,
    },
    /// Makes the kept conversation `id` (core::history) the window's, to read and continue.
    Reopen {
        window_id: i32,
        id: String,
    },
}
crate::protocol::tagged::type_tagged!(ChatRequest, "type");

/// What the worker posts back on the `chat` port.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self", rename_all = "snake_case")]
pub enum ChatEvent {
    Session {
        session: ChatSession,
    },
    Tabs {
        tabs: Vec<TabInfo>,
    },
    /// The question was accepted for these tabs.
    Asked {
        text: String,
        tabs: Vec<TabInfo>,
    },
    /// More answer text.
    Delta {
        text: String,
    },
    /// Forget the answer text streamed so far (a retry, or pass 1 asking for tools).
    ResetAnswer,
    /// Pass 2 begins: the model needs to look at the page.
    Looking {
        reason: String,
    },
    /// A pass-2 step for the user to see; screenshots come as data URLs.
    Step {
        text: String,
        screenshot: Option<String>,
    },
    /// Conversation totals; `cost_usd` is None while no answer's model has a known price.
    Usage {
        input_tokens: u64,
        output_tokens: u64,
        cost_usd: Option<f64>,
    },
    Done {
        text: String,
    },
    Stopped,
    Failed {
        message: String,
    },
    /// Answer to `export_run`: the run's JSON, or null when the window has none.
    RunExport {
        run: serde_json::Value,
    },
    /// `ask_selection` found no selected text in the tab.
    NoSelection,
}
crate::protocol::tagged::type_tagged!(ChatEvent, "type");
