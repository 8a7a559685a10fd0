//! What the on-device model may drive. Small models are weak at long tool loops, so by default it
//! answers chat (pass 1) and Quick dark mode only; the user can let it drive the agents too. The
//! agents' safety gates are the same whatever the model.

use crate::llm::LlmError;
use crate::settings::ProviderSettings;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Feature {
    /// Chat's first pass: one streamed answer from the pages' text, no tools.
    ChatAnswer,
    /// Chat's second pass: screenshot, scroll and refresh on the agent runtime.
    ChatTools,
    QuickDark,
    ThoroughDark,
    BrowserAgent,
    Customize,
}

impl Feature {
    /// Whether a small on-device model runs it without the user's say-so.
    pub fn by_default(self) -> bool {
        matches!(self, Feature::ChatAnswer | Feature::QuickDark)
    }

    /// The browser run of this kind (the agent or Customize).
    pub fn of_run(kind: crate::browser_agent::mode::RunKind) -> Feature {
        match kind {
            crate::browser_agent::mode::RunKind::Act => Feature::BrowserAgent,
            crate::browser_agent::mode::RunKind::Customize => Feature::Customize,
        }
    }

    /// How the refusal names it.
    pub fn label(self) -> &'static str {
        match self {
            Feature::ChatAnswer => "chat",
            Feature::ChatTools => "the chat's page tools (screenshot, scroll)",
            Feature::QuickDark => "Quick dark mode",
            Feature::ThoroughDark => "Thorough dark mode",
            Feature::BrowserAgent => "the browser agent",
            Feature::Customize => "Customize this site",
        }
    }
}

/// Whether `provider` may drive agents (always, unless it is the on-device model left at its default).
pub fn drives_agents(provider: &ProviderSettings) -> bool {
    !provider.kind.is_on_device() || provider.drive_agents
}

/// Refuses `feature` when the on-device model may not drive it.
pub fn check(provider: &ProviderSettings, feature: Feature) -> Result<(), LlmError> {
    if feature.by_default() || drives_agents(provider) {
        Ok(())
    } else {
        Err(LlmError::NotForOnDevice { feature: feature.label().into() })
    }
}

/// The chat's answer when pass 1 asked to look at the page and the model may not use tools.
pub fn answer_without_tools(reason: &str) -> String {
    format!(
        "I can't answer this from the page's text alone (I would need: {}). The on-device model doesn't use the page tools (screenshot, scroll) unless \"Let the on-device model drive agents\" is on in Options.",
        reason.trim()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::ProviderKind;

    #[test]
    fn on_device_drives_chat_and_quick_and_agents_only_when_allowed() {
        let mut p = ProviderSettings::new(ProviderKind::OnDevice);
        for f in [Feature::ChatAnswer, Feature::QuickDark] {
            assert_eq!(check(&p, f), Ok(()));
        }
        for f in [Feature::ChatTools, Feature::ThoroughDark, Feature::BrowserAgent, Feature::Customize] {
            let e = check(&p, f).unwrap_err();
            assert!(e.to_string().contains(f.label()) && e.to_string().contains("drive agents"), "{e}");
        }
        p.drive_agents = true;
        assert_eq!(check(&p, Feature::BrowserAgent), Ok(()));
        let cloud = ProviderSettings::new(ProviderKind::Openai);
        assert!(drives_agents(&cloud) && check(&cloud, Feature::Customize).is_ok());
    }
}
