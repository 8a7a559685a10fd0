//! The user's provider settings as stored in chrome.storage.local under `settings`.

use crate::protocol::Status;
use serde::{Deserialize, Serialize};

/// The key the settings live under in chrome.storage.local.
pub const STORAGE_KEY: &str = "settings";

/// Stored settings. Unknown or missing fields default, so an old or hand-edited store still loads.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// The provider in use, e.g. "openai"; none means dark mode only.
    pub provider: Option<String>,
    pub model: String,
    pub api_key: String,
    pub base_url: String,
}

impl Settings {
    /// Loads settings from the stored JSON; anything unreadable counts as no settings.
    pub fn from_stored(value: Option<serde_json::Value>) -> Settings {
        value.and_then(|v| serde_json::from_value(v).ok()).unwrap_or_default()
    }

    /// A provider counts as configured when it has what it needs to make a request.
    pub fn provider_configured(&self) -> bool {
        match self.provider.as_deref() {
            None | Some("") => false,
            Some("openai_compatible") => !self.base_url.trim().is_empty(),
            Some(_) => !self.api_key.trim().is_empty(),
        }
    }

    pub fn status(&self, version: &str) -> Status {
        let configured = self.provider_configured();
        Status {
            version: version.to_string(),
            provider_configured: configured,
            provider: if configured { self.provider.clone() } else { None },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn missing_or_garbage_settings_mean_no_provider() {
        assert!(!Settings::from_stored(None).provider_configured());
        assert!(!Settings::from_stored(Some(json!("junk"))).provider_configured());
    }

    #[test]
    fn hosted_provider_needs_a_key_and_local_one_a_url() {
        let s = Settings::from_stored(Some(json!({"provider": "openai", "api_key": " "})));
        assert!(!s.provider_configured());
        let s = Settings::from_stored(Some(json!({"provider": "openai", "api_key": "sk-x"})));
        assert_eq!(s.status("1").provider.as_deref(), Some("openai"));
        let s = Settings::from_stored(Some(json!({"provider": "openai_compatible", "base_url": "http://127.0.0.1:11434/v1"})));
        assert!(s.provider_configured());
    }
}
