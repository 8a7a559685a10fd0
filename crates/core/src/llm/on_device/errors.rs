//! What a Prompt API failure (a DOMException's name and message) means for the user.

use super::Availability;
use crate::llm::LlmError;

/// Classifies a rejection from `create()`, `append()` or `prompt()`. `QuotaExceededError` is the
/// API's "the input does not fit in the context window".
pub fn classify(name: &str, message: &str) -> LlmError {
    let said = if message.trim().is_empty() { name.to_string() } else { message.trim().to_string() };
    match name {
        "AbortError" => LlmError::Aborted,
        "QuotaExceededError" => {
            LlmError::ContextTooLong { message: format!("the on-device model's context window is full ({said}). Ask about fewer tabs, or start a new chat.") }
        }
        "NotAllowedError" => {
            LlmError::OnDeviceUnavailable(format!("Chrome refused to start it ({said}). If the model is not downloaded yet, press Download in Options."))
        }
        "NotSupportedError" => LlmError::OnDeviceUnavailable(format!("it can't take this kind of input ({said}).")),
        "InvalidStateError" => LlmError::OnDeviceUnavailable(format!("its session ended ({said}). Try again.")),
        "TimeoutError" => LlmError::Timeout,
        "TypeError" | "SyntaxError" => LlmError::BadRequest { provider: "Chrome's built-in model".into(), message: said },
        _ => LlmError::Server { provider: "Chrome's built-in model".into(), status: 0, message: said, retry_after_ms: None },
    }
}

/// The error for a model that is not `available` when a request starts.
pub fn not_ready(availability: Availability) -> Option<LlmError> {
    availability.refusal().map(|why| LlmError::OnDeviceUnavailable(why.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dom_exceptions_become_messages_a_user_can_act_on() {
        assert_eq!(classify("AbortError", "aborted"), LlmError::Aborted);
        let e = classify("QuotaExceededError", "The input is too large.");
        assert!(matches!(e, LlmError::ContextTooLong { .. }), "{e:?}");
        assert!(e.to_string().contains("too large") && e.to_string().contains("fewer tabs"), "{e}");
        assert!(classify("NotAllowedError", "").to_string().contains("Download"));
        assert!(classify("UnknownError", "boom").to_string().contains("boom"));
        assert_eq!(not_ready(Availability::Available), None);
        let e = not_ready(Availability::Unavailable).unwrap();
        assert!(e.to_string().starts_with("Chrome's built-in model is not ready: Chrome says this device can't run it"), "{e}");
    }
}
