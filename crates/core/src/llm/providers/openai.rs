//! OpenAI Chat Completions, also spoken by OpenAI-compatible servers (see `openai_compatible`):
//! requests and whole responses; `openai_stream` decodes streamed ones.

use super::wire::{join_url, parse_json};
use crate::llm::errors::{classify_stream_error, LlmError};
use crate::llm::http::HttpRequest;
use crate::llm::message::{AssistantReply, ChatRequest, Image, Message, StopReason, ToolCall};
use crate::llm::provider_kind::ProviderKind;
use crate::llm::stream::parse_arguments;
use crate::llm::usage::Usage;
use crate::settings::ProviderSettings;
use serde_json::{json, Map, Value};

pub fn build_request(p: &ProviderSettings, model: &str, req: &ChatRequest) -> HttpRequest {
    build_with(p, model, req, true)
}

/// `official` selects OpenAI's own dialect: `max_completion_tokens` and no sampling knobs on
/// reasoning models. Compatible servers get the classic fields they understand.
pub(crate) fn build_with(p: &ProviderSettings, model: &str, req: &ChatRequest, official: bool) -> HttpRequest {
    let mut body = Map::new();
    body.insert("model".into(), model.into());
    body.insert("messages".into(), Value::Array(messages(&req.messages)));
    if !req.tools.is_empty() {
        let tools: Vec<Value> = req
            .tools
            .iter()
            .map(|t| json!({"type": "function", "function": {"name": t.name, "description": t.description, "parameters": t.parameters}}))
            .collect();
        body.insert("tools".into(), Value::Array(tools));
    }
    if let Some(n) = req.max_tokens {
        body.insert(if official { "max_completion_tokens" } else { "max_tokens" }.into(), n.into());
    }
    if let Some(t) = req.temperature {
        if !(official && is_reasoning_model(model)) {
            body.insert("temperature".into(), t.into());
        }
    }
    if req.stream {
        body.insert("stream".into(), true.into());
        body.insert("stream_options".into(), json!({"include_usage": true}));
    }
    let mut headers = vec![];
    let key = p.api_key.trim();
    if !key.is_empty() {
        headers.push(("authorization".to_string(), format!("Bearer {key}")));
    }
    HttpRequest::post_json(join_url(&p.effective_base_url(), "chat/completions"), headers, &Value::Object(body))
}

/// o-series and gpt-5 models reject a custom temperature.
fn is_reasoning_model(model: &str) -> bool {
    let m = model.to_ascii_lowercase();
    m.starts_with("o1") || m.starts_with("o3") || m.starts_with("o4") || m.starts_with("gpt-5")
}

fn user_content(text: &str, images: &[Image]) -> Value {
    if images.is_empty() {
        return Value::String(text.to_string());
    }
    let mut parts = vec![];
    if !text.is_empty() {
        parts.push(json!({"type": "text", "text": text}));
    }
    parts.extend(images.iter().map(|i| json!({"type": "image_url", "image_url": {"url": i.data_url()}})));
    Value::Array(parts)
}

/// Converts the conversation. Tool messages can't hold images, and nothing may sit between an
/// assistant's tool calls and their results, so tool images follow the run of results as one user turn.
pub fn messages(msgs: &[Message]) -> Vec<Value> {
    let mut out = vec![];
    let mut pending_images: Vec<(String, Image)> = vec![];
    let flush = |out: &mut Vec<Value>, pending: &mut Vec<(String, Image)>| {
        if pending.is_empty() {
            return;
        }
        let names: Vec<String> = pending.iter().map(|(n, _)| format!("`{n}`")).collect();
        let text = format!("Image(s) returned by {}:", names.join(", "));
        let images: Vec<Image> = pending.drain(..).map(|(_, i)| i).collect();
        out.push(json!({"role": "user", "content": user_content(&text, &images)}));
    };
    for m in msgs {
        if !matches!(m, Message::Tool(_)) {
            flush(&mut out, &mut pending_images);
        }
        match m {
            Message::System { text } => out.push(json!({"role": "system", "content": text})),
            Message::User { text, images } => out.push(json!({"role": "user", "content": user_content(text, images)})),
            Message::Assistant { text, tool_calls } => {
                let mut a = Map::new();
                a.insert("role".into(), "assistant".into());
                a.insert("content".into(), if text.is_empty() && !tool_calls.is_empty() { Value::Null } else { text.as_str().into() });
                if !tool_calls.is_empty() {
                    let calls: Vec<Value> = tool_calls
                        .iter()
                        .map(|c| json!({"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments_text()}}))
                        .collect();
                    a.insert("tool_calls".into(), Value::Array(calls));
                }
                out.push(Value::Object(a));
            }
            Message::Tool(r) => {
                out.push(json!({"role": "tool", "tool_call_id": r.tool_call_id, "content": r.content}));
                if let Some(img) = &r.image {
                    pending_images.push((r.name.clone(), img.clone()));
                }
            }
        }
    }
    flush(&mut out, &mut pending_images);
    out
}

pub(super) fn usage_of(v: &Value) -> Option<Usage> {
    let u = v.get("usage").filter(|u| u.is_object())?;
    Some(Usage::new(u.get("prompt_tokens")?.as_u64()?, u.get("completion_tokens").and_then(Value::as_u64).unwrap_or(0)))
}

/// Arguments are a JSON string per the spec; some compatible servers send an object.
pub(super) fn arguments_fragment(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Null) | None => String::new(),
        Some(other) => other.to_string(),
    }
}

/// Message content is normally a string; a few servers send an array of text parts.
pub(super) fn content_text(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts.iter().filter_map(|p| p.get("text").and_then(Value::as_str)).collect(),
        _ => String::new(),
    }
}

