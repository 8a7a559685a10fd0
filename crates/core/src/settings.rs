//! The user's provider settings as stored in chrome.storage.local under `settings`.

use crate::llm::capabilities::{self, Capabilities};
use crate::llm::ProviderKind;
use crate::protocol::Status;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The key the settings live under in chrome.storage.local.
pub const STORAGE_KEY: &str = "settings";

/// What `redacted()` puts in place of a key; `restore_keys` swaps it back before saving.
pub const REDACTED_KEY: &str = "<redacted>";

/// One provider's settings. Debug never prints the key.
#[derive(Clone, PartialEq, Serialize, Deserialize)]
pub struct ProviderSettings {
    pub kind: ProviderKind,
    /// Empty means the kind's default model.
    #[serde(default)]
    pub model: String,
    /// Empty means the kind's default base URL.
    #[serde(default)]
    pub base_url: String,
    #[serde(default)]
    pub api_key: String,
    /// Overrides the capability table when the user knows better.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_tools: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_vision: Option<bool>,
    /// On-device only: "let the on-device model drive agents" (Thorough, the browser agent, Customize).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub drive_agents: bool,
}

impl ProviderSettings {
    /// A provider with its default model and base URL and no key.
    pub fn new(kind: ProviderKind) -> Self {
        ProviderSettings {
            kind,
            model: kind.default_model().to_string(),
            base_url: kind.default_base_url().to_string(),
            api_key: String::new(),
            supports_tools: None,
            supports_vision: None,
            drive_agents: false,
        }
    }

    pub fn effective_model(&self) -> String {
        let m = self.model.trim();
        if m.is_empty() { self.kind.default_model() } else { m }.to_string()
    }

    pub fn effective_base_url(&self) -> String {
        let b = self.base_url.trim().trim_end_matches('/');
        if b.is_empty() { self.kind.default_base_url() } else { b }.to_string()
    }

    /// Configured means a request can be attempted: a key for hosted providers.
    pub fn is_configured(&self) -> bool {
        if self.kind.is_on_device() {
            true
        } else if self.kind.needs_api_key() {
            !self.api_key.trim().is_empty()
        } else {
            !self.effective_base_url().is_empty()
        }
    }

    /// Where the worker remembers (for the browser session) that this server rejected `tools`.
    pub fn text_protocol_key(&self) -> String {
        format!("text_protocol:{}:{}:{}", self.kind.as_str(), self.effective_base_url(), self.effective_model())
    }

    /// Function calling and vision support: the table, then the user's overrides.
    pub fn capabilities(&self) -> Capabilities {
        let base = capabilities::defaults(self.kind, &self.effective_model());
        Capabilities { tools: self.supports_tools.unwrap_or(base.tools), vision: self.supports_vision.unwrap_or(base.vision) }
    }
}

impl std::fmt::Debug for ProviderSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProviderSettings")
            .field("kind", &self.kind)
            .field("model", &self.model)
            .field("base_url", &self.base_url)
            .field("api_key", &if self.api_key.is_empty() { "<empty>" } else { REDACTED_KEY })
            .field("supports_tools", &self.supports_tools)
            .field("supports_vision", &self.supports_vision)
            .field("drive_agents", &self.drive_agents)
            .finish()
    }
}

/// Stored settings. Unknown or missing fields default, so an old or hand-edited store still loads.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(from = "StoredSettings")]
pub struct Settings {
    /// The provider in use; none means dark mode only.
    pub provider: Option<ProviderKind>,
    /// At most one entry per kind, so switching providers keeps each one's key.
    pub providers: Vec<ProviderSettings>,
}

/// The lenient shape settings are read from, including the old flat one-provider format.
#[derive(Deserialize, Default)]
#[serde(default)]
struct StoredSettings {
    provider: Option<String>,
    providers: Value,
    model: String,
    api_key: String,
    base_url: String,
}

impl From<StoredSettings> for Settings {
    fn from(s: StoredSettings) -> Settings {
        let entries: Vec<Value> = match s.providers {
            Value::Array(a) => a,
            // A map keyed by kind is accepted too, in case a page writes it that way.
            Value::Object(m) => m
                .into_iter()
                .map(|(k, mut v)| {
                    if let Some(o) = v.as_object_mut() {
                        o.entry("kind").or_insert(Value::String(k));
                    }
                    v
                })
                .collect(),
            _ => vec![],
        };
        let mut settings = Settings { provider: s.provider.as_deref().and_then(ProviderKind::parse), providers: vec![] };
        for entry in entries {
            if let Ok(p) = crate::protocol::from_value::<ProviderSettings>(entry) {
                if settings.get(p.kind).is_none() {
                    settings.providers.push(p);
                }
            }
        }
        let legacy = !s.model.is_empty() || !s.api_key.is_empty() || !s.base_url.is_empty();
        if let (Some(kind), true) = (settings.provider, legacy) {
            if settings.get(kind).is_none() {
                settings.providers.push(ProviderSettings {
                    kind,
                    model: s.model,
                    base_url: s.base_url,
                    api_key: s.api_key,
                    supports_tools: None,
                    supports_vision: None,
                    drive_agents: false,
                });
            }
        }
        settings
    }
}

impl Settings {
    /// Loads settings from the stored JSON; anything unreadable counts as no settings.
    pub fn from_stored(value: Option<serde_json::Value>) -> Settings {
        value.and_then(|v| crate::protocol::from_value(v).ok()).unwrap_or_default()
    }

    /// The stored entry for a kind, if any.
    pub fn get(&self, kind: ProviderKind) -> Option<&ProviderSettings> {
        self.providers.iter().find(|p| p.kind == kind)
    }

