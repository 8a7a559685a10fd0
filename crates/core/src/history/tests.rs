use super::*;
use crate::agent::{RunState, RunStatus};
use crate::chat::ChatEntry;

fn tab(title: &str, url: &str) -> TabInfo {
    TabInfo { tab_id: 1, title: title.into(), url: url.into() }
}

fn chat_session(question: &str) -> ChatSession {
    let mut s = ChatSession::default();
    s.entries.push(ChatEntry::User { text: question.into(), tabs: vec![tab("Alpha facts", "http://127.0.0.1:8080/pages/a.html")] });
    s.entries.push(ChatEntry::Step { text: "Screenshot".into(), screenshot: Some(format!("data:image/jpeg;base64,{}", "A".repeat(50_000))) });
    s.entries.push(ChatEntry::Assistant { text: "An answer.".into(), stopped: false, error: None });
    s.contexts.push(crate::chat::PageContext { tab: tab("Alpha facts", "http://x/"), text: "page text ".repeat(1000) });
    s
}

fn summary(id: &str, at: f64, bytes: u64) -> Summary {
    Summary { id: id.into(), kind: ItemKind::Chat, title: id.into(), page: None, created_ms: at, updated_ms: at, bytes }
}

#[test]
fn a_kept_chat_has_its_first_question_and_page_but_no_page_text_or_screenshots() {
    let item = Item::chat("c1", &chat_session("What is this?\nMore detail"), 1000.0);
    assert_eq!(item.summary.title, "What is this?");
    assert_eq!(item.summary.page.as_ref().unwrap().host(), "127.0.0.1");
    let Body::Chat { session } = &item.body else { panic!("a chat") };
    assert!(session.contexts.is_empty());
    assert!(matches!(&session.entries[1], ChatEntry::Step { screenshot: None, .. }));
    assert!(item.summary.bytes > 0 && item.summary.bytes < 2_000, "{}", item.summary.bytes);
    let back: Item = serde_json::from_str(&serde_json::to_string(&item).unwrap()).unwrap();
    assert_eq!(back, item);
}

#[test]
fn titles_skip_quotes_and_are_cut() {
    assert_eq!(title_of("> quoted selection\n\nExplain the selection."), "Explain the selection.");
    assert_eq!(title_of(&"x".repeat(200)).chars().count(), TITLE_CHARS + 1);
    assert_eq!(PageRef { title: String::new(), url: "https://u@docs.example:8080/a?b".into() }.host(), "docs.example");
    assert_eq!(PageRef { title: String::new(), url: "about:blank".into() }.host(), "about:blank");
}

#[test]
fn the_list_is_newest_first_and_a_continued_chat_moves_up_but_keeps_its_start() {
    let mut index = Index::default();
    index.put(summary("a", 1.0, 10), &LIMITS);
    index.put(summary("b", 2.0, 10), &LIMITS);
    index.put(summary("c", 3.0, 10), &LIMITS);
    assert_eq!(index.items.iter().map(|s| s.id.as_str()).collect::<Vec<_>>(), ["c", "b", "a"]);
    index.put(summary("a", 4.0, 10), &LIMITS);
    let list = HistoryList::of(&index);
    assert_eq!(list.items.iter().map(|s| s.id.as_str()).collect::<Vec<_>>(), ["a", "c", "b"]);
    assert_eq!((list.items[0].created_ms, list.items[0].updated_ms), (1.0, 4.0));
    assert!(index.remove("c") && !index.remove("c"));
    assert_eq!(index.items.len(), 2);
}

#[test]
fn past_the_bound_the_oldest_go_first_and_are_counted() {
    let limits = Limits { max_items: 3, max_bytes: 1000 };
    let mut index = Index::default();
    for (i, id) in ["a", "b", "c"].iter().enumerate() {
        assert!(index.put(summary(id, i as f64, 100), &limits).is_empty());
    }
    assert_eq!(index.put(summary("d", 10.0, 100), &limits), vec!["a".to_string()]);
    assert_eq!(index.evicted, 1);
    // By size: an 850-byte item pushes out the two oldest that no longer fit.
    assert_eq!(index.put(summary("e", 11.0, 850), &limits), vec!["b".to_string(), "c".to_string()]);
    assert_eq!(index.evicted, 3);
    assert_eq!(index.items.iter().map(|s| s.id.as_str()).collect::<Vec<_>>(), ["e", "d"]);
    // The newest always stays, even alone past the bytes.
    assert_eq!(index.put(summary("f", 12.0, 5000), &limits), vec!["d".to_string(), "e".to_string()]);
    assert_eq!(index.items.len(), 1);
}

