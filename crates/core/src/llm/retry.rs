//! When and how long to wait before retrying. Pure functions: the caller does the sleeping.

use super::errors::LlmError;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RetryPolicy {
    /// Total attempts including the first.
    pub max_attempts: u32,
    pub base_delay_ms: u64,
    pub max_delay_ms: u64,
    /// A provider asking for a longer wait than this is treated as a hard failure.
    pub max_retry_after_ms: u64,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy { max_attempts: 4, base_delay_ms: 1000, max_delay_ms: 20_000, max_retry_after_ms: 60_000 }
    }
}

impl RetryPolicy {
    /// No retries, for tests and for "Test connection".
    pub fn none() -> Self {
        RetryPolicy { max_attempts: 1, ..Self::default() }
    }

    /// Exponential backoff for the given failed attempt (1-based), capped.
    pub fn backoff_ms(&self, attempt: u32) -> u64 {
        let exp = attempt.saturating_sub(1).min(30);
        self.base_delay_ms.saturating_mul(1u64 << exp).min(self.max_delay_ms)
    }

    /// How long to wait after `attempt` (1-based) failed with `err`; None means give up.
    pub fn delay_after(&self, attempt: u32, err: &LlmError) -> Option<u64> {
        if !err.is_retryable() || attempt >= self.max_attempts {
            return None;
        }
        match err.retry_after_ms() {
            Some(ms) if ms > self.max_retry_after_ms => None,
            Some(ms) => Some(ms),
            None => Some(self.backoff_ms(attempt)),
        }
    }
}

/// Parses a `Retry-After` (or `retry-after-ms`-style) value given in seconds; HTTP dates yield
/// None so the caller falls back to backoff.
pub fn parse_retry_after(value: &str) -> Option<u64> {
    let secs: f64 = value.trim().parse().ok()?;
    (secs.is_finite() && secs >= 0.0).then(|| (secs * 1000.0).round() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn server() -> LlmError {
        LlmError::Server { provider: "X".into(), status: 500, message: "boom".into(), retry_after_ms: None }
    }

    #[test]
    fn backoff_doubles_up_to_the_cap() {
        let p = RetryPolicy { max_attempts: 10, base_delay_ms: 500, max_delay_ms: 3000, max_retry_after_ms: 60_000 };
        let delays: Vec<u64> = (1..=5).map(|a| p.backoff_ms(a)).collect();
        assert_eq!(delays, vec![500, 1000, 2000, 3000, 3000]);
        assert_eq!(p.backoff_ms(u32::MAX), 3000);
    }

    #[test]
    fn only_transient_errors_retry_and_attempts_run_out() {
        let p = RetryPolicy::default();
        assert_eq!(p.delay_after(1, &server()), Some(1000));
        assert_eq!(p.delay_after(3, &server()), Some(4000));
        assert_eq!(p.delay_after(4, &server()), None);
        assert_eq!(p.delay_after(1, &LlmError::Network("reset".into())), Some(1000));
        assert_eq!(p.delay_after(1, &LlmError::BadKey { provider: "X".into(), message: "no".into() }), None);
        assert_eq!(p.delay_after(1, &LlmError::Timeout), None);
    }

    #[test]
    fn retry_after_is_honoured_unless_too_long() {
        let p = RetryPolicy::default();
        let limited = |ms| LlmError::RateLimited { provider: "X".into(), message: "slow".into(), retry_after_ms: ms };
        assert_eq!(p.delay_after(1, &limited(Some(2500))), Some(2500));
        assert_eq!(p.delay_after(1, &limited(Some(3_600_000))), None);
        assert_eq!(p.delay_after(2, &limited(None)), Some(2000));
    }

    #[test]
    fn retry_after_accepts_seconds_only() {
        assert_eq!(parse_retry_after("12"), Some(12_000));
        assert_eq!(parse_retry_after(" 1.5 "), Some(1500));
        assert_eq!(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"), None);
        assert_eq!(parse_retry_after("-3"), None);
    }
}
