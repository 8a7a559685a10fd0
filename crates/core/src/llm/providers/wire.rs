//! What every provider's wire code shares: joining URLs, reading a JSON body, ending a stream.

use crate::llm::errors::LlmError;
use crate::llm::message::StopReason;
use crate::llm::stream::StreamEvent;

/// Joins a base URL and a path without doubling or dropping the slash.
pub(crate) fn join_url(base: &str, path: &str) -> String {
    format!("{}/{}", base.trim().trim_end_matches('/'), path.trim_start_matches('/'))
}

/// The error for a stream that stopped before the provider said it was complete.
/// Ends a stream: one Done when a finish reason was seen (some servers send no end marker), else a cut.
pub(crate) fn end_stream(done: &mut bool, finish: Option<StopReason>) -> Result<Vec<StreamEvent>, LlmError> {
    if *done {
        return Ok(vec![]);
    }
    match finish {
        Some(r) => {
            *done = true;
            Ok(vec![StreamEvent::Done { stop_reason: Some(r) }])
        }
        None => Err(cut_stream()),
    }
}

pub fn cut_stream() -> LlmError {
    LlmError::Network("the response stream ended before the reply was complete".into())
}

/// Parses a JSON body or reports it as malformed, quoting the start of it.
pub(crate) fn parse_json(body: &str) -> Result<serde_json::Value, LlmError> {
    serde_json::from_str(body.trim()).map_err(|e| {
        let start: String = body.trim().chars().take(120).collect();
        LlmError::MalformedResponse(format!("{e} in `{start}`"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_join_cleanly() {
        assert_eq!(join_url("https://a/v1/", "/chat/completions"), "https://a/v1/chat/completions");
        assert_eq!(join_url("https://a/v1", "chat/completions"), "https://a/v1/chat/completions");
    }
}
