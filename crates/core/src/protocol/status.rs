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
