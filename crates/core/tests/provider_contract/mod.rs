//! Each provider's documented request rules, checked on the request bodies Dusk really builds for
//! a tool list: message order and alternation, every tool call answered exactly once, tool
//! schemas in the accepted subset, image parts, and the required headers.
#![allow(dead_code)]

use dusk_core::llm::providers::build_request;
use dusk_core::llm::{ChatRequest, Image, Message, ProviderKind, ToolCall, ToolSpec};
use dusk_core::settings::ProviderSettings;
use serde_json::{json, Value};

pub const KINDS: [ProviderKind; 4] = [ProviderKind::Openai, ProviderKind::Anthropic, ProviderKind::Gemini, ProviderKind::OpenaiCompatible];

fn image() -> Image {
    Image::new("image/jpeg", "AAAA")
}

/// An agent's conversation as the loop builds it: the task with a screenshot, a turn calling
/// every tool (one call with empty arguments each), their results (one with an image), a turn
/// with text only, and a user message after it.
pub fn conversation(tools: &[ToolSpec]) -> ChatRequest {
    let calls: Vec<ToolCall> = tools.iter().enumerate().map(|(i, t)| ToolCall::new(format!("call_{i}"), t.name.clone(), json!({}))).collect();
    let mut messages = vec![Message::system("You are Dusk."), Message::user_with_images("Task: look", vec![image()])];
    if !calls.is_empty() {
        messages.push(Message::Assistant { text: "Looking.".into(), tool_calls: calls.clone() });
        for (i, c) in calls.iter().enumerate() {
            let Message::Tool(mut r) = Message::tool_result(c, format!("{{\"success\":true,\"n\":{i}}}")) else { unreachable!() };
            if i == 0 {
                r.image = Some(image());
            }
            r.is_error = i == 1;
            messages.push(Message::Tool(r));
        }
    }
    messages.push(Message::assistant("Done."));
    messages.push(Message::user("And now?"));
    ChatRequest::new(messages).with_tools(tools.to_vec()).streaming(true)
}

fn provider(kind: ProviderKind) -> ProviderSettings {
    let mut p = ProviderSettings::new(kind);
    p.api_key = "sk-test".into();
    p.base_url = "http://127.0.0.1:9".into();
    p
}

/// Builds `request` for every provider kind and checks each one's rules; panics naming the rule.
pub fn check(what: &str, request: &ChatRequest) {
    for kind in KINDS {
        let http = build_request(&provider(kind), request).unwrap_or_else(|e| panic!("{what} {kind:?}: {e}"));
        let body: Value = serde_json::from_str(&http.body).expect("JSON body");
        let header = |name: &str| http.header(name).unwrap_or_else(|| panic!("{what} {kind:?}: no {name} header"));
        assert_eq!(header("content-type"), "application/json");
        let at = format!("{what} {kind:?}");
        match kind {
            ProviderKind::Openai | ProviderKind::OpenaiCompatible => {
                assert_eq!(header("authorization"), "Bearer sk-test");
                openai(&at, &body);
            }
            ProviderKind::Anthropic => {
                assert_eq!(header("x-api-key"), "sk-test");
                assert_eq!(header("anthropic-version"), "2023-06-01");
                anthropic(&at, &body);
            }
            ProviderKind::Gemini => {
                assert_eq!(header("x-goog-api-key"), "sk-test");
                gemini(&at, &body);
            }
            ProviderKind::OnDevice => unreachable!("the on-device model is not HTTP"),
        }
    }
    on_device(what, request);
}

