//! The text protocol through the real client: a model without function calling, its calls parsed
//! from text, runs the same loop.

mod common;
mod runtime_fake;
use common::block_on;
use runtime_fake::*;

use dusk_core::agent::{run, Budget, Model, RunOutcome};
use dusk_core::llm::{HttpRequest, HttpResponse, LlmClient, ProviderKind, Sleeper, Transport, TransportError};
use dusk_core::settings::ProviderSettings;
use serde_json::{json, Value};
use std::cell::RefCell;

// ---- the text protocol through the real client: no native tools, calls parsed from text ----

struct Reply(Option<Vec<u8>>);
impl HttpResponse for Reply {
    fn status(&self) -> u16 {
        200
    }
    fn header(&self, name: &str) -> Option<String> {
        name.eq_ignore_ascii_case("content-type").then(|| "application/json".into())
    }
    async fn next_chunk(&mut self) -> Option<Result<Vec<u8>, TransportError>> {
        self.0.take().map(Ok)
    }
}

/// An OpenAI-compatible server whose model knows no function calling: it answers from the prompt.
struct TextOnlyServer(RefCell<Vec<Value>>);
impl Transport for &TextOnlyServer {
    type Response = Reply;
    type Prompt = dusk_core::llm::NoPrompt;
    async fn prompt(&self, _: dusk_core::llm::on_device::PromptRequest) -> Result<dusk_core::llm::NoPrompt, TransportError> {
        Err(dusk_core::llm::no_on_device_model())
    }
    async fn send(&self, r: HttpRequest) -> Result<Reply, TransportError> {
        let body: Value = serde_json::from_str(&r.body).unwrap();
        self.0.borrow_mut().push(body.clone());
        let text = body.to_string();
        let content = if body.get("tools").is_some() {
            "tools were sent natively".to_string()
        } else if !text.contains("echo") {
            "the tools were not described".to_string()
        } else if text.contains("\\\"success\\\":true") {
            "The echo worked.".to_string()
        } else {
            "I'll echo.\n```json\n{\"tool\": \"echo\", \"args\": {\"text\": \"hello\"}}\n```".to_string()
        };
        let reply = json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}], "usage": {"prompt_tokens": 10, "completion_tokens": 3}});
        Ok(Reply(Some(reply.to_string().into_bytes())))
    }
}

struct NoSleep;
impl Sleeper for NoSleep {
    async fn sleep(&self, _ms: u64) {}
}

#[test]
fn a_model_without_function_calling_runs_through_the_text_protocol() {
    let mut provider = ProviderSettings::new(ProviderKind::OpenaiCompatible);
    provider.model = "gemma3:4b".into();
    let server = TextOnlyServer(RefCell::default());
    let client = LlmClient::new(provider, &server, NoSleep);
    assert!(!Model::capabilities(&client).tools);
    let host = TestHost::default();
    let mut state = start("echo hello");
    let outcome = block_on(run(&spec(Budget::default()), &mut state, &client, &host, &Events::default()));
    assert_eq!(outcome, RunOutcome::Finished { text: "The echo worked.".into() });
    assert_eq!(*host.echoed.borrow(), ["hello"]);
    assert_eq!(server.0.borrow().len(), 2);
}
