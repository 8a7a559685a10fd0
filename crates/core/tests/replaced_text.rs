//! A submit that would send the page's own text emptied asks first, from the lengths the page
//! reports (not the button's words, not the model's): the fake wiki's Save is an ordinary button.

mod browser_fake;
mod common;
use browser_fake::*;

use dusk_core::agent::RunOutcome;
use dusk_core::browser_agent::mode::AgentSettings;
use dusk_core::llm::{AssistantReply, ChatRequest};
use serde_json::json;

fn wiki(text_chars: usize) -> Vec<Page> {
    let area =
        El { index: 3, tag: "textarea", text: "Page text".into(), input_type: Some("text"), on_click: Effect::None, value: "w".repeat(text_chars), link: None };
    vec![page("https://wiki.example/doku.php?id=start&do=edit", "Editing page: start", vec![area, button(5, "Save", Effect::Status("saved"))])]
}

/// Types `text` into the page text (replacing it), then clicks Save, then says how it went.
fn replace_and_save(text: &str) -> impl Fn(&ChatRequest) -> AssistantReply {
    let text = text.to_string();
    move |req| match results(req).last() {
        None => call("get_elements", json!({})),
        Some((tool, _)) if tool == "get_elements" => call("type", json!({ "index": 3, "text": text })),
        Some((tool, _)) if tool == "type" => call("click", json!({ "index": 5 })),
        Some((_, r)) => say(&format!("outcome: {}", r["error"].as_str().unwrap_or("ok"))),
    }
}

#[test]
fn emptying_the_page_text_and_saving_asks_with_what_goes_and_deny_saves_nothing() {
    let browser = FakeBrowser::with(wiki(4120));
    let (outcome, _, _) = go(&browser, &model(replace_and_save("")), "Clear the page", AgentSettings::default());
    assert_eq!(outcome, RunOutcome::Finished { text: "outcome: the user declined".into() });
    assert_eq!(browser.page(1).status, "idle", "denied: Save was not clicked");
    let asked = browser.asked.borrow();
    assert_eq!(asked.len(), 1, "one card: typing asks nothing, the Save does");
    let r = asked[0].replaces.as_ref().expect("the card carries what is replaced");
    assert_eq!((r.index, r.name.as_str(), r.before, r.now), (3, "Page text", 4120, 0));
    assert!(asked[0].reasons.iter().any(|why| why == "submits “Page text” with 4120 of its 4120 characters gone"), "{:?}", asked[0].reasons);

    let browser = FakeBrowser::with(wiki(4120));
    browser.answer.set(Some(true));
    let (outcome, _, _) = go(&browser, &model(replace_and_save("")), "Clear the page", AgentSettings::default());
    assert_eq!(outcome, RunOutcome::Finished { text: "outcome: ok".into() });
    assert_eq!(browser.page(1).status, "saved");
}

#[test]
fn replacing_with_a_few_words_asks_but_a_short_field_or_an_edit_that_keeps_the_text_does_not() {
    let browser = FakeBrowser::with(wiki(4120));
    go(&browser, &model(replace_and_save("Moved to /trails.")), "Replace the page", AgentSettings::default());
    assert_eq!(browser.asked.borrow()[0].replaces.as_ref().map(|r| r.now), Some(17));

    // 150 characters cleared; 4,120 replaced by 4,000 (120 gone).
    for (chars, text) in [(150, String::new()), (4120, "x".repeat(4000))] {
        let browser = FakeBrowser::with(wiki(chars));
        let (outcome, _, _) = go(&browser, &model(replace_and_save(&text)), "Edit the page", AgentSettings::default());
        assert_eq!(outcome, RunOutcome::Finished { text: "outcome: ok".into() }, "{chars} characters");
        assert!(browser.asked.borrow().is_empty(), "{chars} characters: no card");
        assert_eq!(browser.page(1).status, "saved");
    }
}
