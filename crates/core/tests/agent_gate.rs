//! What the runtime enforces whatever the model says: a sensitive action waits for an approval of
//! that exact action, a blocked one never runs, and arbitrary JSON as arguments never panics.

mod common;
mod runtime_fake;
use runtime_fake::*;

use dusk_core::agent::{Budget, RunOutcome};
use proptest::prelude::*;
use serde_json::{json, Value};
use std::cell::RefCell;

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
fn the_time_a_user_takes_on_a_card_is_the_steps_approval_ms_not_its_tool_ms_or_overhead() {
    let host = TestHost::default();
    host.answer.set(Answer::Approve);
    host.think_ms.set(4_000.0);
    let model = scripted(&host, |req, _| if results(req).is_empty() { call("click", json!({"index": 2})) } else { say("done") });
    let (_, state, _) = go(&model, &host, Budget::default());
    let step = &state.transcript[0];
    assert_eq!(host.clicked.borrow().as_slice(), [2]);
    assert!((4_000.0..4_010.0).contains(&step.approval_ms), "{step:?}");
    assert!(step.tool_ms < 10.0 && step.overhead_ms < 10.0, "{step:?}");
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
