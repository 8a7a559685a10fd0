//! The approval gate fails closed: whatever makes a read of the target or the page fail, the
//! action waits for the user with a card that says what could not be checked; a target that is
//! gone is refused, never acted on.

mod browser_fake;
mod common;
mod provider_contract;
use browser_fake::*;

use dusk_core::agent::RunOutcome;
use dusk_core::browser_agent::mode::AgentSettings;
use dusk_core::browser_agent::safety::SitePolicy;
use serde_json::json;

fn login() -> Vec<Page> {
    vec![page(
        "https://wiki.example/login",
        "Log in to the wiki.",
        vec![
            field(1, "User", "text"),
            field(2, "Password", "password"),
            button(3, "Log in", Effect::Status("in")),
            button(4, "Next page", Effect::Status("next")),
        ],
    )]
}

/// Types into the password field (index read from the listing), then reports the result.
fn type_password(req: &dusk_core::llm::ChatRequest) -> dusk_core::llm::AssistantReply {
    match results(req).last() {
        None => call("get_elements", json!({})),
        Some((tool, _)) if tool == "get_elements" => call("type", json!({ "index": index_of(req, "Password").expect("listed"), "text": "hunter2" })),
        Some((_, r)) => say(&format!("outcome: {}", r["error"].as_str().unwrap_or("ok"))),
    }
}

#[test]
fn a_password_still_asks_when_every_kind_of_target_read_fails() {
    let plain = FakeBrowser::with(login());
    go(&plain, &model(type_password), "Log in", AgentSettings::default());
    assert_eq!(plain.asked.borrow().len(), 1, "the plain form asks");
    for broken in [BrokenRead::DetailsTrap, BrokenRead::DetailsNothing, BrokenRead::DetailsNoTag, BrokenRead::DetailsWrongAnswer] {
        let browser = FakeBrowser::with(login());
        browser.broken.borrow_mut().push(broken);
        let (outcome, ..) = go(&browser, &model(type_password), "Log in", AgentSettings::default());
        let asked = browser.asked.borrow();
        assert_eq!(asked.len(), 1, "{broken:?}: asked, not let through");
        assert!(asked[0].reasons.iter().any(|r| r.starts_with("Dusk couldn't check element [2]")), "{broken:?}: {:?}", asked[0].reasons);
        assert!(browser.page(1).els[1].value.is_empty(), "{broken:?}: declined, nothing typed");
        assert_eq!(outcome, RunOutcome::Finished { text: "outcome: the user declined".into() }, "{broken:?}");
    }
}

#[test]
fn an_unreadable_target_asks_even_for_an_ordinary_click_and_on_a_trusted_site() {
    let mut trusted = AgentSettings::default();
    trusted.sites.insert("wiki.example".into(), SitePolicy::Allow);
    for settings in [AgentSettings::default(), trusted] {
        let browser = FakeBrowser::with(login());
        browser.broken.borrow_mut().push(BrokenRead::DetailsTrap);
        browser.answer.set(Some(true));
        go(&browser, &model(click_policy("Next page")), "Next", settings);
        let asked = browser.asked.borrow();
        assert_eq!(asked.len(), 1, "asked about a click it could not check");
        assert!(asked[0].reasons.iter().any(|r| r.contains("memory access out of bounds")), "{:?}", asked[0].reasons);
        assert_eq!(browser.page(1).status, "next", "approved: clicked");
    }
    let browser = FakeBrowser::with(login());
    go(&browser, &model(click_policy("Next page")), "Next", AgentSettings::default());
    assert!(browser.asked.borrow().is_empty(), "a readable ordinary click needs no card");
}

#[test]
fn an_unreadable_page_asks_before_a_click_but_a_blocked_site_stays_blocked() {
    let browser = FakeBrowser::with(login());
    browser.broken.borrow_mut().push(BrokenRead::SummaryTrap);
    go(&browser, &model(click_policy("Next page")), "Next", AgentSettings::default());
    let asked = browser.asked.borrow();
    assert_eq!(asked.len(), 1);
    assert!(asked[0].reasons.iter().any(|r| r.starts_with("Dusk couldn't read the page")), "{:?}", asked[0].reasons);
    assert_eq!(browser.page(1).status, "idle");

    let browser = FakeBrowser::with(login());
    browser.broken.borrow_mut().push(BrokenRead::DetailsTrap);
    let mut blocked = AgentSettings::default();
    blocked.sites.insert("wiki.example".into(), SitePolicy::Block);
    let m = model(|req| if results(req).is_empty() { call("click", json!({ "index": 4 })) } else { say("done") });
    go(&browser, &m, "Next", blocked);
    assert!(browser.asked.borrow().is_empty() && browser.page(1).status == "idle", "blocked: never asked, never clicked");
}

#[test]
fn a_target_that_is_gone_is_refused_with_a_stale_error_not_acted_on_or_asked_about() {
    let browser = FakeBrowser::with(login());
    let m = model(|req| if results(req).is_empty() { call("type", json!({ "index": 9, "text": "hunter2" })) } else { say("done") });
    go(&browser, &m, "Log in", AgentSettings::default());
    let reqs = m.requests.borrow();
    let r = &results(&reqs[1])[0].1;
    assert_eq!(r["success"], false);
    assert!(r["error"].as_str().unwrap().starts_with("stale: element 9 is no longer on the page"), "{r}");
    assert!(browser.asked.borrow().is_empty());
}
