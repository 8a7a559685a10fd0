use serde::{Deserialize, Serialize};

/// DOM RPCs the worker sends to a tab's content script with `chrome.tabs.sendMessage`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ContentRequest {
    Ping,
    /// Counts the elements matching a CSS selector.
    CountElements { selector: String },
}

/// The content script's replies.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ContentResponse {
    Pong { version: String, url: String },
    ElementCount { selector: String, count: u32 },
    Error { message: String },
}