fn state_with_steps(n: u32) -> RunState {
    let mut state = RunState::new("r1", "browser", "Find the price\nand more", vec![]);
    for i in 1..=n {
        state.transcript.push(crate::agent::transcript::Step {
            n: i,
            tool: "click".into(),
            success: i != 2,
            summary: format!("Clicked [{i}]"),
            ..Default::default()
        });
    }
    state.status = RunStatus::Finished { text: "It costs **42** euros.".into() };
    state
}

#[test]
fn a_kept_run_has_its_steps_with_thumbnails_and_stays_within_its_size() {
    let thumb = format!("data:image/jpeg;base64,{}", "B".repeat(10_000));
    let thumbs: Vec<(u32, String)> = (1..=3).map(|n| (n, thumb.clone())).collect();
    let run = KeptRun::from_state(&state_with_steps(3), &thumbs);
    assert_eq!(run.steps.len(), 3);
    assert!(run.steps.iter().all(|s| s.thumb.is_some()));
    assert_eq!(run.outcome(), Some("It costs **42** euros."));
    let item = Item::run("r1", ItemKind::Agent, Some(PageRef { title: "Shop".into(), url: "http://shop.example/".into() }), run.clone(), 5.0);
    assert_eq!(item.summary.title, "Find the price");
    let many: Vec<(u32, String)> = (1..=60).map(|n| (n, thumb.clone())).collect();
    let big = KeptRun::from_state(&state_with_steps(60), &many).within(bound::ITEM_BYTES);
    assert!(serde_json::to_string(&big).unwrap().len() <= bound::ITEM_BYTES);
    assert!(big.steps.first().unwrap().thumb.is_none() && big.steps.last().unwrap().thumb.is_some(), "the oldest thumbnails go first");
}

fn labels() -> export::Labels {
    export::Labels {
        page: "Page".into(),
        date: "Date".into(),
        you: "You".into(),
        dusk: "Dusk".into(),
        steps: "Steps".into(),
        result: "Result".into(),
        stopped: "Stopped".into(),
    }
}

#[test]
fn exports_read_as_markdown_and_round_trip_as_json() {
    let chat = Item::chat("chat-1", &chat_session("What is this?"), 1.0);
    let md = export::markdown(&chat, &labels(), "26/11/2026");
    assert!(md.starts_with("# What is this?\n\n- Page: [Alpha facts](http://127.0.0.1:8080/pages/a.html)\n- Date: 26/11/2026\n"), "{md}");
    assert!(md.contains("## You\n\nWhat is this?\n\n") && md.contains("## Dusk\n\nAn answer.\n\n") && md.contains("> Screenshot"), "{md}");
    let run = Item::run("browser-1-2", ItemKind::Agent, None, KeptRun::from_state(&state_with_steps(2), &[]), 1.0);
    let md = export::markdown(&run, &labels(), "d");
    assert!(md.contains("## Steps\n\n1. ✓ click — Clicked [1]\n2. ✗ click — Clicked [2]\n\n## Result\n\nIt costs **42** euros.\n"), "{md}");
    assert_eq!(export::file_name(&run, "md"), "dusk-agent-browser-1-2.md");
    let json = export::json(&chat);
    assert_eq!(json["format"], export::FORMAT);
    assert_eq!(crate::protocol::from_value::<Item>(json["item"].clone()).unwrap(), chat);
}

#[test]
fn a_browser_run_is_kept_as_its_kind_on_the_page_it_started_on() {
    let mut state = state_with_steps(1);
    let item = browser_run_item(&state, Some(PageRef { title: "Start".into(), url: "http://a.example/".into() }), &[], 1.0);
    assert_eq!((item.summary.kind, item.summary.page.unwrap().title), (ItemKind::Agent, "Start".to_string()));
    state.extra = serde_json::json!({"window_id": 1, "tab_id": 2, "mode": "dom", "locale": "en", "settings": {}, "url": "http://b.example/x", "title": "Later", "kind": "customize"});
    let item = browser_run_item(&state, None, &[], 1.0);
    assert_eq!(item.summary.kind, ItemKind::Customize, "{:?}", state.extra);
    assert_eq!(item.summary.page.unwrap().host(), "b.example");
}
