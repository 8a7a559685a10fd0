//! The agent runtime against a scripted model that reads each request it receives.

mod common;
use common::block_on;

use dusk_core::agent::{
    run, AgentEvent, AgentSpec, Approval, Budget, BudgetKind, ConfirmRequest, EndReason, Gate, Host, Model, Registry, RunOutcome, RunState, RunStatus, Sink,
    StopSignal, Tool, ToolContext, ToolOutput,
};
use dusk_core::browser_agent::safety::{assess, Action, PageFacts, SitePolicy, TargetFacts};
use dusk_core::llm::{
    AssistantReply, Capabilities, ChatRequest, HttpRequest, HttpResponse, Image, LlmClient, LlmError, Message, ProviderKind, Sleeper, StreamEvent, ToolCall,
    Transport, TransportError, Usage,
};
use dusk_core::settings::ProviderSettings;
use proptest::prelude::*;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use std::cell::{Cell, RefCell};

// ---- a scripted model: a function of the request, as a real model would be ----

type Policy = Box<dyn Fn(&ChatRequest, &TestHost) -> Result<AssistantReply, LlmError>>;

struct Scripted<'h> {
    policy: Policy,
    host: &'h TestHost,
    vision: bool,
    requests: RefCell<Vec<ChatRequest>>,
}

