//! Which provider a setting names: OpenAI, Anthropic, Gemini, an OpenAI-compatible server or
//! Chrome's on-device model, with each kind's defaults. Below the settings and every provider.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProviderKind {
    Openai,
    Anthropic,
    Gemini,
    OpenaiCompatible,
    /// Chrome's built-in model through the Prompt API (`LanguageModel`): no key, no URL, no HTTP.
    OnDevice,
}

impl ProviderKind {
    pub const ALL: [ProviderKind; 5] =
        [ProviderKind::Openai, ProviderKind::Anthropic, ProviderKind::Gemini, ProviderKind::OpenaiCompatible, ProviderKind::OnDevice];

    /// The snake_case name used in settings and in `Status.provider`.
    pub fn as_str(self) -> &'static str {
        match self {
            ProviderKind::Openai => "openai",
            ProviderKind::Anthropic => "anthropic",
            ProviderKind::Gemini => "gemini",
            ProviderKind::OpenaiCompatible => "openai_compatible",
            ProviderKind::OnDevice => "on_device",
        }
    }

    pub fn parse(s: &str) -> Option<ProviderKind> {
        Self::ALL.into_iter().find(|k| k.as_str() == s.trim())
    }

    pub fn display_name(self) -> &'static str {
        match self {
            ProviderKind::Openai => "OpenAI",
            ProviderKind::Anthropic => "Anthropic",
            ProviderKind::Gemini => "Google Gemini",
            ProviderKind::OpenaiCompatible => "OpenAI-compatible server",
            ProviderKind::OnDevice => "On this device (Chrome)",
        }
    }

    pub fn default_base_url(self) -> &'static str {
        match self {
            ProviderKind::Openai => "https://api.openai.com/v1",
            ProviderKind::Anthropic => "https://api.anthropic.com",
            ProviderKind::Gemini => "https://generativelanguage.googleapis.com",
            ProviderKind::OpenaiCompatible => "http://localhost:11434/v1",
            ProviderKind::OnDevice => "",
        }
    }

    pub fn default_model(self) -> &'static str {
        match self {
            ProviderKind::Openai => "gpt-4.1-mini",
            ProviderKind::Anthropic => "claude-sonnet-4-5",
            ProviderKind::Gemini => "gemini-2.5-flash",
            ProviderKind::OpenaiCompatible => "qwen2.5:7b",
            ProviderKind::OnDevice => crate::llm::on_device::MODEL_NAME,
        }
    }

    /// Models the options page offers for this kind (any other name can still be typed).
    pub fn known_models(self) -> Vec<&'static str> {
        match self {
            ProviderKind::Openai => crate::llm::usage::known_models(&["gpt-"]),
            ProviderKind::Anthropic => crate::llm::usage::known_models(&["claude-"]),
            ProviderKind::Gemini => crate::llm::usage::known_models(&["gemini-"]),
            ProviderKind::OpenaiCompatible | ProviderKind::OnDevice => vec![self.default_model()],
        }
    }

    /// Local servers usually run without a key; hosted ones never do; Chrome's model has none.
    pub fn needs_api_key(self) -> bool {
        !matches!(self, ProviderKind::OpenaiCompatible | ProviderKind::OnDevice)
    }

    /// The browser's own model: requests go to `LanguageModel`, never over the network.
    pub fn is_on_device(self) -> bool {
        self == ProviderKind::OnDevice
    }
}

impl std::fmt::Display for ProviderKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_round_trip_as_snake_case() {
        for k in ProviderKind::ALL {
            assert_eq!(ProviderKind::parse(k.as_str()), Some(k));
            assert_eq!(serde_json::to_value(k).unwrap(), serde_json::json!(k.as_str()));
        }
        assert_eq!(ProviderKind::parse("mistral"), None);
    }
}
