//! The client loop against a scripted in-memory transport.

mod common;
use common::block_on;

use dusk_core::llm::client::ConnectionCheck;
use dusk_core::llm::{
    ChatRequest, HttpRequest, HttpResponse, Image, LlmClient, LlmError, Message, ProviderKind, Sleeper, StopReason, StreamEvent, ToolSpec, Transport,
    TransportError,
};
use dusk_core::settings::ProviderSettings;
use serde_json::{json, Value};
use std::cell::RefCell;
use std::collections::VecDeque;

struct FakeResponse {
    status: u16,
    headers: Vec<(String, String)>,
    chunks: VecDeque<Result<Vec<u8>, TransportError>>,
}

impl FakeResponse {
    fn json(status: u16, body: &str) -> Self {
        FakeResponse { status, headers: vec![("Content-Type".into(), "application/json".into())], chunks: VecDeque::from([Ok(body.as_bytes().to_vec())]) }
    }
    fn sse(body: &str, chunk: usize) -> Self {
        let chunks = body.as_bytes().chunks(chunk).map(|c| Ok(c.to_vec())).collect();
        FakeResponse { status: 200, headers: vec![("content-type".into(), "text/event-stream".into())], chunks }
    }
    fn header(mut self, k: &str, v: &str) -> Self {
        self.headers.push((k.into(), v.into()));
        self
    }
}

impl HttpResponse for FakeResponse {
    fn status(&self) -> u16 {
        self.status
    }
    fn header(&self, name: &str) -> Option<String> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.clone())
    }
    async fn next_chunk(&mut self) -> Option<Result<Vec<u8>, TransportError>> {
        self.chunks.pop_front()
    }
}

#[derive(Default)]
struct FakeTransport {
    script: RefCell<VecDeque<Result<FakeResponse, TransportError>>>,
    sent: RefCell<Vec<HttpRequest>>,
}

impl FakeTransport {
    fn new(script: Vec<Result<FakeResponse, TransportError>>) -> Self {
        FakeTransport { script: RefCell::new(script.into()), sent: RefCell::default() }
    }
    fn bodies(&self) -> Vec<Value> {
        self.sent.borrow().iter().map(|r| serde_json::from_str(&r.body).unwrap()).collect()
    }
}

impl Transport for &FakeTransport {
    type Response = FakeResponse;
    type Prompt = dusk_core::llm::NoPrompt;
    async fn prompt(&self, _: dusk_core::llm::on_device::PromptRequest) -> Result<dusk_core::llm::NoPrompt, TransportError> {
        Err(dusk_core::llm::no_on_device_model())
    }
    async fn send(&self, request: HttpRequest) -> Result<FakeResponse, TransportError> {
        self.sent.borrow_mut().push(request);
        self.script.borrow_mut().pop_front().unwrap_or(Err(TransportError::Network("script exhausted".into())))
    }
}

#[derive(Default)]
struct FakeSleeper {
    slept: RefCell<Vec<u64>>,
}

impl Sleeper for &FakeSleeper {
    async fn sleep(&self, ms: u64) {
        self.slept.borrow_mut().push(ms);
    }
}

fn provider(kind: ProviderKind) -> ProviderSettings {
    let mut p = ProviderSettings::new(kind);
    p.api_key = "test-key".into();
    p
}

fn tools() -> Vec<ToolSpec> {
    vec![ToolSpec::new("click", "Clicks", json!({"type": "object", "properties": {"index": {"type": "integer"}}, "required": ["index"]}))]
}

const OPENAI_OK: &str = r#"{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"gpt-4.1-mini","choices":[{"index":0,"message":{"role":"assistant","content":"Hi there"},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":2,"total_tokens":7}}"#;

fn run(
    kind: ProviderKind,
    script: Vec<Result<FakeResponse, TransportError>>,
    req: ChatRequest,
) -> (Result<dusk_core::llm::AssistantReply, LlmError>, Vec<StreamEvent>, FakeTransport, Vec<u64>) {
    let t = FakeTransport::new(script);
    let s = FakeSleeper::default();
    let mut events = vec![];
    let result = {
        let client = LlmClient::new(provider(kind), &t, &s);
        block_on(client.complete(&req, |e| events.push(e.clone())))
    };
    let slept = s.slept.borrow().clone();
    (result, events, t, slept)
}

