//! The typed messages between the worker, content scripts and UI pages.
//! Every message is a serde enum tagged by `type`; docs/protocol.md lists them all.

pub mod actions;
mod agent;
pub mod caps;
mod chat;
mod connection;
mod content;
mod crash;
pub mod css;
pub mod dark;
pub mod layer;
pub mod page;
pub mod page_blocks;
pub mod page_facts;
pub mod sender;
mod status;
mod stream;
pub(crate) mod tagged;
mod value_reader;
mod worker;

pub use agent::{AgentPortEvent, AgentPortRequest, ConfirmCard, AGENT_PORT};
pub use chat::{ChatEvent, ChatRequest as ChatPortRequest, CHAT_PORT};
pub use connection::{ConnectionReport, UsageTotals};
pub use content::{page_text_reply, ContentRequest, ContentResponse};
pub use sender::{check, check_sender, Sender, NOT_ALLOWED};
pub use status::{Status, StatusReply};
pub use stream::{PortEvent, PortRequest, LLM_PORT};
pub use tagged::TaggedText;
pub use value_reader::{from_str, from_value, Reader};
pub use worker::{WorkerRequest, WorkerResponse};

use crate::CoreError;
use serde::de::DeserializeOwned;

/// Parses a message, turning serde's error into a `CoreError` the caller can report.
pub fn parse<T: DeserializeOwned>(value: serde_json::Value) -> Result<T, CoreError> {
    crate::protocol::from_value(value).map_err(|e| CoreError::BadMessage(e.to_string()))
}