pub fn parse_response(kind: ProviderKind, model: &str, body: &str) -> Result<AssistantReply, LlmError> {
    let v = parse_json(body)?;
    if v.get("error").is_some() {
        return Err(classify_stream_error(kind, model, body));
    }
    let choice = v.get("choices").and_then(|c| c.get(0)).ok_or_else(|| LlmError::MalformedResponse("the response has no choices".into()))?;
    let msg = choice.get("message").unwrap_or(&Value::Null);
    let tool_calls: Vec<ToolCall> = msg
        .get("tool_calls")
        .and_then(Value::as_array)
        .map(|calls| {
            calls
                .iter()
                .enumerate()
                .filter_map(|(i, c)| {
                    let f = c.get("function")?;
                    let name = f.get("name")?.as_str()?.to_string();
                    let id = c.get("id").and_then(Value::as_str).map(str::to_string).unwrap_or_else(|| format!("call_{i}"));
                    Some(ToolCall::new(id, name, parse_arguments(&arguments_fragment(f.get("arguments")))))
                })
                .collect()
        })
        .unwrap_or_default();
    let reason = choice.get("finish_reason").and_then(Value::as_str).map(StopReason::from_provider);
    Ok(AssistantReply {
        text: content_text(msg.get("content")),
        stop_reason: StopReason::normalise(reason, !tool_calls.is_empty()),
        tool_calls,
        usage: usage_of(&v),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::message::ToolResult;
    use crate::llm::tools::ToolSpec;

    fn settings() -> ProviderSettings {
        let mut p = ProviderSettings::new(ProviderKind::Openai);
        p.api_key = "sk-test".into();
        p
    }

    fn weather_tool() -> ToolSpec {
        ToolSpec::new(
            "get_current_weather",
            "Get the current weather in a given location",
            json!({"type": "object", "properties": {"location": {"type": "string"}}, "required": ["location"]}),
        )
    }

    #[test]
    fn request_shape_with_tools_images_and_results() {
        let call = ToolCall::new("call_abc", "get_current_weather", json!({"location": "Boston, MA"}));
        let mut result = ToolResult { tool_call_id: "call_abc".into(), name: call.name.clone(), content: "22C".into(), image: None, is_error: false };
        result.image = Some(Image::new("image/png", "iVBOR"));
        let req = ChatRequest {
            model: String::new(),
            messages: vec![
                Message::system("Be brief."),
                Message::user_with_images("What's in this image?", vec![Image::new("image/jpeg", "AAAA")]),
                Message::Assistant { text: String::new(), tool_calls: vec![call] },
                Message::Tool(result),
                Message::user("thanks"),
            ],
            tools: vec![weather_tool()],
            stream: true,
            max_tokens: Some(300),
            temperature: Some(0.2),
        };
        let http = build_request(&settings(), "gpt-4o", &req);
        assert_eq!(http.method, "POST");
        assert_eq!(http.url, "https://api.openai.com/v1/chat/completions");
        assert_eq!(http.header("authorization"), Some("Bearer sk-test"));
        let body: Value = serde_json::from_str(&http.body).unwrap();
        assert_eq!(body["model"], "gpt-4o");
        assert_eq!(body["max_completion_tokens"], 300);
        assert_eq!(body["temperature"], 0.2);
        assert_eq!(body["stream_options"], json!({"include_usage": true}));
        assert_eq!(body["tools"][0]["type"], "function");
        assert_eq!(body["tools"][0]["function"]["name"], "get_current_weather");
        assert_eq!(body["tools"][0]["function"]["parameters"]["required"], json!(["location"]));
        let m = &body["messages"];
        assert_eq!(m[0], json!({"role": "system", "content": "Be brief."}));
        assert_eq!(m[1]["content"][1], json!({"type": "image_url", "image_url": {"url": "data:image/jpeg;base64,AAAA"}}));
        assert_eq!(m[2]["content"], Value::Null);
        assert_eq!(m[2]["tool_calls"][0]["function"]["arguments"], "{\"location\":\"Boston, MA\"}");
        assert_eq!(m[3], json!({"role": "tool", "tool_call_id": "call_abc", "content": "22C"}));
        assert_eq!(m[4]["role"], "user");
        assert_eq!(m[4]["content"][1]["image_url"]["url"], "data:image/png;base64,iVBOR");
        assert_eq!(m[5], json!({"role": "user", "content": "thanks"}));
    }

    #[test]
    fn request_without_tools_or_stream_is_minimal() {
        let req = ChatRequest::new(vec![Message::user("Hello!")]);
        let body: Value = serde_json::from_str(&build_request(&settings(), "gpt-4o-mini", &req).body).unwrap();
        assert_eq!(body, json!({"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "Hello!"}]}));
        let mut r = req.clone();
        r.temperature = Some(0.5);
        let body: Value = serde_json::from_str(&build_request(&settings(), "o3-mini", &r).body).unwrap();
        assert!(body.get("temperature").is_none());
    }

    #[test]
    fn parses_documented_text_response() {
        let body = r#"{
          "id": "chatcmpl-123", "object": "chat.completion", "created": 1677652288, "model": "gpt-4o-mini",
          "system_fingerprint": "fp_44709d6fcb",
          "choices": [{"index": 0, "message": {"role": "assistant", "content": "\n\nHello there, how may I assist you today?"}, "logprobs": null, "finish_reason": "stop"}],
          "usage": {"prompt_tokens": 9, "completion_tokens": 12, "total_tokens": 21}
        }"#;
        let r = parse_response(ProviderKind::Openai, "m", body).unwrap();
        assert_eq!(r.text, "\n\nHello there, how may I assist you today?");
        assert_eq!(r.usage, Some(Usage::new(9, 12)));
        assert_eq!(r.stop_reason, StopReason::EndTurn);
        assert!(r.tool_calls.is_empty());
    }

    #[test]
    fn parses_documented_tool_call_response() {
        let body = r#"{
          "id": "chatcmpl-abc123", "object": "chat.completion", "created": 1699896916, "model": "gpt-4o-mini",
          "choices": [{"index": 0, "message": {"role": "assistant", "content": null,
            "tool_calls": [{"id": "call_abc123", "type": "function", "function": {"name": "get_current_weather", "arguments": "{\n\"location\": \"Boston, MA\"\n}"}}]},
            "logprobs": null, "finish_reason": "tool_calls"}],
          "usage": {"prompt_tokens": 82, "completion_tokens": 17, "total_tokens": 99}
        }"#;
        let r = parse_response(ProviderKind::Openai, "m", body).unwrap();
        assert_eq!(r.text, "");
        assert_eq!(r.tool_calls, vec![ToolCall::new("call_abc123", "get_current_weather", json!({"location": "Boston, MA"}))]);
        assert_eq!(r.stop_reason, StopReason::ToolUse);
    }

    #[test]
    fn malformed_and_error_bodies_are_errors() {
        assert!(matches!(parse_response(ProviderKind::Openai, "m", "{not json"), Err(LlmError::MalformedResponse(_))));
        assert!(matches!(parse_response(ProviderKind::Openai, "m", "{}"), Err(LlmError::MalformedResponse(_))));
        let e = parse_response(ProviderKind::OpenaiCompatible, "m", r#"{"error":{"message":"boom","type":"server_error"}}"#).unwrap_err();
        assert!(e.is_retryable());
    }
}