#[test]
fn rate_limit_with_retry_after_then_success() {
    let limited = FakeResponse::json(429, r#"{"error":{"message":"Rate limit reached for gpt-4.1-mini","type":"requests","code":"rate_limit_exceeded"}}"#)
        .header("Retry-After", "3");
    let (r, events, t, slept) =
        run(ProviderKind::Openai, vec![Ok(limited), Ok(FakeResponse::json(200, OPENAI_OK))], ChatRequest::new(vec![Message::user("hi")]));
    let r = r.unwrap();
    assert_eq!(r.text, "Hi there");
    assert_eq!(slept, vec![3000]);
    assert_eq!(t.sent.borrow().len(), 2);
    assert!(matches!(&events[0], StreamEvent::Retrying { attempt: 1, delay_ms: 3000, reason } if reason.contains("Rate limit reached")));
    assert_eq!(events.last(), Some(&StreamEvent::Done { stop_reason: Some(StopReason::EndTurn) }));
}

#[test]
fn server_errors_back_off_then_succeed_streaming() {
    let stream = include_str!("fixtures/anthropic_stream_tools.sse");
    let err = || Ok(FakeResponse::json(500, r#"{"type":"error","error":{"type":"api_error","message":"Internal server error"}}"#));
    let req = ChatRequest::new(vec![Message::user("Weather in SF?")]).with_tools(tools()).streaming(true);
    let (r, events, t, slept) = run(ProviderKind::Anthropic, vec![err(), err(), Ok(FakeResponse::sse(stream, 7))], req);
    let r = r.unwrap();
    assert_eq!(slept, vec![1000, 2000]);
    assert_eq!(t.sent.borrow().len(), 3);
    assert_eq!(r.tool_calls[0].name, "get_weather");
    assert_eq!(r.stop_reason, StopReason::ToolUse);
    let deltas = events.iter().filter(|e| matches!(e, StreamEvent::TextDelta { .. })).count();
    assert!(deltas > 5, "text streamed incrementally");
}

#[test]
fn retries_run_out() {
    let err = || Ok(FakeResponse::json(503, r#"{"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}}"#));
    let (r, events, t, slept) = run(ProviderKind::Gemini, vec![err(), err(), err(), err(), err()], ChatRequest::new(vec![Message::user("x")]));
    assert!(matches!(r, Err(LlmError::Server { status: 503, .. })));
    assert_eq!(t.sent.borrow().len(), 4);
    assert_eq!(slept, vec![1000, 2000, 4000]);
    assert!(matches!(events.last(), Some(StreamEvent::Error { message }) if message.contains("overloaded")));
}

#[test]
fn bad_key_fails_at_once_with_the_providers_message() {
    let body = r#"{"error":{"message":"Incorrect API key provided: test-key. You can find your API key at https://platform.openai.com/account/api-keys.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}"#;
    let (r, _, t, slept) = run(ProviderKind::Openai, vec![Ok(FakeResponse::json(401, body))], ChatRequest::new(vec![Message::user("x")]));
    let e = r.unwrap_err();
    assert!(e.to_string().starts_with("OpenAI rejected the API key: Incorrect API key provided"), "{e}");
    assert_eq!(t.sent.borrow().len(), 1);
    assert!(slept.is_empty());
}

#[test]
fn a_cut_stream_is_retried_and_partial_output_discarded() {
    let full = include_str!("fixtures/openai_stream_tools.sse");
    let cut = &full[..full.len() / 2];
    let mut broken = FakeResponse::sse(full, 50);
    broken.chunks.truncate(3);
    broken.chunks.push_back(Err(TransportError::Network("connection reset".into())));
    let req = ChatRequest::new(vec![Message::user("Weather?")]).with_tools(tools()).streaming(true);
    let script = vec![Ok(FakeResponse::sse(cut, 64)), Ok(broken), Ok(FakeResponse::sse(full, 64))];
    let (r, events, t, slept) = run(ProviderKind::Openai, script, req);
    let r = r.unwrap();
    assert_eq!(t.sent.borrow().len(), 3);
    assert_eq!(slept.len(), 2);
    assert_eq!(r.tool_calls.len(), 2);
    assert_eq!(r.tool_calls[0].arguments, json!({"location": "Paris, France"}));
    let retry = events.iter().rposition(|e| matches!(e, StreamEvent::Retrying { .. })).unwrap();
    let starts_after = events[retry..].iter().filter(|e| matches!(e, StreamEvent::ToolCallStart { .. })).count();
    assert_eq!(starts_after, 2);
    assert_eq!(t.bodies()[0]["stream"], true);
}

#[test]
fn malformed_json_is_not_retried() {
    let (r, _, t, _) = run(ProviderKind::Openai, vec![Ok(FakeResponse::json(200, "{\"choices\": [ oops"))], ChatRequest::new(vec![Message::user("x")]));
    assert!(matches!(r, Err(LlmError::MalformedResponse(_))), "{r:?}");
    assert_eq!(t.sent.borrow().len(), 1);
}

#[test]
fn transport_timeouts_and_aborts_surface_as_such() {
    let (r, ..) = run(ProviderKind::Openai, vec![Err(TransportError::Aborted)], ChatRequest::new(vec![Message::user("x")]));
    assert_eq!(r.unwrap_err(), LlmError::Aborted);
    let (r, ..) = run(ProviderKind::Openai, vec![Err(TransportError::Timeout)], ChatRequest::new(vec![Message::user("x")]));
    assert_eq!(r.unwrap_err(), LlmError::Timeout);
}

#[test]
fn rejected_tools_downgrade_to_the_text_protocol() {
    let rejected = FakeResponse::json(
        400,
        r#"{"error":{"message":"registry.ollama.ai/library/gemma3:4b does not support tools","type":"api_error","param":null,"code":null}}"#,
    );
    let text_reply = r#"{"choices":[{"index":0,"message":{"role":"assistant","content":"I'll click it.\n```json\n{\"tool\": \"click\", \"args\": {\"index\": 4}}\n```"},"finish_reason":"stop"}]}"#;
    let t = FakeTransport::new(vec![Ok(rejected), Ok(FakeResponse::json(200, text_reply))]);
    let s = FakeSleeper::default();
    let mut p = ProviderSettings::new(ProviderKind::OpenaiCompatible);
    p.model = "qwen2.5:7b".into();
    let client = LlmClient::new(p, &t, &s);
    let req = ChatRequest::new(vec![Message::system("Act."), Message::user("Click the button")]).with_tools(tools());
    let r = block_on(client.complete(&req, |_| {})).unwrap();
    assert!(client.uses_text_protocol());
    assert_eq!(r.text, "I'll click it.");
    assert_eq!(r.tool_calls[0].name, "click");
    assert_eq!(r.tool_calls[0].arguments, json!({"index": 4}));
    assert_eq!(r.stop_reason, StopReason::ToolUse);
    let usage = r.usage.unwrap();
    assert!(usage.estimated && usage.input_tokens > 0 && usage.output_tokens > 0);
    let bodies = t.bodies();
    assert!(bodies[0].get("tools").is_some());
    assert!(bodies[1].get("tools").is_none());
    assert!(bodies[1]["messages"][0]["content"].as_str().unwrap().contains("## click"));
}

#[test]
fn unparsable_text_protocol_replies_get_a_corrective_turn() {
    let reply = |content: &str| {
        let body = json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}], "usage": {"prompt_tokens": 10, "completion_tokens": 3}});
        Ok(FakeResponse::json(200, &body.to_string()))
    };
    let t = FakeTransport::new(vec![
        reply("```json\n{\"tool\": \"click\", \"args\": {\"index\": }\n```"),
        reply("```json\n{\"tool\": \"click\", \"args\": {\"index\": 2}}\n```"),
    ]);
    let s = FakeSleeper::default();
    let client = LlmClient::new(provider(ProviderKind::OpenaiCompatible), &t, &s);
    client.set_text_protocol(true);
    let r = block_on(client.complete(&ChatRequest::new(vec![Message::user("go")]).with_tools(tools()), |_| {})).unwrap();
    assert_eq!(r.tool_calls[0].arguments, json!({"index": 2}));
    assert_eq!(r.usage.unwrap().input_tokens, 20, "usage of both rounds");
    let second = &t.bodies()[1]["messages"];
    let last = second.as_array().unwrap().last().unwrap();
    assert!(last["content"].as_str().unwrap().starts_with("Your reply could not be parsed as a tool call"));

    let bad = || reply("```json\n{\"tool\": \"nope\"}\n```");
    let t = FakeTransport::new(vec![bad(), bad(), bad()]);
    let client = LlmClient::new(provider(ProviderKind::OpenaiCompatible), &t, &s);
    client.set_text_protocol(true);
    let e = block_on(client.complete(&ChatRequest::new(vec![Message::user("go")]).with_tools(tools()), |_| {})).unwrap_err();
    assert!(matches!(e, LlmError::ToolCallFormat { .. }));
    assert_eq!(t.sent.borrow().len(), 3);
}

#[test]
fn images_are_dropped_for_models_without_vision() {
    let t = FakeTransport::new(vec![Ok(FakeResponse::json(200, OPENAI_OK))]);
    let s = FakeSleeper::default();
    let mut p = ProviderSettings::new(ProviderKind::OpenaiCompatible);
    p.model = "llama3.1:8b".into();
    let client = LlmClient::new(p, &t, &s);
    let req = ChatRequest::new(vec![Message::user_with_images("What is this?", vec![Image::new("image/png", "iVBOR")])]);
    block_on(client.complete(&req, |_| {})).unwrap();
    let body = &t.bodies()[0];
    assert_eq!(body["model"], "llama3.1:8b");
    let content = body["messages"][0]["content"].as_str().unwrap();
    assert!(content.contains("image(s) omitted"), "{content}");
}

#[test]
fn a_json_answer_to_a_stream_request_is_accepted() {
    let req = ChatRequest::new(vec![Message::user("hi")]).streaming(true);
    let (r, events, ..) = run(ProviderKind::OpenaiCompatible, vec![Ok(FakeResponse::json(200, OPENAI_OK))], req);
    assert_eq!(r.unwrap().text, "Hi there");
    assert_eq!(events[0], StreamEvent::TextDelta { text: "Hi there".into() });
}

#[test]
fn gemini_stream_through_the_client() {
    let req = ChatRequest::new(vec![Message::user("Party time")]).with_tools(tools()).streaming(true);
    let (r, _, t, _) = run(ProviderKind::Gemini, vec![Ok(FakeResponse::sse(include_str!("fixtures/gemini_stream_tools.sse"), 33))], req);
    let r = r.unwrap();
    assert_eq!(r.tool_calls.len(), 2);
    assert!(!r.usage.unwrap().estimated);
    assert!(t.sent.borrow()[0].url.ends_with(":streamGenerateContent?alt=sse"));
}

#[test]
fn test_connection_reports_model_and_capabilities() {
    let t = FakeTransport::new(vec![Ok(FakeResponse::json(200, OPENAI_OK))]);
    let s = FakeSleeper::default();
    let client = LlmClient::new(provider(ProviderKind::Openai), &t, &s);
    let check: ConnectionCheck = block_on(client.test_connection()).unwrap();
    assert_eq!(check.model, "gpt-4.1-mini");
    assert_eq!(check.reply, "Hi there");
    assert!(check.capabilities.tools);
    assert_eq!(t.bodies()[0]["tools"][0]["function"]["name"], "report_ok");

    let t = FakeTransport::new(vec![Ok(FakeResponse::json(500, "{}")), Ok(FakeResponse::json(200, OPENAI_OK))]);
    let client = LlmClient::new(provider(ProviderKind::Openai), &t, &s);
    assert!(matches!(block_on(client.test_connection()), Err(LlmError::Server { .. })));
    assert_eq!(t.sent.borrow().len(), 1, "no retries when testing");

    let client = LlmClient::new(ProviderSettings::new(ProviderKind::Anthropic), &t, &s);
    assert!(matches!(block_on(client.test_connection()), Err(LlmError::NotConfigured(_))));
}
