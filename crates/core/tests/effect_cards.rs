//! The card's sentence for effects read from the page, in English and Chinese: a submit that
//! would replace the page's own text says how much and with what, and a dialog the page opened
//! is told in the page's own words.

use dusk_core::agent::{ConfirmRequest, GateTarget};
use dusk_core::browser_agent::card::what_will_happen;
use dusk_core::browser_agent::safety::replaced::Replacement;
use serde_json::{json, Value};

fn request(tool: &str, arguments: Value, target: Option<(&str, &str)>, replaces: Option<Replacement>) -> ConfirmRequest {
    ConfirmRequest {
        run_id: "r".into(),
        step: 4,
        tool: tool.into(),
        summary: format!("{tool} summary"),
        reasons: vec![],
        digest: "d".into(),
        target: target.map(|(tag, text)| GateTarget { index: 7, tag: tag.into(), text: text.into(), ..GateTarget::default() }),
        page: Some("https://wiki.example/doku.php?id=start&do=edit".into()),
        detail: arguments.get("message").and_then(Value::as_str).map(str::to_string),
        arguments,
        replaces,
    }
}

fn replacement(name: &str, before: u32, now: u32) -> Option<Replacement> {
    Some(Replacement { index: 3, name: name.into(), before, now })
}

#[test]
fn a_submit_that_empties_the_page_text_says_how_much_goes() {
    let r = request("click", json!({"index": 7}), Some(("button", "Save")), replacement("Page text", 4120, 0));
    assert_eq!(what_will_happen(&r, "en"), "Click “Save” on wiki.example. This replaces the text of “Page text” (4,120 characters) with nothing");
    assert_eq!(what_will_happen(&r, "zh-CN"), "在 wiki.example 上点击“Save”。这会把“Page text”的文字（4,120 个字符）替换为空");
}

#[test]
fn a_submit_that_replaces_it_with_a_little_counts_both() {
    let r = request("click", json!({"index": 7}), Some(("button", "Save")), replacement("", 4120, 12));
    assert_eq!(what_will_happen(&r, "en"), "Click “Save” on wiki.example. This replaces the text of field [3] (4,120 characters) with 12 characters");
    assert_eq!(what_will_happen(&r, "zh-CN"), "在 wiki.example 上点击“Save”。这会把输入框 [3]的文字（4,120 个字符）替换为 12 个字符");
    let enter = request("press_key", json!({"key": "Enter", "index": 3}), Some(("textarea", "")), replacement("Body", 1_250_000, 1));
    assert_eq!(
        what_will_happen(&enter, "en"),
        "Press Enter in the field [7] on wiki.example. This replaces the text of “Body” (1,250,000 characters) with 1 character"
    );
}

#[test]
fn a_card_without_a_replacement_reads_as_before() {
    let r = request("click", json!({"index": 7}), Some(("button", "Save")), None);
    assert_eq!(what_will_happen(&r, "en"), "Click “Save” on wiki.example");
}

#[test]
fn each_kind_of_dialog_is_told_in_the_pages_words() {
    let cases = [
        (
            "confirm",
            "Really delete selected item(s)?",
            "wiki.example asks: “Really delete selected item(s)?”",
            "wiki.example 询问：“Really delete selected item(s)?”",
        ),
        ("alert", "Saved.", "wiki.example says: “Saved.”", "wiki.example 提示：“Saved.”"),
        ("prompt", "New name?", "wiki.example asks you to type an answer: “New name?”", "wiki.example 请你输入回答：“New name?”"),
        (
            "beforeunload",
            "",
            "wiki.example asks whether to leave this page (changes may not be saved)",
            "wiki.example 询问是否离开此页面（所做的更改可能不会保存）",
        ),
    ];
    for (kind, message, en, zh) in cases {
        let r = request("dialog", json!({"kind": kind, "message": message, "default_prompt": ""}), None, None);
        assert_eq!(what_will_happen(&r, "en"), en, "{kind}");
        assert_eq!(what_will_happen(&r, "zh-CN"), zh, "{kind}");
    }
    // Long words are cut in the sentence; the card's detail keeps them whole.
    let long = "x".repeat(300);
    let r = request("dialog", json!({"kind": "confirm", "message": long}), None, None);
    assert!(what_will_happen(&r, "en").ends_with("…”") && r.detail.as_deref() == Some(long.as_str()));
}
