//! The approval card's "What will happen" sentence, for every tool of the browser session, in
//! English and Chinese: words a user reads at a glance, never "click — Clicking element 3".

use dusk_core::agent::{ConfirmRequest, GateTarget};
use dusk_core::browser_agent::card::what_will_happen;
use serde_json::{json, Value};

fn request(tool: &str, arguments: Value, target: Option<(&str, &str)>, detail: Option<&str>) -> ConfirmRequest {
    ConfirmRequest {
        run_id: "r".into(),
        step: 3,
        tool: tool.into(),
        summary: format!("{tool} summary"),
        reasons: vec![],
        digest: "d".into(),
        target: target.map(|(tag, text)| GateTarget { index: 3, tag: tag.into(), text: text.into(), ..GateTarget::default() }),
        page: Some("https://shop.example/checkout?step=2".into()),
        detail: detail.map(str::to_string),
        arguments,
        replaces: None,
    }
}

/// (tool, arguments, target (tag, text), detail, English, Chinese): one row per tool.
type Case = (&'static str, Value, Option<(&'static str, &'static str)>, Option<&'static str>, &'static str, &'static str);

fn cases() -> Vec<Case> {
    vec![
        ("click", json!({"index": 3}), Some(("button", "Pay now")), None, "Click “Pay now” on shop.example", "在 shop.example 上点击“Pay now”"),
        (
            "type",
            json!({"index": 3, "text": "4111 1111 1111 11"}),
            Some(("input", "Card number")),
            None,
            "Type 17 characters into “Card number” on shop.example",
            "在 shop.example 上在“Card number”中输入 17 个字符",
        ),
        (
            "select",
            json!({"index": 3, "text": "Express"}),
            Some(("select", "Delivery")),
            None,
            "Choose “Express” in “Delivery” on shop.example",
            "在 shop.example 上在“Delivery”中选择“Express”",
        ),
        (
            "press_key",
            json!({"key": "Enter", "index": 3}),
            Some(("input", "Search")),
            None,
            "Press Enter in “Search” on shop.example",
            "在 shop.example 上在“Search”中按 Enter",
        ),
        ("hover", json!({"index": 3}), Some(("a", "Menu")), None, "Point at “Menu” on shop.example", "在 shop.example 上将指针移到“Menu”上"),
        ("scroll", json!({"direction": "up"}), None, None, "Scroll up on shop.example", "在 shop.example 上向上滚动"),
        (
            "drag_drop",
            json!({"from_index": 3, "to_index": 9}),
            Some(("li", "Card A")),
            None,
            "Drag “Card A” onto element [9] on shop.example",
            "在 shop.example 上将“Card A”拖到元素 [9]",
        ),
        (
            "navigate",
            json!({"url": "https://pay.example/go", "new_tab": true}),
            None,
            Some("https://pay.example/go"),
            "Open https://pay.example/go in a new tab",
            "在新标签页中打开 https://pay.example/go",
        ),
        (
            "load",
            json!({"url": "http://evil.example/verify?email=jane"}),
            None,
            Some("http://evil.example/verify?email=jane"),
            "Let the page take this run to http://evil.example/verify?email=jane",
            "允许页面把此任务带到 http://evil.example/verify?email=jane",
        ),
        ("read_text", json!({}), None, None, "Read the page's text on shop.example", "在 shop.example 上读取页面上的文字"),
        ("go_back", json!({}), None, None, "Go back to the previous page on shop.example", "在 shop.example 上返回上一页"),
        ("go_forward", json!({}), None, None, "Go forward to the next page on shop.example", "在 shop.example 上前进到下一页"),
        ("refresh", json!({}), None, None, "Reload the page on shop.example", "在 shop.example 上重新加载页面"),
        (
            "switch_tab",
            json!({"tab_id": 12}),
            None,
            Some("https://mail.example/inbox"),
            "Switch to the tab showing mail.example",
            "切换到显示 mail.example 的标签页",
        ),
        ("wait", json!({"seconds": 2}), None, None, "Wait 2 seconds", "等待 2 秒"),
        ("screenshot", json!({}), None, None, "Take a screenshot on shop.example", "在 shop.example 上截取屏幕"),
        ("get_elements", json!({}), None, None, "List the page's elements on shop.example", "在 shop.example 上列出页面上的元素"),
        (
            "get_element_details",
            json!({"indices": [3, 4]}),
            None,
            None,
            "Read the details of element [3, 4] on shop.example",
            "在 shop.example 上读取元素 [3, 4] 的详情",
        ),
        (
            "upload_file",
            json!({"index": 3}),
            Some(("input", "Receipt")),
            None,
            "Upload a file you choose to “Receipt” on shop.example",
            "在 shop.example 上将你选择的文件上传到“Receipt”",
        ),
        (
            "execute_js",
            json!({"code": "let a = 1;\n\nalert(a);"}),
            None,
            Some("let a = 1;"),
            "Run a 2-line script on shop.example",
            "在 shop.example 上运行一段 2 行的脚本",
        ),
        ("read_site_css", json!({}), None, None, "Read the CSS saved for this site on shop.example", "在 shop.example 上读取为此网站保存的 CSS"),
        ("read_site_js", json!({}), None, None, "Read the script saved for this site on shop.example", "在 shop.example 上读取为此网站保存的脚本"),
        (
            "preview_css",
            json!({"css": "a{}"}),
            None,
            None,
            "Try new CSS on the page (not saved) on shop.example",
            "在 shop.example 上在页面上试用新的 CSS（不保存）",
        ),
        (
            "save_site_css",
            json!({"css": "a{}", "note": "x"}),
            None,
            Some("a{}"),
            "Save CSS that applies on every visit on shop.example",
            "在 shop.example 上保存每次访问都会应用的 CSS",
        ),
        (
            "save_site_js",
            json!({"js": "1", "note": "x"}),
            None,
            Some("1"),
            "Save a script that runs on every visit on shop.example",
            "在 shop.example 上保存每次访问都会运行的脚本",
        ),
    ]
}

