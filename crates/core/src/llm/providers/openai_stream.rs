//! OpenAI's streamed Chat Completions (`chat.completion.chunk` events), for OpenAI and the
//! compatible servers.

use super::openai::{arguments_fragment, content_text, usage_of};
use super::wire::parse_json;
use crate::llm::errors::{classify_stream_error, LlmError};
use crate::llm::message::StopReason;
use crate::llm::provider_kind::ProviderKind;
use crate::llm::sse::SseEvent;
use crate::llm::stream::StreamEvent;
use serde_json::Value;

/// Decodes `chat.completion.chunk` events.
#[derive(Debug)]
pub struct StreamDecoder {
    kind: ProviderKind,
    model: String,
    /// The provider's index and id of each call, by our index.
    calls: Vec<(Option<u64>, Option<String>)>,
    finish_reason: Option<StopReason>,
    done: bool,
}

impl StreamDecoder {
    pub fn new(kind: ProviderKind, model: &str) -> Self {
        StreamDecoder { kind, model: model.to_string(), calls: vec![], finish_reason: None, done: false }
    }

    pub fn feed(&mut self, ev: &SseEvent) -> Result<Vec<StreamEvent>, LlmError> {
        let mut out = vec![];
        if self.done || ev.data.trim().is_empty() {
            return Ok(out);
        }
        if ev.is_done() {
            self.done = true;
            out.push(StreamEvent::Done { stop_reason: self.finish_reason.clone() });
            return Ok(out);
        }
        let v = parse_json(&ev.data)?;
        if v.get("error").is_some() {
            return Err(classify_stream_error(self.kind, &self.model, &ev.data));
        }
        if let Some(choice) = v.get("choices").and_then(|c| c.get(0)) {
            let delta = choice.get("delta").unwrap_or(&Value::Null);
            let text = content_text(delta.get("content"));
            if !text.is_empty() {
                out.push(StreamEvent::TextDelta { text });
            }
            for tc in delta.get("tool_calls").and_then(Value::as_array).into_iter().flatten() {
                self.tool_call_delta(tc, &mut out);
            }
            if let Some(r) = choice.get("finish_reason").and_then(Value::as_str) {
                self.finish_reason = Some(StopReason::from_provider(r));
            }
        }
        if let Some(usage) = usage_of(&v) {
            out.push(StreamEvent::Usage { usage });
        }
        Ok(out)
    }

    fn tool_call_delta(&mut self, tc: &Value, out: &mut Vec<StreamEvent>) {
        let id = tc.get("id").and_then(Value::as_str).filter(|s| !s.is_empty());
        let func = tc.get("function").unwrap_or(&Value::Null);
        // Servers that omit `index` send each call whole; a new id then means a new call.
        let index_key = tc.get("index").and_then(Value::as_u64);
        let found = match (index_key, id) {
            (Some(i), _) => self.calls.iter().position(|(k, _)| *k == Some(i)),
            (None, Some(id)) => self.calls.iter().position(|(_, x)| x.as_deref() == Some(id)),
            (None, None) => self.calls.len().checked_sub(1),
        };
        let index = match found {
            Some(i) => i,
            None => {
                self.calls.push((index_key, id.map(str::to_string)));
                let index = self.calls.len() - 1;
                out.push(StreamEvent::ToolCallStart {
                    index,
                    id: id.map(str::to_string).unwrap_or_else(|| format!("call_{index}")),
                    name: func.get("name").and_then(Value::as_str).unwrap_or_default().to_string(),
                    signature: None,
                });
                index
            }
        };
        let fragment = arguments_fragment(func.get("arguments"));
        if !fragment.is_empty() {
            out.push(StreamEvent::ToolCallArgsDelta { index, fragment });
        }
    }

