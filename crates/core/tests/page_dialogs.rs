//! With the browser not reporting dialogs (Dusk's use of the debugger off), an action the page
//! never answers ends with a result that says a dialog may be waiting, instead of a step that
//! waits forever.

mod browser_fake;
mod common;
use browser_fake::*;
use common::block_on;

use dusk_core::browser_agent::{BrowserRun, BrowserSession};
use serde_json::json;

#[test]
fn an_unanswered_action_with_dialogs_unwatched_says_a_dialog_may_be_waiting() {
    let browser = FakeBrowser::with(shop());
    let run: BrowserRun = serde_json::from_value(json!({ "window_id": 7, "tab_id": 1, "mode": "dom", "locale": "en", "settings": {} })).unwrap();
    let session = BrowserSession::new(&browser, run);
    block_on(session.watch_dialogs());
    let held = block_on(session.or_unseen_dialog(std::future::pending::<Result<(), String>>()));
    let why = held.unwrap_err();
    assert!(why.starts_with("the page did not answer within 15 s: it may be showing a dialog (alert, confirm, prompt or leave this page)"), "{why}");
    assert!(why.contains("ask the user to answer it in the tab"), "{why}");
    let answered = block_on(session.or_unseen_dialog(async { Ok::<_, String>(3) }));
    assert_eq!(answered, Ok(3), "a page that answers is not held up");
}