    /// The settings for a kind, defaults when none are stored.
    pub fn provider_settings(&self, kind: ProviderKind) -> ProviderSettings {
        self.get(kind).cloned().unwrap_or_else(|| ProviderSettings::new(kind))
    }

    /// The active provider's settings, if a provider is chosen.
    pub fn active(&self) -> Option<ProviderSettings> {
        self.provider.map(|k| self.provider_settings(k))
    }

    /// Inserts or replaces the entry for `p.kind`.
    pub fn set_provider_settings(&mut self, p: ProviderSettings) {
        match self.providers.iter_mut().find(|x| x.kind == p.kind) {
            Some(slot) => *slot = p,
            None => self.providers.push(p),
        }
    }

    /// A provider counts as configured when it has what it needs to make a request.
    pub fn provider_configured(&self) -> bool {
        self.active().is_some_and(|p| p.is_configured())
    }

    pub fn status(&self, version: &str) -> Status {
        let configured = self.provider_configured();
        Status {
            version: version.to_string(),
            provider_configured: configured,
            provider: if configured { self.provider.map(|k| k.as_str().to_string()) } else { None },
            on_device: configured && self.provider.is_some_and(|k| k.is_on_device()),
        }
    }

    /// A copy safe to send to a UI page or a log: every non-empty key becomes `REDACTED_KEY`.
    pub fn redacted(&self) -> Settings {
        let mut s = self.clone();
        for p in &mut s.providers {
            if !p.api_key.is_empty() {
                p.api_key = REDACTED_KEY.to_string();
            }
        }
        s
    }

    /// Puts back keys a UI left as `REDACTED_KEY`, taking them from the stored settings.
    pub fn restore_keys(&mut self, stored: &Settings) {
        for p in &mut self.providers {
            if p.api_key == REDACTED_KEY {
                p.api_key = stored.get(p.kind).map(|s| s.api_key.clone()).unwrap_or_default();
            }
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
        assert!(!Settings::from_stored(Some(json!({"provider": "mistral", "api_key": "k"}))).provider_configured());
    }

    #[test]
    fn hosted_provider_needs_a_key_and_local_one_a_url() {
        let s = Settings::from_stored(Some(json!({"provider": "openai", "api_key": " "})));
        assert!(!s.provider_configured());
        let s = Settings::from_stored(Some(json!({"provider": "openai", "api_key": "sk-x"})));
        assert_eq!(s.status("1").provider.as_deref(), Some("openai"));
        let s = Settings::from_stored(Some(json!({"provider": "openai_compatible", "base_url": "http://127.0.0.1:11434/v1"})));
        assert!(s.provider_configured());
        assert_eq!(s.active().unwrap().effective_base_url(), "http://127.0.0.1:11434/v1");
    }

    #[test]
    fn per_provider_settings_round_trip_and_default() {
        let mut s = Settings { provider: Some(ProviderKind::Anthropic), providers: vec![] };
        let mut a = ProviderSettings::new(ProviderKind::Anthropic);
        a.api_key = "sk-ant-secret".into();
        a.supports_vision = Some(false);
        s.set_provider_settings(a);
        s.set_provider_settings(ProviderSettings::new(ProviderKind::Gemini));
        let stored = serde_json::to_value(&s).unwrap();
        assert_eq!(stored["provider"], "anthropic");
        let back = Settings::from_stored(Some(stored));
        assert_eq!(back, s);
        assert!(back.provider_configured());
        assert!(!back.active().unwrap().capabilities().vision);
        let g = back.provider_settings(ProviderKind::Gemini);
        assert_eq!(g.effective_model(), "gemini-2.5-flash");
        let o = back.provider_settings(ProviderKind::Openai);
        assert_eq!(o.effective_base_url(), "https://api.openai.com/v1");
    }

    #[test]
    fn providers_may_be_stored_as_a_map_and_bad_entries_are_skipped() {
        let s = Settings::from_stored(Some(json!({
            "provider": "gemini",
            "providers": {"gemini": {"api_key": "g"}, "openai": {"model": 5}}
        })));
        assert!(s.provider_configured());
        assert_eq!(s.providers.len(), 1);
        assert_eq!(s.active().unwrap().effective_model(), "gemini-2.5-flash");
    }

    #[test]
    fn keys_never_leak_through_debug_or_redacted() {
        let s = Settings::from_stored(Some(json!({"provider": "openai", "api_key": "sk-very-secret"})));
        assert!(!format!("{s:?}").contains("sk-very-secret"));
        let r = s.redacted();
        assert!(!serde_json::to_string(&r).unwrap().contains("sk-very-secret"));
        assert!(r.provider_configured());
        let mut edited = r.clone();
        edited.restore_keys(&s);
        assert_eq!(edited.active().unwrap().api_key, "sk-very-secret");
    }

    #[test]
    fn the_on_device_model_needs_no_key_and_the_status_says_so() {
        let s = Settings { provider: Some(ProviderKind::OnDevice), providers: vec![] };
        assert!(s.provider_configured());
        let status = s.status("1");
        assert!(status.on_device && status.provider.as_deref() == Some("on_device"));
        let cloud = Settings { provider: Some(ProviderKind::Openai), providers: vec![] };
        assert!(!cloud.status("1").on_device);
        let stored: Settings =
            crate::protocol::from_value(json!({"provider": "on_device", "providers": [{"kind": "on_device", "drive_agents": true}]})).unwrap();
        assert!(stored.active().unwrap().drive_agents);
    }
}
