//! Turns provider failures into errors a user can act on, with the provider's own words.

use super::provider_kind::ProviderKind;
use serde_json::Value;
use thiserror::Error;

/// Everything an LLM call can fail with. The Display text is shown to the user as is.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum LlmError {
    #[error("No LLM provider is configured: {0}")]
    NotConfigured(String),
    #[error("{provider} rejected the API key: {message}")]
    BadKey { provider: String, message: String },
    #[error("{provider} does not know the model `{model}` (or the base URL is wrong): {message}")]
    ModelNotFound { provider: String, model: String, message: String },
    #[error("The conversation is too long for the model: {message}")]
    ContextTooLong { message: String },
    #[error("{provider} rejected the request: {message}")]
    BadRequest { provider: String, message: String },
    #[error("{provider} is rate limiting requests: {message}")]
    RateLimited { provider: String, message: String, retry_after_ms: Option<u64> },
    #[error("The {provider} account is out of credit or quota: {message}")]
    QuotaExceeded { provider: String, message: String },
    #[error("{provider} had a server error ({status}): {message}")]
    Server { provider: String, status: u16, message: String, retry_after_ms: Option<u64> },
    #[error("Could not reach the provider: {0}")]
    Network(String),
    #[error("The provider took too long to answer")]
    Timeout,
    #[error("The request was cancelled")]
    Aborted,
    #[error("The provider sent a response Dusk could not read: {0}")]
    MalformedResponse(String),
    #[error("The model's reply was not a usable tool call: {message}")]
    ToolCallFormat { message: String },
    /// Chrome's built-in model can't run here or right now; the text says why and what to do.
    #[error("Chrome's built-in model is not ready: {0}")]
    OnDeviceUnavailable(String),
    /// The on-device model was asked to drive something it may not drive by default.
    #[error("The on-device model only drives chat and Quick dark mode. To let it run {feature}, turn on \"Let the on-device model drive agents\" in Options, or choose another provider.")]
    NotForOnDevice { feature: String },
}

impl LlmError {
    /// Whether trying the same request again may succeed.
    pub fn is_retryable(&self) -> bool {
        matches!(self, LlmError::RateLimited { .. } | LlmError::Server { .. } | LlmError::Network(_))
    }

    /// The wait the provider asked for, if it did.
    pub fn retry_after_ms(&self) -> Option<u64> {
        match self {
            LlmError::RateLimited { retry_after_ms, .. } | LlmError::Server { retry_after_ms, .. } => *retry_after_ms,
            _ => None,
        }
    }
}

/// The human-readable message inside a provider's error body, whichever shape it has.
pub fn provider_message(body: &str) -> Option<String> {
    let v: Value = serde_json::from_str(body.trim()).ok()?;
    // Gemini's streaming endpoint wraps the error object in an array.
    let v = match v {
        Value::Array(mut a) if !a.is_empty() => a.swap_remove(0),
        v => v,
    };
    let msg = match v.get("error") {
        Some(Value::Object(e)) => e.get("message").and_then(Value::as_str),
        Some(Value::String(s)) => Some(s.as_str()),
        _ => None,
    }
    .or_else(|| v.get("message").and_then(Value::as_str))
    .or_else(|| v.get("detail").and_then(Value::as_str))?;
    Some(msg.trim().to_string())
}

/// The error's machine code/type/status strings, lowercased, for classification.
fn error_codes(body: &str) -> Vec<String> {
    let Ok(v) = serde_json::from_str::<Value>(body.trim()) else { return vec![] };
    let v = match v {
        Value::Array(mut a) if !a.is_empty() => a.swap_remove(0),
        v => v,
    };
    let Some(e) = v.get("error") else { return vec![] };
    let mut codes: Vec<String> = ["type", "code", "status"]
        .iter()
        .filter_map(|k| e.get(*k))
        .filter_map(|c| c.as_str().map(str::to_string).or_else(|| c.as_i64().map(|n| n.to_string())))
        .map(|c| c.to_ascii_lowercase())
        .collect();
    // Gemini puts the precise reason (e.g. API_KEY_INVALID) in details.
    if let Some(details) = e.get("details").and_then(Value::as_array) {
        codes.extend(details.iter().filter_map(|d| d.get("reason")?.as_str()).map(str::to_ascii_lowercase));
    }
    codes
}

/// Gemini's RetryInfo detail ("37s") — its way of saying Retry-After.
fn gemini_retry_delay_ms(body: &str) -> Option<u64> {
    let v: Value = serde_json::from_str(body.trim()).ok()?;
    let details = v.get("error")?.get("details")?.as_array()?;
    details.iter().find_map(|d| {
        let s = d.get("retryDelay")?.as_str()?;
        let secs: f64 = s.trim_end_matches('s').parse().ok()?;
        (secs.is_finite() && secs >= 0.0).then(|| (secs * 1000.0).round() as u64)
    })
}

fn is_context_too_long(codes: &[String], message: &str) -> bool {
    let m = message.to_ascii_lowercase();
    codes.iter().any(|c| c == "context_length_exceeded")
        || m.contains("context length")
        || m.contains("context_length")
        || m.contains("context window")
        || m.contains("prompt is too long")
        || m.contains("maximum context")
        || (m.contains("exceeds the maximum number of tokens"))
}

