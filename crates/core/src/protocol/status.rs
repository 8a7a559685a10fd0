//! The extension's state as every UI page asks for it; the settings make it.

use serde::{Deserialize, Serialize};

/// The extension's state as a UI page shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Status {
    pub version: String,
    pub provider_configured: bool,
    /// The provider's kind, e.g. "openai", when one is configured.
    pub provider: Option<String>,
    /// The active provider is the browser's own model: page text stays on this device.
    #[serde(default)]
    pub on_device: bool,
}

/// The worker's reply to `get_status`, read as only the replies it can be: a page that asks
/// for the status alone (the popup) then carries no decoder for every other worker reply.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self", rename_all = "snake_case")]
pub enum StatusReply {
    Status(Status),
    Error { message: String },
}
crate::protocol::tagged::type_tagged!(StatusReply, "type");
