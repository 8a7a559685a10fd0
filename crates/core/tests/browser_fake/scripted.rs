//! Scripted models (functions of the request they get) and the runs the tests drive with them.

use super::*;
use dusk_core::agent::{AgentEvent, Model, RunOutcome, RunState, Sink};
use dusk_core::browser_agent::mode::AgentSettings;
use dusk_core::browser_agent::{begin, drive, RunKind, Start};
use dusk_core::llm::{AssistantReply, Capabilities, ChatRequest, LlmError, Message, StreamEvent, ToolCall, Usage};
use serde_json::Value;
use std::cell::RefCell;

// ---- scripted models: functions of the request ----

pub struct Scripted {
    pub policy: Box<dyn Fn(&ChatRequest) -> AssistantReply>,
    pub vision: bool,
    pub requests: RefCell<Vec<ChatRequest>>,
}

pub fn model(policy: impl Fn(&ChatRequest) -> AssistantReply + 'static) -> Scripted {
    Scripted { policy: Box::new(policy), vision: false, requests: RefCell::default() }
}

impl Model for Scripted {
    async fn complete(&self, request: &ChatRequest, _on_event: &mut dyn FnMut(&StreamEvent)) -> Result<AssistantReply, LlmError> {
        self.requests.borrow_mut().push(request.clone());
        Ok((self.policy)(request))
    }
    fn model_name(&self) -> String {
        "scripted".into()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities { tools: true, vision: self.vision }
    }
}

pub fn call(name: &str, args: Value) -> AssistantReply {
    AssistantReply { tool_calls: vec![ToolCall::new(format!("c{}", args), name, args)], usage: Some(Usage::new(100, 10)), ..Default::default() }
}

pub fn say(text: &str) -> AssistantReply {
    AssistantReply { text: text.into(), usage: Some(Usage::new(100, 10)), ..Default::default() }
}

/// Every tool result so far as (tool, parsed JSON).
pub fn results(req: &ChatRequest) -> Vec<(String, Value)> {
    req.messages
        .iter()
        .filter_map(|m| match m {
            Message::Tool(r) => {
                let json_end = r.content.rfind('}').map(|i| i + 1).unwrap_or(r.content.len());
                Some((r.name.clone(), serde_json::from_str(&r.content[..json_end]).unwrap_or(Value::Null)))
            }
            _ => None,
        })
        .collect()
}

/// The index of the element whose line in the latest listing has `text`, read from the request.
pub fn index_of(req: &ChatRequest, text: &str) -> Option<u32> {
    let lists: Vec<String> = results(req)
        .into_iter()
        .flat_map(|(_, v)| [v["data"].as_str().map(str::to_string), v["data"]["new_elements"].as_str().map(str::to_string)])
        .flatten()
        .collect();
    let needle = format!("\"{text}\"");
    lists.iter().rev().flat_map(|l| l.lines()).find(|l| l.contains(&needle)).and_then(|l| l[1..l.find(']')?].parse().ok())
}

pub fn first_user_text(req: &ChatRequest) -> String {
    req.messages.iter().find_map(|m| if let Message::User { text, .. } = m { Some(text.clone()) } else { None }).unwrap_or_default()
}

#[derive(Default)]
pub struct Events(pub RefCell<Vec<AgentEvent>>);
impl Sink for Events {
    fn emit(&self, event: AgentEvent) {
        self.0.borrow_mut().push(event);
    }
}

pub fn start(browser: &FakeBrowser, task: &str, settings: AgentSettings, vision: bool) -> RunState {
    let tabs = block_on(browser.tabs()).unwrap();
    let s = Start {
        run_id: "r1".into(),
        task: task.into(),
        window_id: 7,
        tab: tabs[0].clone(),
        tabs,
        settings,
        locale: "en-US".into(),
        vision,
        kind: Default::default(),
    };
    block_on(begin(s, browser))
}

pub fn customize(browser: &FakeBrowser, model: &Scripted, task: &str) -> (RunOutcome, RunState) {
    let tabs = block_on(browser.tabs()).unwrap();
    let s = Start {
        run_id: "c1".into(),
        task: task.into(),
        window_id: 7,
        tab: tabs[0].clone(),
        tabs,
        settings: AgentSettings::default(),
        locale: "en".into(),
        vision: false,
        kind: RunKind::Customize,
    };
    let mut state = block_on(begin(s, browser));
    let outcome = block_on(drive(&mut state, model, browser, &Events::default()));
    (outcome, state)
}

pub fn go(browser: &FakeBrowser, model: &Scripted, task: &str, settings: AgentSettings) -> (RunOutcome, RunState, Events) {
    let mut state = start(browser, task, settings, model.vision);
    let events = Events::default();
    let outcome = block_on(drive(&mut state, model, browser, &events));
    (outcome, state, events)
}

/// Lists elements, then clicks the one labelled `label`, then reports what the last result said.
pub fn click_policy(label: &'static str) -> impl Fn(&ChatRequest) -> AssistantReply {
    move |req| match results(req).last() {
        None => call("get_elements", json!({})),
        Some((tool, _)) if tool == "get_elements" => call("click", json!({ "index": index_of(req, label).expect("listed") })),
        Some((_, r)) => say(&format!("outcome: {}", r["error"].as_str().unwrap_or("ok"))),
    }
}

pub fn shop() -> Vec<Page> {
    vec![page(
        "https://shop.example/cart",
        "Your cart. Card number and CVV below.",
        vec![field(1, "Card number", "text"), button(2, "Pay now", Effect::Status("paid")), button(3, "Apply coupon", Effect::Status("coupon"))],
    )]
}