/// Classifies a failed HTTP response; `retry_after_ms` comes from the response headers.
pub fn classify(kind: ProviderKind, model: &str, status: u16, retry_after_ms: Option<u64>, body: &str) -> LlmError {
    let provider = kind.display_name().to_string();
    let codes = error_codes(body);
    let message = provider_message(body).unwrap_or_else(|| fallback_message(status, body));
    let has = |c: &str| codes.iter().any(|x| x == c);
    let retry_after_ms = retry_after_ms.or_else(|| gemini_retry_delay_ms(body));
    let lower = message.to_ascii_lowercase();
    match status {
        401 | 403 => LlmError::BadKey { provider, message },
        _ if has("api_key_invalid") || has("invalid_api_key") || lower.contains("api key not valid") => LlmError::BadKey { provider, message },
        _ if has("model_not_found") => LlmError::ModelNotFound { provider, model: model.into(), message },
        404 => LlmError::ModelNotFound { provider, model: model.into(), message },
        408 => LlmError::Timeout,
        429 if has("insufficient_quota") => LlmError::QuotaExceeded { provider, message },
        429 => LlmError::RateLimited { provider, message, retry_after_ms },
        402 => LlmError::QuotaExceeded { provider, message },
        400..=499 if is_context_too_long(&codes, &message) => LlmError::ContextTooLong { message },
        400..=499 => LlmError::BadRequest { provider, message },
        _ => LlmError::Server { provider, status, message, retry_after_ms },
    }
}

/// Classifies an error object that arrived inside a successful stream.
pub fn classify_stream_error(kind: ProviderKind, model: &str, error_json: &str) -> LlmError {
    let codes = error_codes(error_json);
    let has = |c: &str| codes.iter().any(|x| x == c);
    let status = if has("overloaded_error") || has("server_error") || has("api_error") || has("unavailable") || has("internal") {
        503
    } else if has("rate_limit_error") || has("rate_limit_exceeded") || has("resource_exhausted") {
        429
    } else if has("authentication_error") || has("permission_error") || has("unauthenticated") || has("permission_denied") {
        401
    } else if has("not_found_error") || has("not_found") {
        404
    } else if codes.is_empty() {
        500
    } else {
        400
    };
    classify(kind, model, status, None, error_json)
}

fn fallback_message(status: u16, body: &str) -> String {
    let body = body.trim();
    if body.is_empty() {
        return format!("HTTP {status}");
    }
    let short: String = body.chars().take(300).collect();
    if short.len() < body.len() {
        format!("HTTP {status}: {short}…")
    } else {
        format!("HTTP {status}: {short}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_keys_carry_each_providers_message() {
        let openai = r#"{"error":{"message":"Incorrect API key provided: sk-abc. You can find your API key at https://platform.openai.com/account/api-keys.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}"#;
        let e = classify(ProviderKind::Openai, "gpt-4o", 401, None, openai);
        assert!(matches!(&e, LlmError::BadKey { message, .. } if message.starts_with("Incorrect API key")), "{e:?}");
        assert!(e.to_string().starts_with("OpenAI rejected the API key: Incorrect API key"));

        let anthropic = r#"{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}"#;
        let e = classify(ProviderKind::Anthropic, "claude", 401, None, anthropic);
        assert_eq!(e.to_string(), "Anthropic rejected the API key: invalid x-api-key");

        let gemini = r#"{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","domain":"googleapis.com"}]}}"#;
        let e = classify(ProviderKind::Gemini, "gemini-2.5-flash", 400, None, gemini);
        assert!(matches!(e, LlmError::BadKey { .. }), "{e:?}");
    }

    #[test]
    fn statuses_map_to_kinds() {
        let e = classify(ProviderKind::Openai, "gpt-x", 404, None, r#"{"error":{"message":"The model `gpt-x` does not exist","code":"model_not_found"}}"#);
        assert!(matches!(e, LlmError::ModelNotFound { ref model, .. } if model == "gpt-x"));
        let e = classify(ProviderKind::Openai, "m", 429, Some(7000), r#"{"error":{"message":"Rate limit reached"}}"#);
        assert_eq!(e.retry_after_ms(), Some(7000));
        assert!(e.is_retryable());
        let e = classify(
            ProviderKind::Openai,
            "m",
            429,
            None,
            r#"{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","code":"insufficient_quota"}}"#,
        );
        assert!(matches!(e, LlmError::QuotaExceeded { .. }) && !e.is_retryable());
        let e = classify(ProviderKind::Anthropic, "m", 529, None, r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#);
        assert!(matches!(e, LlmError::Server { status: 529, .. }) && e.is_retryable());
        let e = classify(
            ProviderKind::Openai,
            "m",
            400,
            None,
            r#"{"error":{"message":"This model's maximum context length is 128000 tokens.","code":"context_length_exceeded"}}"#,
        );
        assert!(matches!(e, LlmError::ContextTooLong { .. }));
        let e = classify(ProviderKind::OpenaiCompatible, "m", 502, None, "<html>Bad Gateway</html>");
        assert_eq!(e.to_string(), "OpenAI-compatible server had a server error (502): HTTP 502: <html>Bad Gateway</html>");
        let e = classify(ProviderKind::OpenaiCompatible, "m", 400, None, r#"{"detail":"bad things"}"#);
        assert_eq!(e.to_string(), "OpenAI-compatible server rejected the request: bad things");
    }

    #[test]
    fn gemini_retry_info_counts_as_retry_after() {
        let body = r#"{"error":{"code":429,"message":"Resource has been exhausted","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"37s"}]}}"#;
        assert_eq!(classify(ProviderKind::Gemini, "m", 429, None, body).retry_after_ms(), Some(37_000));
    }

    #[test]
    fn stream_errors_are_classified_by_type() {
        let e = classify_stream_error(ProviderKind::Anthropic, "m", r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#);
        assert!(e.is_retryable());
        let e = classify_stream_error(ProviderKind::Anthropic, "m", r#"{"type":"error","error":{"type":"invalid_request_error","message":"nope"}}"#);
        assert!(matches!(e, LlmError::BadRequest { .. }));
    }
}