/// The Prompt API's rules: a system message only first in `initialPrompts`; append and prompt take user turns.
fn on_device(what: &str, request: &ChatRequest) {
    use dusk_core::llm::on_device::{shape, PromptRole};
    let wire = dusk_core::llm::text_protocol::downgrade_request(request);
    let p = shape(&wire, true).unwrap_or_else(|e| panic!("{what} OnDevice: {e}"));
    for (i, m) in p.initial_prompts.iter().enumerate() {
        assert!(i == 0 || m.role != PromptRole::System, "{what} OnDevice: a system message after the first");
        assert!(!m.content.is_empty(), "{what} OnDevice: empty content");
    }
    assert!(p.append.iter().chain(&p.input).all(|m| m.role == PromptRole::User), "{what} OnDevice: append/prompt hold user turns only");
    assert_eq!(p.input.len(), 1, "{what} OnDevice: one prompt");
}

fn arr<'a>(v: &'a Value, key: &str, at: &str) -> &'a Vec<Value> {
    v[key].as_array().unwrap_or_else(|| panic!("{at}: `{key}` is not an array: {v}"))
}

fn openai(at: &str, body: &Value) {
    let msgs = arr(body, "messages", at);
    assert_eq!(msgs[0]["role"], "system", "{at}: the system message comes first");
    let mut pending: Vec<String> = Vec::new();
    for (i, m) in msgs.iter().enumerate() {
        let role = m["role"].as_str().unwrap_or_default();
        assert!(i == 0 || role != "system", "{at}: one system message, first");
        if role == "tool" {
            let id = m["tool_call_id"].as_str().unwrap_or_default().to_string();
            assert!(pending.contains(&id), "{at}: tool result {id} answers no open call");
            pending.retain(|p| *p != id);
            assert!(m["content"].is_string(), "{at}: a tool message's content is text");
            continue;
        }
        assert!(pending.is_empty(), "{at}: calls {pending:?} unanswered before a {role} message");
        if let Some(calls) = m["tool_calls"].as_array() {
            assert_eq!(role, "assistant");
            for c in calls {
                assert_eq!(c["type"], "function");
                assert!(c["function"]["arguments"].is_string(), "{at}: arguments are a JSON string");
                pending.push(c["id"].as_str().unwrap_or_default().to_string());
            }
        }
        for part in m["content"].as_array().into_iter().flatten() {
            if part["type"] == "image_url" {
                assert_eq!(role, "user", "{at}: images only in user messages");
                assert!(part["image_url"]["url"].as_str().is_some_and(|u| u.starts_with("data:image/") && u.contains(";base64,")), "{at}: image as a data URL");
            }
        }
    }
    assert!(pending.is_empty(), "{at}: calls {pending:?} never answered");
    for t in body["tools"].as_array().into_iter().flatten() {
        assert_eq!(t["type"], "function");
        assert_eq!(t["function"]["parameters"]["type"], "object", "{at}: {t}");
    }
}

fn anthropic(at: &str, body: &Value) {
    assert!(body["system"].is_string(), "{at}: the system prompt is top-level");
    assert!(body["max_tokens"].as_u64().is_some_and(|n| n > 0), "{at}: max_tokens is required");
    let msgs = arr(body, "messages", at);
    let mut open: Vec<String> = Vec::new();
    for (i, m) in msgs.iter().enumerate() {
        let role = m["role"].as_str().unwrap_or_default();
        assert_eq!(role, if i % 2 == 0 { "user" } else { "assistant" }, "{at}: roles alternate from user");
        let blocks = arr(m, "content", at);
        assert!(!blocks.is_empty(), "{at}: no empty message");
        let results: Vec<&str> = blocks.iter().filter(|b| b["type"] == "tool_result").filter_map(|b| b["tool_use_id"].as_str()).collect();
        if !open.is_empty() {
            let mut want = open.clone();
            want.sort();
            let mut got: Vec<String> = results.iter().map(|s| s.to_string()).collect();
            got.sort();
            assert_eq!(got, want, "{at}: the user turn after tool_use answers each id exactly once");
            let first_other = blocks.iter().position(|b| b["type"] != "tool_result").unwrap_or(blocks.len());
            assert!(blocks[first_other..].iter().all(|b| b["type"] != "tool_result"), "{at}: tool_result blocks come first");
        } else {
            assert!(results.is_empty(), "{at}: a tool_result with no tool_use before it");
        }
        open = blocks.iter().filter(|b| b["type"] == "tool_use").filter_map(|b| b["id"].as_str().map(str::to_string)).collect();
        for b in blocks {
            for img in std::iter::once(b).chain(b["content"].as_array().into_iter().flatten()).filter(|x| x["type"] == "image") {
                assert_eq!(img["source"]["type"], "base64", "{at}: {img}");
                assert!(img["source"]["media_type"].as_str().is_some_and(|t| t.starts_with("image/")), "{at}: {img}");
            }
        }
    }
    assert!(open.is_empty(), "{at}: the last turn's calls are unanswered");
    for t in body["tools"].as_array().into_iter().flatten() {
        assert_eq!(t["input_schema"]["type"], "object", "{at}: {t}");
    }
}

