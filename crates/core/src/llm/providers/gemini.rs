//! Google Gemini `generateContent` / `streamGenerateContent`.

use super::wire::{join_url, parse_json};
use crate::llm::errors::{classify_stream_error, LlmError};
use crate::llm::http::HttpRequest;
use crate::llm::message::{AssistantReply, ChatRequest, Image, Message, StopReason, ToolCall};
use crate::llm::sse::SseEvent;
use crate::llm::stream::StreamEvent;
use crate::llm::tools::gemini_schema;
use crate::llm::usage::Usage;
use crate::llm::ProviderKind;
use crate::settings::ProviderSettings;
use serde_json::{json, Map, Value};

pub fn build_request(p: &ProviderSettings, model: &str, req: &ChatRequest) -> HttpRequest {
    let model = model.trim_start_matches("models/");
    let path = if req.stream { format!("v1beta/models/{model}:streamGenerateContent?alt=sse") } else { format!("v1beta/models/{model}:generateContent") };
    let mut body = Map::new();
    let system: Vec<&str> = req
        .messages
        .iter()
        .filter_map(|m| match m {
            Message::System { text } if !text.is_empty() => Some(text.as_str()),
            _ => None,
        })
        .collect();
    if !system.is_empty() {
        body.insert("systemInstruction".into(), json!({"parts": [{"text": system.join("\n\n")}]}));
    }
    body.insert("contents".into(), Value::Array(contents(&req.messages)));
    if !req.tools.is_empty() {
        let decls: Vec<Value> = req.tools.iter().map(declaration).collect();
        body.insert("tools".into(), json!([{"functionDeclarations": decls}]));
    }
    let mut config = Map::new();
    if let Some(n) = req.max_tokens {
        config.insert("maxOutputTokens".into(), n.into());
    }
    if let Some(t) = req.temperature {
        config.insert("temperature".into(), t.into());
    }
    if !config.is_empty() {
        body.insert("generationConfig".into(), Value::Object(config));
    }
    let headers = vec![("x-goog-api-key".to_string(), p.api_key.trim().to_string())];
    HttpRequest::post_json(join_url(&p.effective_base_url(), &path), headers, &Value::Object(body))
}

/// A function declaration; a tool without arguments has no `parameters` at all, since Gemini
/// refuses an object schema whose `properties` is empty.
fn declaration(t: &crate::llm::ToolSpec) -> Value {
    let parameters = gemini_schema(&t.parameters);
    let empty = parameters.get("properties").and_then(Value::as_object).is_none_or(Map::is_empty);
    if empty {
        json!({"name": t.name, "description": t.description})
    } else {
        json!({"name": t.name, "description": t.description, "parameters": parameters})
    }
}

fn inline(i: &Image) -> Value {
    json!({"inlineData": {"mimeType": i.mime_type, "data": i.data}})
}

