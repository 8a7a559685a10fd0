//! The agent runtime against a scripted model that reads each request it receives: schema errors,
//! loops, budgets, Stop, screenshots, a closed tab, checkpoints and the transcript.

mod common;
mod runtime_fake;
use common::block_on;
use runtime_fake::*;

use dusk_core::agent::{run, AgentEvent, Budget, BudgetKind, EndReason, RunOutcome, RunState, RunStatus};
use dusk_core::llm::{ChatRequest, Image, Message, ToolCall};
use serde_json::json;

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
