//! Results say what an action changed, and repeats are judged by effect: the same click that
//! changes the page each time is progress; the same call that changes nothing is a loop.

mod browser_fake;
mod common;
use browser_fake::*;

use dusk_core::agent::RunOutcome;
use dusk_core::browser_agent::mode::AgentSettings;
use serde_json::json;

fn spinner() -> Vec<Page> {
    let mut qty = field(1, "Quantity", "number");
    qty.value = "1".into();
    vec![page("https://shop.example/item", "Choose how many", vec![qty, button(2, "Increase", Effect::Increment(1)), button(3, "Nothing", Effect::None)])]
}

#[test]
fn five_clicks_on_an_arrow_each_report_the_new_value_and_are_not_a_loop() {
    let browser = FakeBrowser::with(spinner());
    let m = model(|req| match results(req).len() {
        0 => call("get_elements", json!({})),
        1..=5 => call("click", json!({ "index": index_of(req, "Increase").unwrap() })),
        _ => say("done"),
    });
    let (outcome, _, _) = go(&browser, &m, "Set the quantity to 6", AgentSettings::default());
    assert_eq!(outcome, RunOutcome::Finished { text: "done".into() });
    let last = m.requests.borrow().last().cloned().unwrap();
    let rs = results(&last);
    for (n, (tool, r)) in rs[1..].iter().enumerate() {
        assert_eq!(tool, "click");
        let changed = r["data"]["changed"].as_array().unwrap_or_else(|| panic!("click {n}: {r}"));
        assert_eq!(changed[0], format!("[1] input type=number \"Quantity\" value \"{}\" → \"{}\"", n + 1, n + 2), "click {n}");
    }
    let texts: Vec<String> =
        last.messages.iter().filter_map(|m| if let dusk_core::llm::Message::Tool(t) = m { Some(t.content.clone()) } else { None }).collect();
    assert!(texts.iter().all(|t| !t.contains("[Dusk:")), "no repeat warning: {texts:?}");
    assert_eq!(browser.page(1).els[0].value, "6");
}

#[test]
fn the_same_click_that_changes_nothing_is_told_so_then_stopped() {
    let browser = FakeBrowser::with(spinner());
    let m = model(|req| match results(req).len() {
        0 => call("get_elements", json!({})),
        _ => call("click", json!({ "index": 3 })),
    });
    let (outcome, state, _) = go(&browser, &m, "Press nothing", AgentSettings::default());
    assert!(matches!(outcome, RunOutcome::Failed { ref message, .. } if message == "stopped: repeating itself"), "{outcome:?}");
    let last = m.requests.borrow().last().cloned().unwrap();
    let rs = results(&last);
    assert_eq!(rs[1].1["data"]["changed"], json!(["nothing on the page changed"]));
    assert!(state.step <= 6, "stopped soon after the warning: {} steps", state.step);
}

#[test]
fn a_long_run_on_a_heavy_page_keeps_only_the_newest_listing_whole() {
    let mut els: Vec<El> = (10..310).map(|i| button(i, &format!("Result row number {i} with a long enough name"), Effect::None)).collect();
    let mut qty = field(1, "Quantity", "number");
    qty.value = "1".into();
    els.extend([qty, button(2, "Increase", Effect::Increment(1))]);
    let browser = FakeBrowser::with(vec![page("https://shop.example/results", "Results", els)]);
    let m = model(|req| match results(req).len() {
        n if n >= 19 => say("done"),
        n if n % 2 == 0 => call("get_elements", json!({ "limit": 300 })),
        _ => call("click", json!({ "index": 2 })),
    });
    let settings = AgentSettings { max_turns: 30, ..AgentSettings::default() };
    let (outcome, _, _) = go(&browser, &m, "Raise the quantity while watching the results", settings);
    assert_eq!(outcome, RunOutcome::Finished { text: "done".into() });
    let reqs = m.requests.borrow();
    let tokens: Vec<u64> = reqs.iter().map(|r| dusk_core::llm::estimate::estimate_input_tokens(&r.messages, &r.tools)).collect();
    let last = reqs.last().unwrap();
    let whole =
        results(last).iter().filter(|(tool, r)| tool == "get_elements" && r["data"].as_str().is_some_and(|d| d.contains("Result row number 309"))).count();
    assert_eq!(whole, 1, "one listing whole, the rest superseded");
    assert!(tokens[19] < tokens[1] * 2, "the last turn costs less than two listings: {tokens:?}");
    println!("browser agent input tokens at turns 2, 10, 20 (300 listed elements): {}, {}, {}", tokens[1], tokens[9], tokens[19]);
}
