//! The client loop on the on-device model: requests are shaped for the Prompt API and carried by
//! the transport's `prompt`, never as HTTP.

mod common;
use common::block_on;

use dusk_core::llm::on_device::{ContextUse, PromptRequest, PromptRole};
use dusk_core::llm::{
    ChatRequest, HttpRequest, HttpResponse, LlmClient, LlmError, Message, PromptReply, ProviderKind, Sleeper, StreamEvent, ToolSpec, Transport, TransportError,
};
use dusk_core::settings::ProviderSettings;
use serde_json::json;
use std::cell::RefCell;
use std::collections::VecDeque;

struct NoHttp;

impl HttpResponse for NoHttp {
    fn status(&self) -> u16 {
        0
    }
    fn header(&self, _: &str) -> Option<String> {
        None
    }
    async fn next_chunk(&mut self) -> Option<Result<Vec<u8>, TransportError>> {
        None
    }
}

struct Scripted {
    deltas: VecDeque<Result<String, TransportError>>,
    context: Option<ContextUse>,
}

impl PromptReply for Scripted {
    async fn next_delta(&mut self) -> Option<Result<String, TransportError>> {
        self.deltas.pop_front()
    }
    fn context(&self) -> Option<ContextUse> {
        self.context
    }
}

#[derive(Default)]
struct FakeModel {
    replies: RefCell<VecDeque<Result<Scripted, TransportError>>>,
    prompted: RefCell<Vec<PromptRequest>>,
    http: RefCell<Vec<HttpRequest>>,
}

impl FakeModel {
    fn reply(self, deltas: &[&str], used: u64) -> Self {
        let deltas = deltas.iter().map(|d| Ok(d.to_string())).collect();
        self.replies.borrow_mut().push_back(Ok(Scripted { deltas, context: Some(ContextUse { used, window: 9216 }) }));
        self
    }
    fn fail(self, e: TransportError) -> Self {
        self.replies.borrow_mut().push_back(Err(e));
        self
    }
}

impl Transport for &FakeModel {
    type Response = NoHttp;
    type Prompt = Scripted;
    async fn send(&self, request: HttpRequest) -> Result<NoHttp, TransportError> {
        self.http.borrow_mut().push(request);
        Err(TransportError::Network("no network on this device".into()))
    }
    async fn prompt(&self, request: PromptRequest) -> Result<Scripted, TransportError> {
        self.prompted.borrow_mut().push(request);
        self.replies.borrow_mut().pop_front().unwrap_or(Err(TransportError::Network("script exhausted".into())))
    }
}

struct NoSleep;

impl Sleeper for NoSleep {
    async fn sleep(&self, _: u64) {}
}

fn on_device() -> ProviderSettings {
    ProviderSettings::new(ProviderKind::OnDevice)
}

fn chat() -> ChatRequest {
    ChatRequest::new(vec![Message::system("You answer about pages."), Message::user("<page>Dark mode docs</page>\nQuestion: what is this?")]).streaming(true)
}

#[test]
fn a_streamed_answer_arrives_delta_by_delta_with_the_sessions_usage() {
    let model = FakeModel::default().reply(&["It is ", "", "about dark mode."], 700);
    let client = LlmClient::new(on_device(), &model, NoSleep);
    let mut events = vec![];
    let reply = block_on(client.complete(&chat(), |e| events.push(e.clone()))).unwrap();
    assert_eq!(reply.text, "It is about dark mode.");
    let deltas: Vec<_> = events.iter().filter_map(|e| if let StreamEvent::TextDelta { text } = e { Some(text.as_str()) } else { None }).collect();
    assert_eq!(deltas, ["It is ", "about dark mode."]);
    let usage = reply.usage.unwrap();
    assert_eq!(usage.input_tokens + usage.output_tokens, 700);
    assert!(!usage.estimated);
    assert_eq!(client.context_window(), Some(9216));
    assert!(model.http.borrow().is_empty(), "nothing went over HTTP");
    let sent = &model.prompted.borrow()[0];
    assert_eq!(sent.initial_prompts[0].role, PromptRole::System);
    assert!(sent.stream);
}

#[test]
fn tool_calls_use_the_text_protocol() {
    let model = FakeModel::default().reply(&["TOOL_CALL: click\nPARAMETERS: {\"index\": 4}"], 900);
    let client = LlmClient::new(on_device(), &model, NoSleep);
    let tools = vec![ToolSpec::new("click", "Clicks", json!({"type": "object", "properties": {"index": {"type": "integer"}}, "required": ["index"]}))];
    let reply = block_on(client.complete(&chat().with_tools(tools), |_| {})).unwrap();
    assert_eq!(reply.tool_calls.len(), 1);
    assert_eq!(reply.tool_calls[0].name, "click");
    assert_eq!(reply.tool_calls[0].arguments, json!({"index": 4}));
    let sent = &model.prompted.borrow()[0];
    let system = serde_json::to_string(&sent.initial_prompts[0]).unwrap();
    assert!(system.contains("click"), "the tools are described in the system prompt: {system}");
}

#[test]
fn a_full_context_window_and_a_stop_are_told_apart() {
    let quota = TransportError::OnDevice { name: "QuotaExceededError".into(), message: "The input is too large.".into() };
    let model = FakeModel::default().fail(quota);
    let client = LlmClient::new(on_device(), &model, NoSleep);
    let e = block_on(client.complete(&chat(), |_| {})).unwrap_err();
    assert!(matches!(e, LlmError::ContextTooLong { .. }), "{e:?}");
    assert_eq!(model.prompted.borrow().len(), 1, "an overflow is not retried");

    let mut stopped = FakeModel::default();
    stopped.replies.get_mut().push_back(Ok(Scripted { deltas: VecDeque::from([Ok("Half an ans".into()), Err(TransportError::Aborted)]), context: None }));
    let client = LlmClient::new(on_device(), &stopped, NoSleep);
    assert_eq!(block_on(client.complete(&chat(), |_| {})).unwrap_err(), LlmError::Aborted);
}

#[test]
fn a_model_that_became_unavailable_says_so_plainly() {
    let gone = TransportError::OnDevice { name: "NotAllowedError".into(), message: "The model is not available.".into() };
    let model = FakeModel::default().fail(gone);
    let client = LlmClient::new(on_device(), &model, NoSleep);
    let e = block_on(client.complete(&chat(), |_| {})).unwrap_err();
    assert!(matches!(e, LlmError::OnDeviceUnavailable(_)), "{e:?}");
    assert!(e.to_string().contains("Download in Options"), "{e}");
}

#[test]
fn unavailable_discovered_when_a_request_starts_is_a_plain_refusal() {
    let model = FakeModel::default().fail(TransportError::NotReady(dusk_core::llm::on_device::Availability::Unavailable));
    let client = LlmClient::new(on_device(), &model, NoSleep);
    let e = block_on(client.complete(&chat(), |_| {})).unwrap_err();
    assert!(e.to_string().contains("can't run it now"), "{e}");
    assert!(!e.is_retryable());
}

#[test]
fn test_connection_is_one_tiny_prompt() {
    let model = FakeModel::default().reply(&["OK"], 40);
    let client = LlmClient::new(on_device(), &model, NoSleep);
    let check = block_on(client.test_connection()).unwrap();
    assert_eq!(check.reply, "OK");
    assert_eq!(model.prompted.borrow().len(), 1);
    assert!(!check.capabilities.tools);
}
