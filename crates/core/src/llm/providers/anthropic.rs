//! Anthropic Messages API.

use super::wire::{cut_stream, join_url, parse_json};
use crate::llm::errors::{classify_stream_error, LlmError};
use crate::llm::http::HttpRequest;
use crate::llm::message::{AssistantReply, ChatRequest, Image, Message, StopReason, ToolCall};
use crate::llm::sse::SseEvent;
use crate::llm::stream::StreamEvent;
use crate::llm::usage::Usage;
use crate::llm::ProviderKind;
use crate::settings::ProviderSettings;
use serde_json::{json, Map, Value};

/// Anthropic requires max_tokens; this is what we ask for when the caller doesn't say.
pub const DEFAULT_MAX_TOKENS: u32 = 4096;

pub fn build_request(p: &ProviderSettings, model: &str, req: &ChatRequest) -> HttpRequest {
    let mut body = Map::new();
    body.insert("model".into(), model.into());
    body.insert("max_tokens".into(), req.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS).into());
    let system: Vec<&str> = req
        .messages
        .iter()
        .filter_map(|m| match m {
            Message::System { text } if !text.is_empty() => Some(text.as_str()),
            _ => None,
        })
        .collect();
    if !system.is_empty() {
        body.insert("system".into(), system.join("\n\n").into());
    }
    body.insert("messages".into(), Value::Array(messages(&req.messages)));
    if !req.tools.is_empty() {
        let tools: Vec<Value> = req.tools.iter().map(|t| json!({"name": t.name, "description": t.description, "input_schema": t.parameters})).collect();
        body.insert("tools".into(), Value::Array(tools));
    }
    if let Some(t) = req.temperature {
        body.insert("temperature".into(), t.into());
    }
    if req.stream {
        body.insert("stream".into(), true.into());
    }
    let headers = vec![
        ("x-api-key".to_string(), p.api_key.trim().to_string()),
        ("anthropic-version".to_string(), "2023-06-01".to_string()),
        // Required for calls made from a browser context such as an extension.
        ("anthropic-dangerous-direct-browser-access".to_string(), "true".to_string()),
    ];
    HttpRequest::post_json(join_url(&p.effective_base_url(), "v1/messages"), headers, &Value::Object(body))
}

fn image_block(i: &Image) -> Value {
    json!({"type": "image", "source": {"type": "base64", "media_type": i.mime_type, "data": i.data}})
}

