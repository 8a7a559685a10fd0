use crate::llm::client::ConnectionCheck;
use crate::llm::usage::{cost_usd, Usage};
use crate::llm::{LlmError, ProviderKind};
use serde::{Deserialize, Serialize};

/// What the options page shows after "Test connection".
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConnectionReport {
    pub ok: bool,
    /// One sentence for the user: what worked, or what failed in the provider's own words.
    pub message: String,
    pub latency_ms: f64,
    pub usage: Option<Usage>,
    pub cost_usd: Option<f64>,
}

impl ConnectionReport {
    pub fn new(kind: ProviderKind, model: &str, result: Result<ConnectionCheck, LlmError>, latency_ms: f64) -> Self {
        match result {
            Ok(check) => {
                let yes_no = |b: bool| if b { "yes" } else { "no (text protocol)" };
                let message = format!(
                    "Connected to {} ({}) in {:.0} ms. Function calling: {}. Vision: {}.",
                    kind.display_name(),
                    check.model,
                    latency_ms,
                    yes_no(check.capabilities.tools),
                    if check.capabilities.vision { "yes" } else { "no" },
                );
                let cost = check.usage.as_ref().and_then(|u| cost_usd(model, u));
                ConnectionReport { ok: true, message, latency_ms, usage: check.usage, cost_usd: cost }
            }
            Err(e) => ConnectionReport { ok: false, message: e.to_string(), latency_ms, usage: None, cost_usd: None },
        }
    }
}

/// Tokens and cost spent so far, kept in chrome.storage.local so the UI can show them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct UsageTotals {
    pub requests: u64,
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// Requests whose token counts were estimated because the provider sent none.
    pub estimated_requests: u64,
    pub cost_usd: f64,
    /// Requests whose model has a known price; with none, the cost is unknown, not $0.
    #[serde(default)]
    pub priced_requests: u64,
}

impl UsageTotals {
    pub const STORAGE_KEY: &'static str = "usage_totals";

    pub fn add(&mut self, model: &str, usage: &Usage) {
        self.requests += 1;
        self.input_tokens += usage.input_tokens;
        self.output_tokens += usage.output_tokens;
        self.estimated_requests += u64::from(usage.estimated);
        if let Some(cost) = cost_usd(model, usage) {
            self.cost_usd += cost;
            self.priced_requests += 1;
        }
    }

    /// The spend, or None when no request had a known price (never a false $0).
    pub fn known_cost(&self) -> Option<f64> {
        (self.priced_requests > 0).then_some(self.cost_usd)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::Capabilities;

    #[test]
    fn success_names_provider_model_and_capabilities() {
        let check = ConnectionCheck {
            model: "gpt-4.1-mini".into(),
            reply: "OK".into(),
            usage: Some(Usage::new(12, 1)),
            capabilities: Capabilities { tools: false, vision: true },
        };
        let r = ConnectionReport::new(ProviderKind::Openai, "gpt-4.1-mini", Ok(check), 42.4);
        assert!(r.ok);
        assert_eq!(r.message, "Connected to OpenAI (gpt-4.1-mini) in 42 ms. Function calling: no (text protocol). Vision: yes.");
    }

    #[test]
    fn failure_carries_the_providers_words() {
        let e = LlmError::BadKey { provider: "OpenAI".into(), message: "Incorrect API key provided".into() };
        let r = ConnectionReport::new(ProviderKind::Openai, "m", Err(e), 5.0);
        assert!(!r.ok);
        assert!(r.message.contains("Incorrect API key provided"), "{}", r.message);
    }

    #[test]
    fn totals_accumulate_and_count_estimates() {
        let mut t = UsageTotals::default();
        t.add("unknown-model", &Usage::new(10, 5));
        t.add("unknown-model", &Usage { input_tokens: 1, output_tokens: 1, estimated: true });
        assert_eq!((t.requests, t.input_tokens, t.output_tokens, t.estimated_requests), (2, 11, 6, 1));
    }
}