/// Schema keywords in Gemini's documented subset (core keeps the list; this checks nothing else slips in).
use dusk_core::llm::tools::GEMINI_KEYS;

fn gemini_schema(at: &str, name: &str, s: &Value) {
    let Some(m) = s.as_object() else { panic!("{at} {name}: a schema is an object: {s}") };
    for (k, v) in m {
        assert!(GEMINI_KEYS.contains(&k.as_str()), "{at} {name}: `{k}` is outside Gemini's schema subset");
        match k.as_str() {
            "properties" => {
                let props = v.as_object().unwrap_or_else(|| panic!("{at} {name}: properties"));
                assert!(!props.is_empty(), "{at} {name}: properties should be non-empty for OBJECT type");
                props.iter().for_each(|(p, s)| gemini_schema(at, &format!("{name}.{p}"), s));
            }
            "items" => gemini_schema(at, name, v),
            "anyOf" => v.as_array().into_iter().flatten().for_each(|s| gemini_schema(at, name, s)),
            "type" => assert!(v.is_string(), "{at} {name}: one type, not a list"),
            _ => {}
        }
    }
}

fn gemini(at: &str, body: &Value) {
    assert!(body["systemInstruction"]["parts"][0]["text"].is_string(), "{at}: the system prompt is systemInstruction");
    let contents = arr(body, "contents", at);
    let mut open: Vec<String> = Vec::new();
    for (i, c) in contents.iter().enumerate() {
        let role = c["role"].as_str().unwrap_or_default();
        assert_eq!(role, if i % 2 == 0 { "user" } else { "model" }, "{at}: roles alternate from user");
        let parts = arr(c, "parts", at);
        assert!(!parts.is_empty(), "{at}: no empty content");
        let responses: Vec<String> = parts.iter().filter_map(|p| p["functionResponse"]["name"].as_str().map(str::to_string)).collect();
        assert_eq!(responses, open, "{at}: the turn after functionCalls answers each, in order, exactly once");
        open = parts.iter().filter_map(|p| p["functionCall"]["name"].as_str().map(str::to_string)).collect();
        for p in parts.iter().filter(|p| p.get("inlineData").is_some()) {
            assert_eq!(role, "user");
            assert!(p["inlineData"]["mimeType"].as_str().is_some_and(|t| t.starts_with("image/")), "{at}: {p}");
        }
        for p in parts.iter().filter(|p| p.get("functionResponse").is_some()) {
            assert!(p["functionResponse"]["response"].is_object(), "{at}: a response is an object");
        }
    }
    assert!(open.is_empty(), "{at}: the last turn's calls are unanswered");
    for d in body["tools"][0]["functionDeclarations"].as_array().into_iter().flatten() {
        let name = d["name"].as_str().unwrap_or_default();
        assert!(!name.is_empty() && name.len() <= 64 && name.chars().all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c)), "{at}: name {name}");
        if let Some(p) = d.get("parameters") {
            assert_eq!(p["type"], "object", "{at} {name}");
            gemini_schema(at, name, p);
        }
    }
}
