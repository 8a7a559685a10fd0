//! Token usage, and cost from a small price table (`estimate` counts when a provider omits it).

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// True when the counts are our estimate rather than the provider's.
    #[serde(default)]
    pub estimated: bool,
}

impl Usage {
    pub fn new(input_tokens: u64, output_tokens: u64) -> Self {
        Usage { input_tokens, output_tokens, estimated: false }
    }

    pub fn total(&self) -> u64 {
        self.input_tokens + self.output_tokens
    }

    /// Adds another call's usage, e.g. to total a whole agent run.
    pub fn add(&mut self, other: &Usage) {
        self.input_tokens += other.input_tokens;
        self.output_tokens += other.output_tokens;
        self.estimated |= other.estimated;
    }
}

/// USD per million tokens, (input, output), matched by the longest model-name prefix.
const PRICES: &[(&str, f64, f64)] = &[
    ("gpt-4o-mini", 0.15, 0.60),
    ("gpt-4o", 2.50, 10.00),
    ("gpt-4.1-nano", 0.10, 0.40),
    ("gpt-4.1-mini", 0.40, 1.60),
    ("gpt-4.1", 2.00, 8.00),
    ("gpt-5-nano", 0.05, 0.40),
    ("gpt-5-mini", 0.25, 2.00),
    ("gpt-5", 1.25, 10.00),
    ("o4-mini", 1.10, 4.40),
    ("o3-mini", 1.10, 4.40),
    ("o3", 2.00, 8.00),
    ("claude-opus-4-5", 5.00, 25.00),
    ("claude-opus-4", 15.00, 75.00),
    ("claude-sonnet-4", 3.00, 15.00),
    ("claude-3-7-sonnet", 3.00, 15.00),
    ("claude-3-5-sonnet", 3.00, 15.00),
    ("claude-haiku-4-5", 1.00, 5.00),
    ("claude-3-5-haiku", 0.80, 4.00),
    ("claude-3-haiku", 0.25, 1.25),
    ("gemini-2.5-pro", 1.25, 10.00),
    ("gemini-2.5-flash-lite", 0.10, 0.40),
    ("gemini-2.5-flash", 0.30, 2.50),
    ("gemini-2.0-flash-lite", 0.075, 0.30),
    ("gemini-2.0-flash", 0.10, 0.40),
];

/// The well-known models whose names start with one of `prefixes`, for the options' model field.
pub fn known_models(prefixes: &[&str]) -> Vec<&'static str> {
    PRICES.iter().map(|(m, ..)| *m).filter(|m| prefixes.iter().any(|p| m.starts_with(p))).collect()
}

/// (input, output) USD per million tokens for a well-known model.
pub fn price_per_million(model: &str) -> Option<(f64, f64)> {
    let model = model.trim().to_ascii_lowercase();
    // OpenRouter and Gemini prefix names ("openai/gpt-4o", "models/gemini-2.5-flash").
    let model = model.rsplit('/').next().unwrap_or(&model);
    PRICES.iter().filter(|(prefix, _, _)| model.starts_with(prefix)).max_by_key(|(prefix, _, _)| prefix.len()).map(|&(_, i, o)| (i, o))
}

/// The cost in USD of a call, or None for models not in the table (local ones are free anyway).
pub fn cost_usd(model: &str, usage: &Usage) -> Option<f64> {
    let (i, o) = price_per_million(model)?;
    Some((usage.input_tokens as f64 * i + usage.output_tokens as f64 * o) / 1_000_000.0)
}

/// 48210 → "48,210": usage figures read at a glance.
pub fn group_digits(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// "$0.04"; a spend under a cent says so rather than rounding to a false "$0.00".
pub fn format_usd(cost: f64) -> String {
    if cost > 0.0 && cost < 0.005 {
        "< $0.01".to_string()
    } else {
        format!("${cost:.2}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn longest_prefix_wins_and_unknown_models_cost_nothing_known() {
        assert_eq!(price_per_million("gpt-4o-mini-2024-07-18"), Some((0.15, 0.60)));
        assert_eq!(price_per_million("gpt-4o-2024-08-06"), Some((2.50, 10.00)));
        assert_eq!(price_per_million("models/gemini-2.5-flash-lite"), Some((0.10, 0.40)));
        assert_eq!(price_per_million("openai/gpt-4.1-mini"), Some((0.40, 1.60)));
        assert_eq!(price_per_million("claude-sonnet-4-5-20250929"), Some((3.0, 15.0)));
        assert_eq!(cost_usd("llama3.1:8b", &Usage::new(1000, 1000)), None);
        let c = cost_usd("gpt-4o", &Usage::new(1_000_000, 100_000)).unwrap();
        assert!((c - 3.5).abs() < 1e-9);
    }

    #[test]
    fn figures_read_in_words() {
        assert_eq!(group_digits(0), "0");
        assert_eq!(group_digits(999), "999");
        assert_eq!(group_digits(48_210), "48,210");
        assert_eq!(group_digits(1_234_567), "1,234,567");
        assert_eq!(format_usd(0.04), "$0.04");
        assert_eq!(format_usd(12.345), "$12.35");
        assert_eq!(format_usd(0.0004), "< $0.01");
        assert_eq!(format_usd(0.0), "$0.00");
    }
}