/// Converts the conversation; consecutive turns of one role are merged because Gemini wants all
/// function responses for a turn's calls in one content.
pub fn contents(msgs: &[Message]) -> Vec<Value> {
    let mut out: Vec<(&'static str, Vec<Value>)> = vec![];
    for m in msgs {
        let (role, parts) = match m {
            Message::System { .. } => continue,
            Message::User { text, images } => {
                let mut p = vec![];
                if !text.is_empty() {
                    p.push(json!({"text": text}));
                }
                p.extend(images.iter().map(inline));
                ("user", p)
            }
            Message::Assistant { text, tool_calls } => {
                let mut p = vec![];
                if !text.is_empty() {
                    p.push(json!({"text": text}));
                }
                for c in tool_calls {
                    let mut part = json!({"functionCall": {"name": c.name, "args": c.arguments_object()}});
                    if let Some(sig) = &c.signature {
                        part["thoughtSignature"] = sig.as_str().into();
                    }
                    p.push(part);
                }
                ("model", p)
            }
            Message::Tool(r) => {
                let key = if r.is_error { "error" } else { "content" };
                let mut p = vec![json!({"functionResponse": {"name": r.name, "response": {key: r.content}}})];
                p.extend(r.image.iter().map(inline));
                ("user", p)
            }
        };
        if parts.is_empty() {
            continue;
        }
        match out.last_mut() {
            Some((last, p)) if *last == role => p.extend(parts),
            _ => out.push((role, parts)),
        }
    }
    out.into_iter().map(|(role, parts)| json!({"role": role, "parts": parts})).collect()
}

fn usage_of(v: &Value) -> Option<Usage> {
    let u = v.get("usageMetadata")?;
    let n = |k: &str| u.get(k).and_then(Value::as_u64).unwrap_or(0);
    // Thinking tokens are billed as output.
    Some(Usage::new(n("promptTokenCount"), n("candidatesTokenCount") + n("thoughtsTokenCount")))
}

/// Gemini has no call ids; the position in the reply makes a stable one.
fn call_id(index: usize, name: &str) -> String {
    format!("gemini_{index}_{name}")
}

/// What one response chunk holds.
struct Chunk {
    text: String,
    calls: Vec<ToolCall>,
    finish: Option<StopReason>,
    usage: Option<Usage>,
}

fn read_chunk(v: &Value, first_index: usize) -> Chunk {
    let cand = v.get("candidates").and_then(|c| c.get(0));
    let mut text = String::new();
    let mut calls = vec![];
    let parts = cand.and_then(|c| c.get("content")).and_then(|c| c.get("parts")).and_then(Value::as_array);
    for part in parts.into_iter().flatten() {
        if part.get("thought").and_then(Value::as_bool) == Some(true) {
            continue;
        }
        if let Some(t) = part.get("text").and_then(Value::as_str) {
            text.push_str(t);
        }
        if let Some(fc) = part.get("functionCall") {
            let name = fc.get("name").and_then(Value::as_str).unwrap_or_default().to_string();
            let index = first_index + calls.len();
            let id = fc.get("id").and_then(Value::as_str).map(str::to_string).unwrap_or_else(|| call_id(index, &name));
            let mut call = ToolCall::new(id, name, fc.get("args").cloned().unwrap_or_else(|| json!({})));
            call.signature = part.get("thoughtSignature").and_then(Value::as_str).map(str::to_string);
            calls.push(call);
        }
    }
    let mut finish = cand.and_then(|c| c.get("finishReason")).and_then(Value::as_str).map(StopReason::from_provider);
    if v.get("promptFeedback").and_then(|f| f.get("blockReason")).is_some() {
        finish = Some(StopReason::ContentFilter);
    }
    Chunk { text, calls, finish, usage: usage_of(v) }
}

pub fn parse_response(model: &str, body: &str) -> Result<AssistantReply, LlmError> {
    let v = parse_json(body)?;
    if v.get("error").is_some() {
        return Err(classify_stream_error(ProviderKind::Gemini, model, body));
    }
    if v.get("candidates").is_none() && v.get("promptFeedback").is_none() {
        return Err(LlmError::MalformedResponse("the response has no candidates".into()));
    }
    let c = read_chunk(&v, 0);
    Ok(AssistantReply { text: c.text, stop_reason: StopReason::normalise(c.finish, !c.calls.is_empty()), tool_calls: c.calls, usage: c.usage })
}

/// Decodes `alt=sse` chunks: each one is a whole `GenerateContentResponse`.
#[derive(Debug)]
pub struct StreamDecoder {
    model: String,
    calls: usize,
    finish: Option<StopReason>,
    done: bool,
}

impl StreamDecoder {
    pub fn new(model: &str) -> Self {
        StreamDecoder { model: model.to_string(), calls: 0, finish: None, done: false }
    }

    pub fn feed(&mut self, ev: &SseEvent) -> Result<Vec<StreamEvent>, LlmError> {
        let mut out = vec![];
        if self.done || ev.data.trim().is_empty() {
            return Ok(out);
        }
        let v = parse_json(&ev.data)?;
        if v.get("error").is_some() {
            return Err(classify_stream_error(ProviderKind::Gemini, &self.model, &ev.data));
        }
        let c = read_chunk(&v, self.calls);
        if !c.text.is_empty() {
            out.push(StreamEvent::TextDelta { text: c.text });
        }
        for call in c.calls {
            let index = self.calls;
            self.calls += 1;
            out.push(StreamEvent::ToolCallStart { index, id: call.id, name: call.name, signature: call.signature });
            out.push(StreamEvent::ToolCallArgsDelta { index, fragment: call.arguments.to_string() });
        }
        if let Some(usage) = c.usage {
            out.push(StreamEvent::Usage { usage });
        }
        if c.finish.is_some() {
            self.finish = c.finish;
        }
        Ok(out)
    }

    /// Gemini sends no end marker: a finish reason in the last chunk is what completes a stream.
    pub fn finish(&mut self) -> Result<Vec<StreamEvent>, LlmError> {
        super::wire::end_stream(&mut self.done, self.finish.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::message::ToolResult;
    use crate::llm::sse::SseParser;
    use crate::llm::stream::StreamAccumulator;
    use crate::llm::tools::ToolSpec;

    fn settings() -> ProviderSettings {
        let mut p = ProviderSettings::new(ProviderKind::Gemini);
        p.api_key = "AIza-test".into();
        p
    }

    #[test]
    fn request_shape_with_tools_images_and_results() {
        let mut call = ToolCall::new("gemini_0_set_light", "set_light", json!({"brightness": 25}));
        call.signature = Some("sig==".into());
        let req = ChatRequest {
            model: String::new(),
            messages: vec![
                Message::system("You control lights."),
                Message::user_with_images("Dim the lights", vec![Image::new("image/png", "iVBOR")]),
                Message::Assistant { text: String::new(), tool_calls: vec![call.clone()] },
                Message::Tool(ToolResult {
                    tool_call_id: call.id.clone(),
                    name: call.name.clone(),
                    content: "ok".into(),
                    image: Some(Image::new("image/jpeg", "/9j")),
                    is_error: false,
                }),
            ],
            tools: vec![ToolSpec::new(
                "set_light",
                "Sets the brightness",
                json!({"type": "object", "additionalProperties": false, "properties": {"brightness": {"type": ["integer", "null"], "minimum": 0}}}),
            )],
            stream: true,
            max_tokens: Some(100),
            temperature: Some(0.1),
        };
        let http = build_request(&settings(), "models/gemini-2.5-flash", &req);
        assert_eq!(http.url, "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
        assert_eq!(http.header("x-goog-api-key"), Some("AIza-test"));
        assert!(!http.url.contains("AIza"));
        let body: Value = serde_json::from_str(&http.body).unwrap();
        assert_eq!(body["systemInstruction"], json!({"parts": [{"text": "You control lights."}]}));
        assert_eq!(body["contents"][0]["parts"][1], json!({"inlineData": {"mimeType": "image/png", "data": "iVBOR"}}));
        assert_eq!(
            body["contents"][1],
            json!({"role": "model", "parts": [{"functionCall": {"name": "set_light", "args": {"brightness": 25}}, "thoughtSignature": "sig=="}]})
        );
        assert_eq!(body["contents"][2]["role"], "user");
        assert_eq!(body["contents"][2]["parts"][0], json!({"functionResponse": {"name": "set_light", "response": {"content": "ok"}}}));
        assert_eq!(body["contents"][2]["parts"][1]["inlineData"]["mimeType"], "image/jpeg");
        let decl = &body["tools"][0]["functionDeclarations"][0];
        assert_eq!(decl["name"], "set_light");
        assert_eq!(decl["parameters"], json!({"type": "object", "properties": {"brightness": {"type": "integer", "nullable": true, "minimum": 0}}}));
        assert_eq!(body["generationConfig"], json!({"maxOutputTokens": 100, "temperature": 0.1}));
    }

    #[test]
    fn non_streaming_url_and_minimal_body() {
        let http = build_request(&settings(), "gemini-2.5-pro", &ChatRequest::new(vec![Message::user("Hi")]));
        assert_eq!(http.url, "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:generateContent");
        let body: Value = serde_json::from_str(&http.body).unwrap();
        assert_eq!(body, json!({"contents": [{"role": "user", "parts": [{"text": "Hi"}]}]}));
    }

    #[test]
    fn parses_documented_responses() {
        let text = r#"{"candidates":[{"content":{"parts":[{"text":"AI learns patterns from data."}],"role":"model"},"finishReason":"STOP","avgLogprobs":-0.2}],
          "usageMetadata":{"promptTokenCount":8,"candidatesTokenCount":7,"totalTokenCount":15,"promptTokensDetails":[{"modality":"TEXT","tokenCount":8}]},"modelVersion":"gemini-2.5-flash","responseId":"abc"}"#;
        let r = parse_response("m", text).unwrap();
        assert_eq!((r.text.as_str(), r.stop_reason.clone(), r.usage), ("AI learns patterns from data.", StopReason::EndTurn, Some(Usage::new(8, 7))));
        let call = r#"{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"schedule_meeting","args":{"attendees":["Bob","Alice"],"date":"2025-03-27","time":"10:00","topic":"Q3 planning"}}}]},"finishReason":"STOP","index":0}],
          "usageMetadata":{"promptTokenCount":112,"candidatesTokenCount":31,"thoughtsTokenCount":40,"totalTokenCount":183}}"#;
        let r = parse_response("m", call).unwrap();
        assert_eq!(r.tool_calls[0].id, "gemini_0_schedule_meeting");
        assert_eq!(r.tool_calls[0].arguments["attendees"], json!(["Bob", "Alice"]));
        assert_eq!(r.stop_reason, StopReason::ToolUse);
        assert_eq!(r.usage, Some(Usage::new(112, 71)));
        let blocked = r#"{"promptFeedback":{"blockReason":"SAFETY"},"usageMetadata":{"promptTokenCount":5,"totalTokenCount":5}}"#;
        assert_eq!(parse_response("m", blocked).unwrap().stop_reason, StopReason::ContentFilter);
        assert!(matches!(parse_response("m", "{}"), Err(LlmError::MalformedResponse(_))));
    }

    fn decode(stream: &str) -> Result<Vec<StreamEvent>, LlmError> {
        let mut sse = SseParser::new();
        let mut dec = StreamDecoder::new("m");
        let mut out = vec![];
        for ev in sse.feed(stream.as_bytes()).into_iter().chain(sse.finish()) {
            out.extend(dec.feed(&ev)?);
        }
        out.extend(dec.finish()?);
        Ok(out)
    }

    #[test]
    fn streams_recorded_text_and_function_calls() {
        let evs = decode(include_str!("../../../tests/fixtures/gemini_stream_tools.sse")).unwrap();
        let mut acc = StreamAccumulator::new();
        evs.iter().for_each(|e| acc.push(e));
        let r = acc.finish().unwrap();
        assert_eq!(r.text, "I'll turn on the lights and set the mood.");
        assert_eq!(r.tool_calls.len(), 2);
        assert_eq!(r.tool_calls[0].id, "gemini_0_power_disco_ball");
        assert_eq!(r.tool_calls[0].arguments, json!({"power": true}));
        assert_eq!(r.tool_calls[0].signature.as_deref(), Some("CiQB0e2Kb3Q="));
        assert_eq!(r.tool_calls[1].id, "gemini_1_dim_lights");
        assert_eq!(r.tool_calls[1].arguments, json!({"brightness": 0.5}));
        assert_eq!(r.stop_reason, StopReason::ToolUse);
        assert_eq!(r.usage, Some(Usage::new(180, 37)));
        let same =
            parse_response("m", r#"{"candidates":[{"content":{"parts":[{"functionCall":{"name":"power_disco_ball","args":{"power":true}}}]}}]}"#).unwrap();
        assert_eq!(same.tool_calls[0].id, r.tool_calls[0].id);
    }

    #[test]
    fn stream_errors_and_cuts() {
        let err = "data: {\"error\":{\"code\":503,\"message\":\"The model is overloaded.\",\"status\":\"UNAVAILABLE\"}}\r\n\r\n";
        assert!(decode(err).unwrap_err().is_retryable());
        let cut = "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"Hel\"}],\"role\":\"model\"}}]}\r\n\r\n";
        assert!(matches!(decode(cut), Err(LlmError::Network(_))));
    }
}