fn scripted(host: &TestHost, policy: impl Fn(&ChatRequest, &TestHost) -> Result<AssistantReply, LlmError> + 'static) -> Scripted<'_> {
    Scripted { policy: Box::new(policy), host, vision: true, requests: RefCell::default() }
}

impl Model for Scripted<'_> {
    async fn complete(&self, request: ChatRequest, on_event: &mut dyn FnMut(&StreamEvent)) -> Result<AssistantReply, LlmError> {
        self.requests.borrow_mut().push(request.clone());
        let reply = (self.policy)(&request, self.host);
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

fn call(name: &str, args: Value) -> Result<AssistantReply, LlmError> {
    Ok(AssistantReply { tool_calls: vec![ToolCall::new(format!("c-{name}-{args}"), name, args)], usage: Some(Usage::new(100, 10)), ..Default::default() })
}

fn say(text: &str) -> Result<AssistantReply, LlmError> {
    Ok(AssistantReply { text: text.into(), usage: Some(Usage::new(100, 10)), ..Default::default() })
}

/// The tool results the model has seen so far, as parsed JSON.
fn results(req: &ChatRequest) -> Vec<Value> {
    req.messages
        .iter()
        .filter_map(|m| if let Message::Tool(r) = m { Some(serde_json::from_str(r.content.split(" [").next().unwrap()).unwrap()) } else { None })
        .collect()
}

fn last_result_text(req: &ChatRequest) -> String {
    req.messages.iter().rev().find_map(|m| if let Message::Tool(r) = m { Some(r.content.clone()) } else { None }).unwrap_or_default()
}

// ---- a host with a clock, Stop, checkpoints and a tab that may close ----

#[derive(Default)]
struct TestHost {
    clock: Cell<f64>,
    stop: StopSignal,
    checkpoints: RefCell<Vec<String>>,
    tab_closed: Cell<bool>,
    echoed: RefCell<Vec<String>>,
    /// How the stand-in side panel answers a confirmation: approve, deny, or forge.
    answer: Cell<Answer>,
    asked: RefCell<Vec<ConfirmRequest>>,
    clicked: RefCell<Vec<u32>>,
}

#[derive(Default, Clone, Copy, PartialEq)]
enum Answer {
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
struct ClickArgs {
    index: u32,
    // Only in the schema the model sees; the test's tool never reads it.
    #[serde(default)]
    #[allow(dead_code)]
    description: String,
}

/// The page's real elements, as the content script would report them.
const PAGE: &[(u32, &str)] = &[(1, "Next page"), (2, "Pay now"), (3, "Delete account")];

struct Click;
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
struct Events(RefCell<Vec<AgentEvent>>);

impl Sink for Events {
    fn emit(&self, e: AgentEvent) {
        self.0.borrow_mut().push(e);
    }
}

// ---- tools ----

/// Repeats a text back.
#[derive(Deserialize, JsonSchema)]
struct EchoArgs {
    text: String,
    #[serde(default)]
    times: Option<u32>,
}

struct Echo;
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
struct LookArgs {}

struct Look;
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
struct HangArgs {}

struct Hang;
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

fn spec(budget: Budget) -> AgentSpec<TestHost> {
    AgentSpec { name: "test", tools: Registry::new().with(Echo).with(Look).with(Hang).with(Click), budget, max_tokens: None, superseded: &[] }
}

fn start(task: &str) -> RunState {
    RunState::new("r1", "test", task, vec![Message::system("You are a test agent."), Message::user(task)])
}

fn go(model: &Scripted, host: &TestHost, budget: Budget) -> (RunOutcome, RunState, Events) {
    let mut state = start("echo things");
    let events = Events::default();
    let outcome = block_on(run(&spec(budget), &mut state, model, host, &events));
    (outcome, state, events)
}

// ---- tests ----

#[test]
fn the_registry_builds_the_provider_tool_list_from_the_types() {
    let specs = spec(Budget::default()).tools.specs();
    assert_eq!(specs.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["echo", "look", "hang", "click"]);
    assert_eq!(specs[0].description, "Repeats a text back.");
    assert_eq!(specs[0].parameters["required"], json!(["text"]));
}

#[test]
fn a_schema_error_goes_back_naming_the_field_and_the_model_corrects_it() {
    let host = TestHost::default();
    let model = scripted(&host, |req, _| match results(req).as_slice() {
        [] => call("echo", json!({"text": 5})),
        [r] if !r["success"].as_bool().unwrap() => call("echo", json!({"text": "five"})),
        _ => say("Echoed five."),
    });
    let (outcome, state, events) = go(&model, &host, Budget::default());
    assert_eq!(outcome, RunOutcome::Finished { text: "Echoed five.".into() });
    let first = &results(&model.requests.borrow()[1])[0];
    assert_eq!(first["tool"], "echo");
    let err = first["error"].as_str().unwrap();
    assert!(err.contains("field `text`") && err.contains("expected a string"), "{err}");
    assert_eq!(*host.echoed.borrow(), ["five"], "the malformed call never ran");
    assert_eq!(state.transcript.len(), 2);
    assert!(!state.transcript[0].success && state.transcript[1].success);
    let kinds: Vec<&str> = events
        .0
        .borrow()
        .iter()
        .map(|e| match e {
            AgentEvent::Started { .. } => "started",
            AgentEvent::ModelTurn { .. } => "turn",
            AgentEvent::ToolStarted { .. } => "tool_started",
            AgentEvent::ToolFinished { .. } => "tool_finished",
            AgentEvent::Usage { .. } => "usage",
            AgentEvent::TextDelta { .. } => "delta",
            AgentEvent::Finished { .. } => "finished",
            _ => "other",
        })
        .collect();
    assert_eq!(kinds[..6], ["started", "turn", "usage", "tool_started", "tool_finished", "turn"]);
    assert_eq!(kinds.last(), Some(&"finished"));
}

#[test]
fn an_unknown_tool_is_an_error_result_listing_the_tools() {
    let host = TestHost::default();
    let model = scripted(&host, |req, _| if results(req).is_empty() { call("fly", json!({})) } else { say(&last_result_text(req)) });
    let (outcome, ..) = go(&model, &host, Budget::default());
    let RunOutcome::Finished { text } = outcome else { panic!("{outcome:?}") };
    assert!(text.contains("unknown tool `fly`") && text.contains("echo, look, hang, click"), "{text}");
}

#[test]
fn three_malformed_calls_in_a_row_end_the_run() {
    let host = TestHost::default();
    let model = scripted(&host, |_, _| call("echo", json!({"txt": "typo"})));
    let (outcome, state, events) = go(&model, &host, Budget::default());
    let RunOutcome::Failed { reason: EndReason::Malformed(_), message } = &outcome else { panic!("{outcome:?}") };
    assert!(message.contains("3 malformed tool calls in a row") && message.contains("missing field `text`"), "{message}");
    assert_eq!(model.requests.borrow().len(), 3);
    assert!(matches!(events.0.borrow().last(), Some(AgentEvent::Failed { .. })));
    assert!(matches!(state.status, RunStatus::Failed { .. }));
}

#[test]
fn the_same_call_three_times_is_corrected_then_stopped() {
    let host = TestHost::default();
    let model = scripted(&host, |_, _| call("echo", json!({"text": "again"})));
    let (outcome, ..) = go(&model, &host, Budget::default());
    assert_eq!(outcome, RunOutcome::Failed { reason: EndReason::Repeating, message: "stopped: repeating itself".into() });
    let reqs = model.requests.borrow();
    assert_eq!(reqs.len(), 4, "warned after the third call, stopped at the fourth");
    assert!(last_result_text(&reqs[3]).contains("same arguments 3 times"));
    assert!(!last_result_text(&reqs[2]).contains("[Dusk"));
}

#[test]
fn an_a_b_a_b_cycle_is_corrected_then_stopped_and_a_model_that_listens_goes_on() {
    let host = TestHost::default();
    let model = scripted(&host, |req, _| if results(req).len().is_multiple_of(2) { call("echo", json!({"text": "a"})) } else { call("look", json!({})) });
    let (outcome, ..) = go(&model, &host, Budget::default());
    assert_eq!(outcome, RunOutcome::Failed { reason: EndReason::Repeating, message: "stopped: repeating itself".into() });
    assert!(last_result_text(&model.requests.borrow()[4]).contains("A, B, A, B"));

    let host = TestHost::default();
    let model = scripted(&host, |req, _| {
        let n = results(req).len();
        if last_result_text(req).contains("[Dusk") {
            return say("I'll stop here.");
        }
        if n.is_multiple_of(2) {
            call("echo", json!({"text": "a"}))
        } else {
            call("look", json!({}))
        }
    });
    let (outcome, ..) = go(&model, &host, Budget::default());
    assert_eq!(outcome, RunOutcome::Finished { text: "I'll stop here.".into() });
}

#[test]
fn each_budget_ends_the_run_saying_which() {
    let varied = |req: &ChatRequest, _: &TestHost| call("echo", json!({"text": format!("n{}", results(req).len())}));

    let host = TestHost::default();
    let model = scripted(&host, varied);
    let (outcome, state, _) = go(&model, &host, Budget { max_turns: 3, ..Budget::default() });
    assert!(
        matches!(&outcome, RunOutcome::Failed { reason: EndReason::Budget(BudgetKind::Turns), message } if message.contains("3 model turns")),
        "{outcome:?}"
    );
    assert_eq!(state.used.turns, 3);

    let host = TestHost::default();
    let model = scripted(&host, varied);
    let (outcome, state, _) = go(&model, &host, Budget { max_input_tokens: 250, ..Budget::default() });
    assert!(
        matches!(&outcome, RunOutcome::Failed { reason: EndReason::Budget(BudgetKind::InputTokens), message } if message.contains("input-token budget")),
        "{outcome:?}"
    );
    assert_eq!(state.used.input_tokens, 300);

    let host = TestHost::default();
    let model = scripted(&host, move |req, host| {
        host.clock.set(host.clock.get() + 40_000.0);
        varied(req, host)
    });
    let (outcome, state, _) = go(&model, &host, Budget { max_wall_ms: 100_000, ..Budget::default() });
    assert!(
        matches!(&outcome, RunOutcome::Failed { reason: EndReason::Budget(BudgetKind::WallClock), message } if message.contains("ran out of time")),
        "{outcome:?}"
    );
    assert_eq!(state.used.turns, 3);
}

#[test]
fn stop_during_a_model_call_ends_the_run_and_keeps_what_was_done() {
    let host = TestHost::default();
    let model = scripted(&host, |req, host| {
        if results(req).is_empty() {
            call("echo", json!({"text": "done before stop"}))
        } else {
            host.stop.stop();
            say("never seen")
        }
    });
    let (outcome, state, events) = go(&model, &host, Budget::default());
    assert_eq!(outcome, RunOutcome::Stopped);
    assert_eq!(*host.echoed.borrow(), ["done before stop"]);
    assert_eq!(state.transcript.len(), 1, "the transcript is kept");
    assert!(matches!(events.0.borrow().last(), Some(AgentEvent::Stopped)));
    let saved = RunState::from_json(serde_json::from_str(host.checkpoints.borrow().last().unwrap()).unwrap()).unwrap();
    assert_eq!(saved.status, RunStatus::Stopped);
    assert_eq!(saved.transcript.len(), 1);
}

#[test]
fn stop_during_a_tool_that_hangs_ends_the_run() {
    let host = TestHost::default();
    let model = scripted(&host, |_, _| call("hang", json!({})));
    let (outcome, state, _) = go(&model, &host, Budget::default());
    assert_eq!(outcome, RunOutcome::Stopped);
    let Some(Message::Tool(r)) = state.messages.last() else { panic!() };
    assert!(r.is_error && r.content.contains("stopped by the user"), "every call keeps a result: {}", r.content);
}

#[test]
fn only_the_newest_screenshot_is_sent_as_an_image() {
    let host = TestHost::default();
    let model = scripted(&host, |req, _| if results(req).len() < 3 { call("look", json!({"n": results(req).len()})) } else { say("Seen.") });
    let (outcome, state, events) = go(&model, &host, Budget::default());
    assert_eq!(outcome, RunOutcome::Finished { text: "Seen.".into() });
    let last = model.requests.borrow().last().unwrap().clone();
    let images: Vec<&Image> = last.messages.iter().filter_map(|m| if let Message::Tool(r) = m { r.image.as_ref() } else { None }).collect();
    assert_eq!(images, [&Image::new("image/jpeg", "IMG3")]);
    let texts: Vec<String> = last.messages.iter().filter_map(|m| if let Message::Tool(r) = m { Some(r.content.clone()) } else { None }).collect();
    assert!(texts[0].ends_with("[screenshot from step 1]") && texts[1].ends_with("[screenshot from step 2]"), "{texts:?}");
    assert_eq!(events.0.borrow().iter().filter(|e| matches!(e, AgentEvent::Screenshot { .. })).count(), 3);
    assert!(!state.to_json().to_string().contains("IMG3"), "checkpoints hold placeholders only");
}

#[test]
fn without_vision_screenshots_answer_in_text_and_say_so() {
    let host = TestHost::default();
    let mut model = scripted(&host, |req, _| if results(req).is_empty() { call("look", json!({})) } else { say("ok") });
    model.vision = false;
    go(&model, &host, Budget::default());
    let reqs = model.requests.borrow();
    let Some(Message::Tool(r)) = reqs[1].messages.last() else { panic!() };
    assert!(r.image.is_none() && r.content.contains("cannot view images"), "{}", r.content);
}

#[test]
fn a_closed_tab_interrupts_the_run() {
    let host = TestHost::default();
    let model = scripted(&host, |_, host| {
        host.tab_closed.set(true);
        call("echo", json!({"text": "x"}))
    });
    let (outcome, ..) = go(&model, &host, Budget::default());
    assert!(matches!(&outcome, RunOutcome::Failed { message, .. } if message == "interrupted: the tab was closed"), "{outcome:?}");
}

#[test]
fn a_checkpoint_taken_mid_run_resumes_and_finishes_the_same_way() {
    let policy = |req: &ChatRequest, _: &TestHost| match results(req).len() {
        n if n < 4 => call("echo", json!({"text": format!("step{n}")})),
        _ => say(&format!("Echoed {} times.", results(req).len())),
    };
    let host = TestHost::default();
    let model = scripted(&host, policy);
    let (whole, whole_state, _) = go(&model, &host, Budget::default());
    assert_eq!(whole, RunOutcome::Finished { text: "Echoed 4 times.".into() });

    // The worker died after the second tool result: a new one restores the checkpoint and goes on.
    let saved = host.checkpoints.borrow()[1].clone();
    let mut restored = RunState::from_json(serde_json::from_str(&saved).unwrap()).unwrap();
    assert_eq!((restored.step, restored.is_running()), (2, true));
    let host2 = TestHost::default();
    let model2 = scripted(&host2, policy);
    let events = Events::default();
    let outcome = block_on(run(&spec(Budget::default()), &mut restored, &model2, &host2, &events));
    assert_eq!(outcome, whole);
    assert_eq!(*host2.echoed.borrow(), ["step2", "step3"], "done steps are not redone");
    assert_eq!(restored.transcript.iter().map(|s| &s.arguments).collect::<Vec<_>>(), whole_state.transcript.iter().map(|s| &s.arguments).collect::<Vec<_>>());
    assert_eq!(restored.used.turns, whole_state.used.turns);
    assert!(matches!(events.0.borrow()[0], AgentEvent::Started { resumed: true, .. }));
    assert_eq!(restored.replay().len(), 2 + 2 * 4 + 1, "started, 4 steps, usage, finished");
}

#[test]
fn a_checkpoint_with_unanswered_calls_runs_the_rest_first() {
    let mut state = start("two calls");
    let calls = vec![ToolCall::new("a", "echo", json!({"text": "one"})), ToolCall::new("b", "echo", json!({"text": "two"}))];
    state.messages.push(Message::Assistant { text: String::new(), tool_calls: calls.clone() });
    state.messages.push(Message::tool_result(&calls[0], "{\"success\":true}"));
    let host = TestHost::default();
    let model = scripted(&host, |_, _| say("both done"));
    let outcome = block_on(run(&spec(Budget::default()), &mut state, &model, &host, &Events::default()));
    assert_eq!(outcome, RunOutcome::Finished { text: "both done".into() });
    assert_eq!(*host.echoed.borrow(), ["two"]);
}

#[test]
fn the_transcript_exports_without_keys() {
    let host = TestHost::default();
    let model = scripted(&host, |req, _| if results(req).is_empty() { call("echo", json!({"text": "x"})) } else { say("ok") });
    let (_, state, _) = go(&model, &host, Budget::default());
    let export = state.export();
    assert_eq!(export["steps"][0]["tool"], "echo");
    assert_eq!(export["steps"][0]["input_tokens"], 100);
    assert!(export["steps"][0]["tool_ms"].as_f64().unwrap() >= 0.0);
    assert!(!export.to_string().to_lowercase().contains("api_key"));
}

// ---- confirmations, enforced by the runtime ----

fn click_once(answer: Answer, index: u32, description: &str) -> (TestHost, String) {
    let host = TestHost::default();
    host.answer.set(answer);
    let description = description.to_string();
    let model =
        scripted(
            &host,
            move |req, _| {
                if results(req).is_empty() {
                    call("click", json!({"index": index, "description": description}))
                } else {
                    say(&last_result_text(req))
                }
            },
        );
    let (outcome, ..) = go(&model, &host, Budget::default());
    let RunOutcome::Finished { text } = outcome else { panic!("{outcome:?}") };
    drop(model);
    (host, text)
}

#[test]
fn a_sensitive_click_waits_for_an_approval_of_that_exact_action() {
    let (host, text) = click_once(Answer::Approve, 2, "");
    assert_eq!(*host.clicked.borrow(), [2]);
    assert!(text.contains("\"success\":true"), "{text}");
    let asked = host.asked.borrow();
    assert_eq!((asked.len(), asked[0].tool.as_str(), asked[0].step), (1, "click", 1));
    assert!(asked[0].reasons.iter().any(|r| r.contains("Pay now")), "{:?}", asked[0].reasons);

    let (host, text) = click_once(Answer::Deny, 2, "");
    assert!(host.clicked.borrow().is_empty(), "denied: never clicked");
    assert!(text.contains("the user declined"), "{text}");

    let (host, text) = click_once(Answer::Forge, 2, "");
    assert!(host.clicked.borrow().is_empty(), "a forged approval is refused");
    assert!(text.contains("not issued for this action"), "{text}");
}

#[test]
fn the_models_words_about_a_target_never_lower_its_level_and_blocked_never_runs() {
    let (host, _) = click_once(Answer::Deny, 2, "a harmless next-page link, no need to ask");
    assert_eq!(host.asked.borrow().len(), 1, "still asked: the level comes from the real target");
    assert!(host.clicked.borrow().is_empty());

    let (host, text) = click_once(Answer::Approve, 3, "");
    assert!(host.clicked.borrow().is_empty() && host.asked.borrow().is_empty(), "blocked: not even asked");
    assert!(text.contains("blocked") && text.contains("never done"), "{text}");

    let (host, _) = click_once(Answer::Deny, 1, "");
    assert_eq!(*host.clicked.borrow(), [1], "an ordinary click needs no approval");
}

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

// ---- arbitrary JSON as arguments never panics ----

fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(Value::from),
        ".{0,12}".prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::btree_map("[a-z]{1,5}", inner, 0..4).prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #[test]
    fn arbitrary_arguments_never_panic(args in any_json(), tool in prop_oneof![Just("echo"), Just("look"), Just("nope")]) {
        let host = TestHost::default();
        let first = RefCell::new(Some((tool, args)));
        let model = scripted(&host, move |_, _| match first.borrow_mut().take() {
            Some((t, a)) => call(t, a),
            None => say("end"),
        });
        let (outcome, state, _) = go(&model, &host, Budget::default());
        prop_assert_eq!(outcome, RunOutcome::Finished { text: "end".into() });
        prop_assert_eq!(state.transcript.len(), 1);
    }
}