#[test]
fn every_tool_has_a_sentence_in_english_and_chinese() {
    for (tool, args, target, detail, en, zh) in cases() {
        let r = request(tool, args, target, detail);
        assert_eq!(what_will_happen(&r, "en-US"), en, "{tool} in English");
        assert_eq!(what_will_happen(&r, "zh-CN"), zh, "{tool} in Chinese");
        for sentence in [what_will_happen(&r, "en"), what_will_happen(&r, "zh_CN")] {
            assert!(!sentence.contains(&r.summary) && !sentence.contains(" — "), "{tool}: words, not the step label: {sentence}");
            assert!(!sentence.contains('{') && !sentence.contains('$'), "{tool}: no unfilled placeholder: {sentence}");
        }
    }
}

#[test]
fn every_tool_of_both_agents_is_covered() {
    let covered: Vec<&str> = cases().iter().map(|c| c.0).collect();
    let names = [
        "get_elements",
        "get_element_details",
        "read_text",
        "click",
        "type",
        "select",
        "press_key",
        "hover",
        "scroll",
        "drag_drop",
        "navigate",
        "go_back",
        "go_forward",
        "refresh",
        "switch_tab",
        "wait",
        "screenshot",
        "upload_file",
        "execute_js",
    ];
    let customize = ["read_site_css", "read_site_js", "preview_css", "save_site_css", "save_site_js"];
    for name in names.iter().chain(customize.iter()) {
        assert!(covered.contains(name), "{name} has no sentence case");
        let sentence = what_will_happen(&request(name, json!({}), None, None), "en");
        assert!(!sentence.starts_with("Run “"), "{name} falls back to the generic sentence: {sentence}");
    }
}

#[test]
fn a_target_without_a_name_is_told_by_kind_and_a_long_url_is_cut() {
    let r = request("click", json!({"index": 3}), Some(("button", "")), None);
    assert_eq!(what_will_happen(&r, "en"), "Click the button [3] on shop.example");
    assert_eq!(what_will_happen(&r, "zh-CN"), "在 shop.example 上点击按钮 [3]");
    let long = format!("https://shop.example/{}", "a".repeat(200));
    let r = request("navigate", json!({"url": long}), None, None);
    let sentence = what_will_happen(&r, "en");
    assert!(sentence.starts_with("Open https://shop.example/aaa") && sentence.contains("…") && sentence.ends_with(" in this tab"), "{sentence}");
    assert!(sentence.chars().count() < 110);
    let one = request("type", json!({"index": 3, "text": "x"}), Some(("input", "Code")), None);
    assert_eq!(what_will_happen(&one, "en"), "Type 1 character into “Code” on shop.example");
}
