//! The agent runtime's fakes: a scripted model that reads each request it receives, a host with
//! a clock, Stop, checkpoints, approvals and a tab that may close, and four small tools.
#![allow(dead_code)]

use super::common::block_on;
use dusk_core::agent::{
    run, AgentEvent, AgentSpec, Approval, Budget, ConfirmRequest, Gate, Host, Model, Registry, RunOutcome, RunState, Sink, StopSignal, Tool, ToolContext,
    ToolOutput,
};
use dusk_core::browser_agent::safety::{assess, Action, PageFacts, SitePolicy, TargetFacts};
use dusk_core::llm::{AssistantReply, Capabilities, ChatRequest, Image, LlmError, Message, StreamEvent, ToolCall, Usage};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;
use std::cell::{Cell, RefCell};

// ---- a scripted model: a function of the request, as a real model would be ----

pub type Policy = Box<dyn Fn(&ChatRequest, &TestHost) -> Result<AssistantReply, LlmError>>;

pub struct Scripted<'h> {
    pub policy: Policy,
    pub host: &'h TestHost,
    pub vision: bool,
    pub requests: RefCell<Vec<ChatRequest>>,
}

pub fn scripted(host: &TestHost, policy: impl Fn(&ChatRequest, &TestHost) -> Result<AssistantReply, LlmError> + 'static) -> Scripted<'_> {
    Scripted { policy: Box::new(policy), host, vision: true, requests: RefCell::default() }
}

impl Model for Scripted<'_> {
    async fn complete(&self, request: &ChatRequest, on_event: &mut dyn FnMut(&StreamEvent)) -> Result<AssistantReply, LlmError> {
        self.requests.borrow_mut().push(request.clone());
        let reply = (self.policy)(request, self.host);
        if self.host.stop.is_stopped() {
            // A real call stays in flight until the abort lands.
            std::future::pending::<()>().await;
        }
        if let Ok(r) = &reply {
            if !r.text.is_empty() {
                on_event(&StreamEvent::TextDelta { text: r.text.clone() });
            }
        }
        reply
    }
    fn model_name(&self) -> String {
        "scripted".into()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities { tools: true, vision: self.vision }
    }
}

pub fn call(name: &str, args: Value) -> Result<AssistantReply, LlmError> {
    Ok(AssistantReply { tool_calls: vec![ToolCall::new(format!("c-{name}-{args}"), name, args)], usage: Some(Usage::new(100, 10)), ..Default::default() })
}

pub fn say(text: &str) -> Result<AssistantReply, LlmError> {
    Ok(AssistantReply { text: text.into(), usage: Some(Usage::new(100, 10)), ..Default::default() })
}

/// The tool results the model has seen so far, as parsed JSON.
pub fn results(req: &ChatRequest) -> Vec<Value> {
    req.messages
        .iter()
        .filter_map(|m| if let Message::Tool(r) = m { Some(serde_json::from_str(r.content.split(" [").next().unwrap()).unwrap()) } else { None })
        .collect()
}

pub fn last_result_text(req: &ChatRequest) -> String {
    req.messages.iter().rev().find_map(|m| if let Message::Tool(r) = m { Some(r.content.clone()) } else { None }).unwrap_or_default()
}

// ---- a host with a clock, Stop, checkpoints and a tab that may close ----

#[derive(Default)]
pub struct TestHost {
    pub clock: Cell<f64>,
    pub stop: StopSignal,
    pub checkpoints: RefCell<Vec<String>>,
    pub tab_closed: Cell<bool>,
    pub echoed: RefCell<Vec<String>>,
    /// How the stand-in side panel answers a confirmation: approve, deny, or forge.
    pub answer: Cell<Answer>,
    pub asked: RefCell<Vec<ConfirmRequest>>,
    pub clicked: RefCell<Vec<u32>>,
    /// How long the stand-in user takes to answer a card (ms on the host's clock).
    pub think_ms: Cell<f64>,
}

#[derive(Default, Clone, Copy, PartialEq)]
pub enum Answer {
    #[default]
    Deny,
    Approve,
    /// An approval made for another action, as a page or a bug might send one.
    Forge,
}

impl Host for TestHost {
    fn now_ms(&self) -> f64 {
        self.clock.set(self.clock.get() + 1.0);
        1_700_000_000_000.0 + self.clock.get()
    }
    fn stop_signal(&self) -> &StopSignal {
        &self.stop
    }
    async fn save_checkpoint(&self, state: &RunState) {
        self.checkpoints.borrow_mut().push(serde_json::to_string(&state.to_json()).unwrap());
    }
    async fn check_target(&self) -> Result<(), String> {
        if self.tab_closed.get() {
            Err("the tab was closed".into())
        } else {
            Ok(())
        }
    }
    async fn approval(&self, request: &ConfirmRequest) -> Option<Approval> {
        self.asked.borrow_mut().push(request.clone());
        self.clock.set(self.clock.get() + self.think_ms.get());
        let token = Approval { run_id: request.run_id.clone(), step: request.step, digest: request.digest.clone() };
        match self.answer.get() {
            Answer::Deny => None,
            Answer::Approve => Some(token),
            Answer::Forge => Some(Approval { digest: "0000000000000000".into(), ..token }),
        }
    }
}