    /// Some compatible servers end with a finish_reason but no [DONE].
    pub fn finish(&mut self) -> Result<Vec<StreamEvent>, LlmError> {
        super::wire::end_stream(&mut self.done, self.finish_reason.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::message::AssistantReply;
    use crate::llm::sse::SseParser;
    use crate::llm::stream::StreamAccumulator;
    use crate::llm::usage::Usage;
    use serde_json::json;

    fn decode(stream: &str) -> Result<Vec<StreamEvent>, LlmError> {
        let mut sse = SseParser::new();
        let mut dec = StreamDecoder::new(ProviderKind::Openai, "m");
        let mut out = vec![];
        for ev in sse.feed(stream.as_bytes()).into_iter().chain(sse.finish()) {
            out.extend(dec.feed(&ev)?);
        }
        out.extend(dec.finish()?);
        Ok(out)
    }

    fn fold(events: &[StreamEvent]) -> AssistantReply {
        let mut acc = StreamAccumulator::new();
        events.iter().for_each(|e| acc.push(e));
        acc.finish().unwrap()
    }

    #[test]
    fn streams_text_with_usage() {
        let s = "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1694268190,\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,\"finish_reason\":null}]}\n\n\
data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1694268190,\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hello\"},\"logprobs\":null,\"finish_reason\":null}]}\n\n\
data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1694268190,\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"delta\":{},\"logprobs\":null,\"finish_reason\":\"stop\"}]}\n\n\
data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1694268190,\"model\":\"gpt-4o-mini\",\"choices\":[],\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":1,\"total_tokens\":10}}\n\n\
data: [DONE]\n\n";
        let evs = decode(s).unwrap();
        assert_eq!(evs[0], StreamEvent::TextDelta { text: "Hello".into() });
        assert_eq!(evs.last(), Some(&StreamEvent::Done { stop_reason: Some(StopReason::EndTurn) }));
        let r = fold(&evs);
        assert_eq!((r.text.as_str(), r.usage), ("Hello", Some(Usage::new(9, 1))));
    }

    #[test]
    fn streams_recorded_tool_calls() {
        let evs = decode(include_str!("../../../tests/fixtures/openai_stream_tools.sse")).unwrap();
        let r = fold(&evs);
        assert_eq!(r.tool_calls.len(), 2);
        assert_eq!(r.tool_calls[0].id, "call_DdmO9pD3xa9XTPNJ32zg2hcA");
        assert_eq!(r.tool_calls[0].arguments, json!({"location": "Paris, France"}));
        assert_eq!(r.tool_calls[1].name, "get_weather");
        assert_eq!(r.tool_calls[1].arguments, json!({"location": "Bogotá, Colombia"}));
        assert_eq!(r.stop_reason, StopReason::ToolUse);
        assert_eq!(r.usage, Some(Usage::new(72, 46)));
    }

    #[test]
    fn whole_calls_without_index_and_missing_done() {
        let s = "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\",\"tool_calls\":[{\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"click\",\"arguments\":{\"index\":2}}},{\"id\":\"call_2\",\"type\":\"function\",\"function\":{\"name\":\"scroll\",\"arguments\":\"{}\"}}]},\"finish_reason\":null}]}\n\n\
data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n";
        let r = fold(&decode(s).unwrap());
        assert_eq!(r.tool_calls.len(), 2);
        assert_eq!(r.tool_calls[0].arguments, json!({"index": 2}));
        assert_eq!(r.tool_calls[1].name, "scroll");
        assert_eq!(r.stop_reason, StopReason::ToolUse);
    }

    #[test]
    fn cut_streams_and_in_stream_errors_fail() {
        let cut = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hel\"},\"finish_reason\":null}]}\n\n";
        assert!(matches!(decode(cut), Err(LlmError::Network(_))));
        let err = "data: {\"error\":{\"message\":\"The server had an error\",\"type\":\"server_error\"}}\n\n";
        assert!(decode(err).unwrap_err().is_retryable());
        assert!(matches!(decode("data: {oops\n\n"), Err(LlmError::MalformedResponse(_))));
    }
}