/// Converts the conversation; consecutive turns of one role are merged because tool results for
/// parallel calls must all sit in the single user turn after the calls.
pub fn messages(msgs: &[Message]) -> Vec<Value> {
    let mut out: Vec<(&'static str, Vec<Value>)> = vec![];
    for m in msgs {
        let (role, blocks) = match m {
            Message::System { .. } => continue,
            Message::User { text, images } => {
                let mut b: Vec<Value> = images.iter().map(image_block).collect();
                if !text.is_empty() {
                    b.push(json!({"type": "text", "text": text}));
                }
                ("user", b)
            }
            Message::Assistant { text, tool_calls } => {
                let mut b = vec![];
                if !text.is_empty() {
                    b.push(json!({"type": "text", "text": text}));
                }
                b.extend(tool_calls.iter().map(|c| json!({"type": "tool_use", "id": c.id, "name": c.name, "input": c.arguments_object()})));
                ("assistant", b)
            }
            Message::Tool(r) => {
                let mut content = vec![json!({"type": "text", "text": if r.content.is_empty() { "(no output)" } else { &r.content }})];
                content.extend(r.image.iter().map(image_block));
                let mut block = json!({"type": "tool_result", "tool_use_id": r.tool_call_id, "content": content});
                if r.is_error {
                    block["is_error"] = true.into();
                }
                ("user", vec![block])
            }
        };
        if blocks.is_empty() {
            continue;
        }
        match out.last_mut() {
            Some((last, b)) if *last == role => b.extend(blocks),
            _ => out.push((role, blocks)),
        }
    }
    out.into_iter().map(|(role, content)| json!({"role": role, "content": content})).collect()
}

fn usage_of(u: &Value) -> (u64, u64) {
    let n = |k: &str| u.get(k).and_then(Value::as_u64).unwrap_or(0);
    // Cached prompt tokens are still prompt tokens.
    (n("input_tokens") + n("cache_creation_input_tokens") + n("cache_read_input_tokens"), n("output_tokens"))
}

pub fn parse_response(model: &str, body: &str) -> Result<AssistantReply, LlmError> {
    let v = parse_json(body)?;
    if v.get("type").and_then(Value::as_str) == Some("error") {
        return Err(classify_stream_error(ProviderKind::Anthropic, model, body));
    }
    let blocks = v.get("content").and_then(Value::as_array).ok_or_else(|| LlmError::MalformedResponse("the response has no content".into()))?;
    let mut text = String::new();
    let mut tool_calls = vec![];
    for b in blocks {
        match b.get("type").and_then(Value::as_str) {
            Some("text") => text.push_str(b.get("text").and_then(Value::as_str).unwrap_or_default()),
            Some("tool_use") => {
                let id = b.get("id").and_then(Value::as_str).unwrap_or_default();
                let name = b.get("name").and_then(Value::as_str).unwrap_or_default();
                tool_calls.push(ToolCall::new(id, name, b.get("input").cloned().unwrap_or_else(|| json!({}))));
            }
            _ => {}
        }
    }
    let usage = v.get("usage").map(|u| {
        let (i, o) = usage_of(u);
        Usage::new(i, o)
    });
    let reason = v.get("stop_reason").and_then(Value::as_str).map(StopReason::from_provider);
    Ok(AssistantReply { text, stop_reason: StopReason::normalise(reason, !tool_calls.is_empty()), tool_calls, usage })
}

/// Decodes Messages API stream events.
#[derive(Debug)]
pub struct StreamDecoder {
    model: String,
    /// Content block index of each tool call, by our tool index.
    tool_blocks: Vec<u64>,
    input_tokens: u64,
    output_tokens: u64,
    stop_reason: Option<StopReason>,
    done: bool,
}

impl StreamDecoder {
    pub fn new(model: &str) -> Self {
        StreamDecoder { model: model.to_string(), tool_blocks: vec![], input_tokens: 0, output_tokens: 0, stop_reason: None, done: false }
    }

    fn usage(&self) -> StreamEvent {
        StreamEvent::Usage { usage: Usage::new(self.input_tokens, self.output_tokens) }
    }

    pub fn feed(&mut self, ev: &SseEvent) -> Result<Vec<StreamEvent>, LlmError> {
        let mut out = vec![];
        if self.done || ev.data.trim().is_empty() {
            return Ok(out);
        }
        let v = parse_json(&ev.data)?;
        let kind = v.get("type").and_then(Value::as_str).or(ev.event.as_deref()).unwrap_or_default();
        match kind {
            "message_start" => {
                if let Some(u) = v.get("message").and_then(|m| m.get("usage")) {
                    (self.input_tokens, self.output_tokens) = usage_of(u);
                    out.push(self.usage());
                }
            }
            "content_block_start" => {
                let block = v.get("content_block").unwrap_or(&Value::Null);
                match block.get("type").and_then(Value::as_str) {
                    Some("text") => {
                        let text = block.get("text").and_then(Value::as_str).unwrap_or_default();
                        if !text.is_empty() {
                            out.push(StreamEvent::TextDelta { text: text.to_string() });
                        }
                    }
                    Some("tool_use") => {
                        self.tool_blocks.push(v.get("index").and_then(Value::as_u64).unwrap_or(u64::MAX));
                        out.push(StreamEvent::ToolCallStart {
                            index: self.tool_blocks.len() - 1,
                            id: block.get("id").and_then(Value::as_str).unwrap_or_default().to_string(),
                            name: block.get("name").and_then(Value::as_str).unwrap_or_default().to_string(),
                            signature: None,
                        });
                    }
                    _ => {}
                }
            }
            "content_block_delta" => {
                let delta = v.get("delta").unwrap_or(&Value::Null);
                match delta.get("type").and_then(Value::as_str) {
                    Some("text_delta") => {
                        let text = delta.get("text").and_then(Value::as_str).unwrap_or_default();
                        if !text.is_empty() {
                            out.push(StreamEvent::TextDelta { text: text.to_string() });
                        }
                    }
                    Some("input_json_delta") => {
                        let block = v.get("index").and_then(Value::as_u64).unwrap_or(u64::MAX);
                        let fragment = delta.get("partial_json").and_then(Value::as_str).unwrap_or_default();
                        if let (Some(index), false) = (self.tool_blocks.iter().position(|&b| b == block), fragment.is_empty()) {
                            out.push(StreamEvent::ToolCallArgsDelta { index, fragment: fragment.to_string() });
                        }
                    }
                    _ => {}
                }
            }
            "message_delta" => {
                if let Some(r) = v.get("delta").and_then(|d| d.get("stop_reason")).and_then(Value::as_str) {
                    self.stop_reason = Some(StopReason::from_provider(r));
                }
                if let Some(u) = v.get("usage") {
                    let (i, o) = usage_of(u);
                    // message_delta's counts are cumulative; input is only sometimes repeated.
                    self.input_tokens = self.input_tokens.max(i);
                    self.output_tokens = self.output_tokens.max(o);
                    out.push(self.usage());
                }
            }
            "message_stop" => {
                self.done = true;
                out.push(StreamEvent::Done { stop_reason: self.stop_reason.clone() });
            }
            "error" => return Err(classify_stream_error(ProviderKind::Anthropic, &self.model, &ev.data)),
            _ => {}
        }
        Ok(out)
    }

    pub fn finish(&mut self) -> Result<Vec<StreamEvent>, LlmError> {
        if self.done {
            Ok(vec![])
        } else {
            Err(cut_stream())
        }
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
        let mut p = ProviderSettings::new(ProviderKind::Anthropic);
        p.api_key = "sk-ant-test".into();
        p
    }

    #[test]
    fn request_shape_with_system_tools_images_and_results() {
        let c1 = ToolCall::new("toolu_01A", "get_weather", json!({"location": "San Francisco, CA"}));
        let c2 = ToolCall::new("toolu_01B", "get_time", json!("{\"tz\":\"PST\"}"));
        let req = ChatRequest {
            model: String::new(),
            messages: vec![
                Message::system("You are terse."),
                Message::user_with_images("What is in this image?", vec![Image::new("image/jpeg", "/9j/4AAQ")]),
                Message::Assistant { text: "Checking.".into(), tool_calls: vec![c1.clone(), c2.clone()] },
                Message::Tool(ToolResult { tool_call_id: c1.id.clone(), name: c1.name.clone(), content: "15 degrees".into(), image: None, is_error: false }),
                Message::Tool(ToolResult {
                    tool_call_id: c2.id.clone(),
                    name: c2.name.clone(),
                    content: "boom".into(),
                    image: Some(Image::new("image/png", "iVBOR")),
                    is_error: true,
                }),
            ],
            tools: vec![ToolSpec::new(
                "get_weather",
                "Get the current weather",
                json!({"type": "object", "properties": {"location": {"type": "string"}}, "required": ["location"]}),
            )],
            stream: true,
            max_tokens: None,
            temperature: Some(0.5),
        };
        let http = build_request(&settings(), "claude-sonnet-4-5", &req);
        assert_eq!(http.url, "https://api.anthropic.com/v1/messages");
        assert_eq!(http.header("x-api-key"), Some("sk-ant-test"));
        assert_eq!(http.header("anthropic-version"), Some("2023-06-01"));
        assert_eq!(http.header("anthropic-dangerous-direct-browser-access"), Some("true"));
        let body: Value = serde_json::from_str(&http.body).unwrap();
        assert_eq!(body["system"], "You are terse.");
        assert_eq!(body["max_tokens"], DEFAULT_MAX_TOKENS);
        assert_eq!(body["stream"], true);
        assert_eq!(body["tools"][0]["input_schema"]["required"], json!(["location"]));
        let m = body["messages"].as_array().unwrap();
        assert_eq!(m.len(), 3, "{m:?}");
        assert_eq!(m[0]["content"][0], json!({"type": "image", "source": {"type": "base64", "media_type": "image/jpeg", "data": "/9j/4AAQ"}}));
        assert_eq!(m[0]["content"][1], json!({"type": "text", "text": "What is in this image?"}));
        assert_eq!(m[1]["content"][1], json!({"type": "tool_use", "id": "toolu_01A", "name": "get_weather", "input": {"location": "San Francisco, CA"}}));
        assert_eq!(m[1]["content"][2]["input"], json!({"tz": "PST"}));
        assert_eq!(m[2]["role"], "user");
        assert_eq!(m[2]["content"][0], json!({"type": "tool_result", "tool_use_id": "toolu_01A", "content": [{"type": "text", "text": "15 degrees"}]}));
        assert_eq!(m[2]["content"][1]["is_error"], true);
        assert_eq!(m[2]["content"][1]["content"][1]["type"], "image");
    }

    #[test]
    fn request_without_tools_omits_them() {
        let mut req = ChatRequest::new(vec![Message::user("Hello, world")]);
        req.max_tokens = Some(1024);
        let body: Value = serde_json::from_str(&build_request(&settings(), "claude-3-5-haiku-latest", &req).body).unwrap();
        assert_eq!(
            body,
            json!({"model": "claude-3-5-haiku-latest", "max_tokens": 1024, "messages": [{"role": "user", "content": [{"type": "text", "text": "Hello, world"}]}]})
        );
    }

    #[test]
    fn parses_documented_responses() {
        let text = r#"{"content":[{"text":"Hi! My name is Claude.","type":"text"}],"id":"msg_013Zva2CMHLNnXjNJJKqJ2EF","model":"claude-sonnet-4-5","role":"assistant","stop_reason":"end_turn","stop_sequence":null,"type":"message","usage":{"input_tokens":2095,"output_tokens":503}}"#;
        let r = parse_response("m", text).unwrap();
        assert_eq!((r.text.as_str(), r.stop_reason.clone(), r.usage), ("Hi! My name is Claude.", StopReason::EndTurn, Some(Usage::new(2095, 503))));
        let tools = r#"{"id":"msg_01Aq9w938a90dw8q","model":"claude-sonnet-4-5","stop_reason":"tool_use","role":"assistant","type":"message",
          "content":[{"type":"text","text":"I'll check the current weather in San Francisco for you."},
                     {"type":"tool_use","id":"toolu_01A09q90qw90lq917835lq9","name":"get_weather","input":{"location":"San Francisco, CA","unit":"celsius"}}],
          "usage":{"input_tokens":384,"cache_read_input_tokens":100,"output_tokens":74}}"#;
        let r = parse_response("m", tools).unwrap();
        assert_eq!(
            r.tool_calls,
            vec![ToolCall::new("toolu_01A09q90qw90lq917835lq9", "get_weather", json!({"location": "San Francisco, CA", "unit": "celsius"}))]
        );
        assert_eq!(r.stop_reason, StopReason::ToolUse);
        assert_eq!(r.usage, Some(Usage::new(484, 74)));
        let e = parse_response("m", r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#).unwrap_err();
        assert!(e.is_retryable());
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
    fn streams_recorded_text_and_tool_use() {
        let evs = decode(include_str!("../../../tests/fixtures/anthropic_stream_tools.sse")).unwrap();
        let mut acc = StreamAccumulator::new();
        evs.iter().for_each(|e| acc.push(e));
        let r = acc.finish().unwrap();
        assert_eq!(r.text, "Okay, let's check the weather for San Francisco, CA:");
        assert_eq!(r.tool_calls.len(), 1);
        assert_eq!(r.tool_calls[0].id, "toolu_01T1x1fJ34qAmk2tNTrN7Up6");
        assert_eq!(r.tool_calls[0].arguments, json!({"location": "San Francisco, CA", "unit": "fahrenheit"}));
        assert_eq!(r.stop_reason, StopReason::ToolUse);
        assert_eq!(r.usage, Some(Usage::new(472, 89)));
        assert!(matches!(evs[0], StreamEvent::Usage { .. }));
    }

    #[test]
    fn stream_errors_and_cuts() {
        let overloaded = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":5,\"output_tokens\":1}}}\n\nevent: error\ndata: {\"type\": \"error\", \"error\": {\"type\": \"overloaded_error\", \"message\": \"Overloaded\"}}\n\n";
        assert!(decode(overloaded).unwrap_err().is_retryable());
        let cut = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":5,\"output_tokens\":1}}}\n\nevent: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hel\"}}\n\n";
        assert!(matches!(decode(cut), Err(LlmError::Network(_))));
    }
}