/// Clicks an element of the page by index. `description` is the model's own words about it.
#[derive(Deserialize, JsonSchema)]
pub struct ClickArgs {
    pub index: u32,
    // Only in the schema the model sees; the test's tool never reads it.
    #[serde(default)]
    #[allow(dead_code)]
    pub description: String,
}

/// The page's real elements, as the content script would report them.
pub const PAGE: &[(u32, &str)] = &[(1, "Next page"), (2, "Pay now"), (3, "Delete account")];

pub struct Click;
impl Tool<TestHost> for Click {
    type Args = ClickArgs;
    fn name(&self) -> &'static str {
        "click"
    }
    async fn gate(&self, a: &ClickArgs, _ctx: &ToolContext<'_, TestHost>) -> Gate {
        // From the real target's text, never from `description`.
        let text = PAGE.iter().find(|(i, _)| *i == a.index).map(|(_, t)| *t).unwrap_or("");
        let target = TargetFacts { tag: "button".into(), text: text.into(), ..Default::default() };
        let page = PageFacts { url: "https://shop.example/cart".into(), text: String::new() };
        let policy = if a.index == 3 { SitePolicy::Block } else { SitePolicy::Default };
        let verdict = assess(&Action::Click, Some(&target), &page, policy);
        Gate::new(verdict.level, verdict.reasons)
    }
    async fn execute(&self, a: ClickArgs, ctx: &ToolContext<'_, TestHost>) -> Result<ToolOutput, String> {
        ctx.host.clicked.borrow_mut().push(a.index);
        Ok(ToolOutput::new(format!("clicked {}", a.index), "Clicked"))
    }
}

#[derive(Default)]
pub struct Events(pub RefCell<Vec<AgentEvent>>);

impl Sink for Events {
    fn emit(&self, e: AgentEvent) {
        self.0.borrow_mut().push(e);
    }
}

// ---- tools ----

/// Repeats a text back.
#[derive(Deserialize, JsonSchema)]
pub struct EchoArgs {
    pub text: String,
    #[serde(default)]
    pub times: Option<u32>,
}

pub struct Echo;
impl Tool<TestHost> for Echo {
    type Args = EchoArgs;
    fn name(&self) -> &'static str {
        "echo"
    }
    fn describe(&self, a: &EchoArgs) -> String {
        format!("Echoing {}", a.text)
    }
    async fn execute(&self, a: EchoArgs, ctx: &ToolContext<'_, TestHost>) -> Result<ToolOutput, String> {
        ctx.host.echoed.borrow_mut().push(a.text.clone());
        Ok(ToolOutput::new(a.text.repeat(a.times.unwrap_or(1) as usize), "Echoed"))
    }
}

/// Takes a screenshot.
#[derive(Deserialize, JsonSchema)]
pub struct LookArgs {}

pub struct Look;
impl Tool<TestHost> for Look {
    type Args = LookArgs;
    fn name(&self) -> &'static str {
        "look"
    }
    async fn execute(&self, _: LookArgs, ctx: &ToolContext<'_, TestHost>) -> Result<ToolOutput, String> {
        Ok(ToolOutput::new("a page", "Looked").with_image(Image::new("image/jpeg", format!("IMG{}", ctx.step))))
    }
}

/// Never finishes unless stopped; stands for an RPC to a page that hangs.
#[derive(Deserialize, JsonSchema)]
pub struct HangArgs {}

pub struct Hang;
impl Tool<TestHost> for Hang {
    type Args = HangArgs;
    fn name(&self) -> &'static str {
        "hang"
    }
    async fn execute(&self, _: HangArgs, ctx: &ToolContext<'_, TestHost>) -> Result<ToolOutput, String> {
        ctx.host.stop.stop();
        std::future::pending::<()>().await;
        unreachable!()
    }
}

pub fn spec(budget: Budget) -> AgentSpec<TestHost> {
    AgentSpec { name: "test", tools: Registry::new().with(Echo).with(Look).with(Hang).with(Click), budget, max_tokens: None, superseded: &[] }
}

pub fn start(task: &str) -> RunState {
    RunState::new("r1", "test", task, vec![Message::system("You are a test agent."), Message::user(task)])
}

pub fn go(model: &Scripted, host: &TestHost, budget: Budget) -> (RunOutcome, RunState, Events) {
    let mut state = start("echo things");
    let events = Events::default();
    let outcome = block_on(run(&spec(budget), &mut state, model, host, &events));
    (outcome, state, events)
}
