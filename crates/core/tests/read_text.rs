//! read_text in core: the page's text past the summary's cut is read in chunks that say where they
//! stop, and what it read counts as read on that site for the safety rules (carried text).

mod browser_fake;
mod common;
use browser_fake::*;

use dusk_core::browser_agent::mode::AgentSettings;
use serde_json::json;

const NOTES: &str = "http://127.0.0.1:8000/notes";

fn pages() -> Vec<Page> {
    let text = format!("Notes. {} Reference: ZX81-QQ-7765.", "Filler line of the notes. ".repeat(150));
    vec![page(NOTES, &text, vec![]), page("http://localhost:9000/form", "Verify", vec![field(1, "Code", "text")])]
}

/// Reads the notes with read_text until the end (or not at all), goes to the form, types the code.
fn reader(read: bool) -> impl Fn(&dusk_core::llm::ChatRequest) -> dusk_core::llm::AssistantReply {
    move |req| {
        let done = results(req);
        let reads: Vec<String> = done.iter().filter(|(t, _)| t == "read_text").map(|(_, v)| v["data"].as_str().unwrap_or("").to_string()).collect();
        let next = reads
            .last()
            .and_then(|r| r.split("\"offset\": ").nth(1))
            .and_then(|n| n.trim_end_matches(|c: char| !c.is_ascii_digit()).split('}').next()?.parse::<u32>().ok());
        match (read, reads.len(), next) {
            (true, 0, _) => call("read_text", json!({})),
            (true, _, Some(offset)) => call("read_text", json!({ "offset": offset })),
            _ if !done.iter().any(|(t, _)| t == "navigate") => call("navigate", json!({ "url": "http://localhost:9000/form" })),
            _ if !done.iter().any(|(t, _)| t == "get_elements") => call("get_elements", json!({})),
            _ if !done.iter().any(|(t, _)| t == "type") => call("type", json!({ "index": index_of(req, "Code").unwrap(), "text": "ZX81-QQ-7765" })),
            _ => say(&reads.join("\n=====\n")),
        }
    }
}

#[test]
fn read_text_reads_past_the_summary_in_chunks_and_what_it_read_counts_as_read_there() {
    let browser = FakeBrowser::with(pages());
    browser.answers.borrow_mut().extend([true, false]);
    let m = model(reader(true));
    let (outcome, _, _) = go(&browser, &m, "Check my notes", AgentSettings::default());
    let first = first_user_text(&m.requests.borrow()[0]);
    assert!(!first.contains("ZX81"), "the summary's cut leaves the code out");
    let dusk_core::agent::RunOutcome::Finished { text } = outcome else { panic!("{outcome:?}") };
    let chunks: Vec<&str> = text.split("\n=====\n").collect();
    assert!(chunks.len() >= 2, "{text}");
    assert!(chunks[0].starts_with("Page text, characters 1–") && chunks[0].contains("; more: read_text {\"offset\": "), "{}", chunks[0]);
    assert!(chunks.last().unwrap().contains("(the end)") && chunks.last().unwrap().contains("ZX81-QQ-7765"), "{text}");
    let asked = browser.asked.borrow().clone();
    assert_eq!(asked.len(), 2, "leaving the site, then typing what was read there: {asked:?}");
    assert!(asked[1].reasons.iter().any(|r| r.contains("read on the page at 127.0.0.1")), "{:?}", asked[1].reasons);

    let browser = FakeBrowser::with(pages());
    browser.answers.borrow_mut().extend([true, false]);
    go(&browser, &model(reader(false)), "Check my notes", AgentSettings::default());
    let asked = browser.asked.borrow().clone();
    assert!(asked.iter().all(|a| !a.reasons.iter().any(|r| r.contains("read on the page at"))), "never read, never carried: {asked:?}");
}
