//! Chrome's built-in model through the Prompt API (`LanguageModel`). It is not HTTP: core shapes
//! a `PromptRequest` whose fields serialise to the Prompt API's own dictionaries, and the worker's
//! transport hands them to `create()`, `append()` and `prompt()`/`promptStreaming()` as they are.
//! Every decision (what goes where, errors, budgets, which features it may drive) lives here.

pub mod availability;
pub mod budget;
pub mod errors;
pub mod gate;
pub mod reply;
pub mod shape;

pub use availability::Availability;
pub use budget::ChatBudget;
pub use gate::Feature;
pub use reply::{no_on_device_model, NoPrompt, PromptReply};
pub use shape::{shape, PromptContent, PromptMessage, PromptRequest, PromptRole};

use serde::{Deserialize, Serialize};

/// The name usage totals and the panel give the built-in model (Chrome does not name it).
pub const MODEL_NAME: &str = "chrome-built-in";

/// The languages Dusk tells Chrome it sends and expects (Gemini Nano: en, es, ja).
pub const LANGUAGES: [&str; 1] = ["en"];

/// How full the session was, read from `contextUsage`/`contextWindow` after a prompt.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ContextUse {
    /// `contextUsage` once the prompt and the reply are in the session.
    pub used: u64,
    /// `contextWindow`: the most the session can hold.
    pub window: u64,
}

impl ContextUse {
    /// Reads the two attributes as the API reports them (doubles; the window may be +Infinity).
    pub fn from_attributes(used: f64, window: f64) -> Option<ContextUse> {
        let whole = |v: f64| (v.is_finite() && v >= 0.0).then(|| v.round() as u64);
        Some(ContextUse { used: whole(used)?, window: whole(window).unwrap_or(u64::MAX) })
    }

    /// The request's usage: the reply's tokens estimated from its text, the rest was input.
    pub fn usage(&self, reply: &str) -> crate::llm::Usage {
        let output = crate::llm::estimate::estimate_output_tokens(reply, &[]).min(self.used);
        crate::llm::Usage { input_tokens: self.used - output, output_tokens: output, estimated: false }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn context_attributes_become_usage() {
        let c = ContextUse::from_attributes(1200.0, 9216.0).unwrap();
        assert_eq!(c, ContextUse { used: 1200, window: 9216 });
        let u = c.usage("OK, this page is about dark mode.");
        assert_eq!(u.input_tokens + u.output_tokens, 1200);
        assert!(u.output_tokens > 0 && u.output_tokens < 20, "{u:?}");
        assert_eq!(ContextUse::from_attributes(10.0, f64::INFINITY).unwrap().window, u64::MAX);
        assert_eq!(ContextUse::from_attributes(f64::NAN, 100.0), None);
    }
}
