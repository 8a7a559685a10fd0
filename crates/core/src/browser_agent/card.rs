//! The approval card's "What will happen" line: one sentence in words, in the UI's language, for
//! every tool of the browser session (the agent's 18 and Customize's), written from the real
//! target and page the gate read plus the call's own arguments.

use super::context::grouped;
use super::prompt::is_chinese;
use super::safety::replaced::Replacement;
use super::safety::site::host;
use crate::agent::ConfirmRequest;
use serde_json::Value;

/// Longer URLs and names are cut with "…", so the sentence stays one glance.
const MAX_SHOWN: usize = 80;

/// "Click “Pay now” on shop.example", or in Chinese when `locale` is zh; a submit that replaces
/// the page's own text says so: ". This replaces the text of “Page” (4,120 characters) with nothing".
pub fn what_will_happen(request: &ConfirmRequest, locale: &str) -> String {
    let zh = is_chinese(locale);
    let sentence = action_sentence(request, zh);
    match &request.replaces {
        Some(r) => format!("{sentence}{}", replaced_sentence(r, zh)),
        None => sentence,
    }
}

/// The text the page had and what would replace it, counted.
fn replaced_sentence(r: &Replacement, zh: bool) -> String {
    let name = r.name.trim();
    let (before, now) = (grouped(r.before.into()), grouped(r.now.into()));
    match (zh, name.is_empty()) {
        (false, named) => {
            let field = if named { format!("field [{}]", r.index) } else { quoted(name) };
            let with = match r.now {
                0 => "nothing".to_string(),
                1 => "1 character".to_string(),
                _ => format!("{now} characters"),
            };
            format!(". This replaces the text of {field} ({before} characters) with {with}")
        }
        (true, named) => {
            let field = if named { format!("输入框 [{}]", r.index) } else { quoted(name) };
            let with = if r.now == 0 { "空".to_string() } else { format!(" {now} 个字符") };
            format!("。这会把{field}的文字（{before} 个字符）替换为{with}")
        }
    }
}

/// A dialog the page opened, in the page's own words: "127.0.0.1 asks: “Really delete?”".
fn dialog_sentence(request: &ConfirmRequest, site: Option<&str>, zh: bool) -> String {
    let args = &request.arguments;
    let words = quoted(args.get("message").and_then(Value::as_str).unwrap_or_default());
    let kind = args.get("kind").and_then(Value::as_str).unwrap_or_default();
    let who = site.map(str::to_string).unwrap_or_else(|| if zh { "页面".into() } else { "The page".into() });
    match (kind, zh) {
        ("alert", false) => format!("{who} says: {words}"),
        ("alert", true) => format!("{who} 提示：{words}"),
        ("prompt", false) => format!("{who} asks you to type an answer: {words}"),
        ("prompt", true) => format!("{who} 请你输入回答：{words}"),
        ("beforeunload", false) => format!("{who} asks whether to leave this page (changes may not be saved)"),
        ("beforeunload", true) => format!("{who} 询问是否离开此页面（所做的更改可能不会保存）"),
        (_, false) => format!("{who} asks: {words}"),
        (_, true) => format!("{who} 询问：{words}"),
    }
}

fn action_sentence(request: &ConfirmRequest, zh: bool) -> String {
    let args = &request.arguments;
    let site = request.page.as_deref().and_then(host);
    let named = request.target.as_ref().map(|t| t.text.trim()).filter(|t| !t.is_empty()).map(quoted);
    let index = |key: &str| args.get(key).and_then(Value::as_u64);
    // The target by its name, else by its kind and number: “Pay now”, or "the button [3]".
    let target = || match (&named, &request.target) {
        (Some(name), _) => name.clone(),
        (None, Some(t)) if zh => format!("{} [{}]", tag_zh(&t.tag), t.index),
        (None, Some(t)) => format!("the {} [{}]", tag_en(&t.tag), t.index),
        (None, None) if zh => format!("元素 [{}]", index("index").unwrap_or_default()),
        (None, None) => format!("element [{}]", index("index").unwrap_or_default()),
    };
    let text = |key: &str| args.get(key).and_then(Value::as_str).unwrap_or_default();
    let count = |n: usize| {
        if zh {
            format!("{n} 个字符")
        } else if n == 1 {
            "1 character".into()
        } else {
            format!("{n} characters")
        }
    };
    let (en, cn): (String, String) = match request.tool.as_str() {
        "click" => (format!("Click {}", target()), format!("点击{}", target())),
        "type" => {
            let n = text("text").chars().count();
            (format!("Type {} into {}", count(n), target()), format!("在{}中输入 {}", target(), count(n)))
        }
        "select" => {
            let option = [text("text"), text("value")].into_iter().find(|s| !s.is_empty()).unwrap_or_default();
            (format!("Choose {} in {}", quoted(option), target()), format!("在{}中选择{}", target(), quoted(option)))
        }
        "press_key" => {
            let keys = key_combo(args);
            match index("index") {
                Some(_) => (format!("Press {keys} in {}", target()), format!("在{}中按 {keys}", target())),
                None => (format!("Press {keys}"), format!("按 {keys}")),
            }
        }
        "hover" => (format!("Point at {}", target()), format!("将指针移到{}上", target())),
        "scroll" => {
            let (en, cn) = match text("direction") {
                "up" => ("up", "向上"),
                "left" => ("left", "向左"),
                "right" => ("right", "向右"),
                _ => ("down", "向下"),
            };
            (format!("Scroll {en}"), format!("{cn}滚动"))
        }
        "drag_drop" => {
            let to = index("to_index").unwrap_or_default();
            (format!("Drag {} onto element [{to}]", target()), format!("将{}拖到元素 [{to}]", target()))
        }
        "navigate" => {
            let url = shortened(text("url"));
            if args.get("new_tab").and_then(Value::as_bool).unwrap_or(false) {
                return if zh { format!("在新标签页中打开 {url}") } else { format!("Open {url} in a new tab") };
            }
            return if zh { format!("在此标签页中打开 {url}") } else { format!("Open {url} in this tab") };
        }
        // Not a tool: a dialog the page opened (session/dialogs.rs).
        "dialog" => return dialog_sentence(request, site.as_deref(), zh),
        // Not a tool: a load the browser stopped (session/loads.rs), the page's doing.
        "load" => {
            let url = shortened(text("url"));
            return if zh { format!("允许页面把此任务带到 {url}") } else { format!("Let the page take this run to {url}") };
        }
        "go_back" => ("Go back to the previous page".into(), "返回上一页".into()),
        "go_forward" => ("Go forward to the next page".into(), "前进到下一页".into()),
        "refresh" => ("Reload the page".into(), "重新加载页面".into()),
        "switch_tab" => {
            let to = request.detail.as_deref().and_then(host);
            return match (to, zh) {
                (Some(h), false) => format!("Switch to the tab showing {h}"),
                (Some(h), true) => format!("切换到显示 {h} 的标签页"),
                (None, false) => format!("Switch to tab {}", index("tab_id").unwrap_or_default()),
                (None, true) => format!("切换到标签页 {}", index("tab_id").unwrap_or_default()),
            };
        }
        "wait" => {
            let s = args.get("seconds").and_then(Value::as_f64).unwrap_or(1.0);
            let s = if s.fract() == 0.0 { format!("{s:.0}") } else { format!("{s:.1}") };
            return if zh {
                format!("等待 {s} 秒")
            } else if s == "1" {
                "Wait 1 second".into()
            } else {
                format!("Wait {s} seconds")
            };
        }
        "screenshot" => ("Take a screenshot".into(), "截取屏幕".into()),
        "get_elements" => ("List the page's elements".into(), "列出页面上的元素".into()),
        "read_text" => match index("index") {
            Some(i) => (format!("Read the text of element [{i}]"), format!("读取元素 [{i}] 的文字")),
            None => ("Read the page's text".into(), "读取页面上的文字".into()),
        },
        "get_element_details" => {
            let list =
                args.get("indices").and_then(Value::as_array).map(|a| a.iter().filter_map(Value::as_u64).map(|i| i.to_string()).collect::<Vec<_>>().join(", "));
            let list = list.unwrap_or_default();
            (format!("Read the details of element [{list}]"), format!("读取元素 [{list}] 的详情"))
        }
        "upload_file" => (format!("Upload a file you choose to {}", target()), format!("将你选择的文件上传到{}", target())),
        "execute_js" => {
            let lines = text("code").lines().filter(|l| !l.trim().is_empty()).count().max(1);
            let en = if lines == 1 { "Run a 1-line script".to_string() } else { format!("Run a {lines}-line script") };
            (en, format!("运行一段 {lines} 行的脚本"))
        }
        "read_site_css" => ("Read the CSS saved for this site".into(), "读取为此网站保存的 CSS".into()),
        "read_site_js" => ("Read the script saved for this site".into(), "读取为此网站保存的脚本".into()),
        "preview_css" => ("Try new CSS on the page (not saved)".into(), "在页面上试用新的 CSS（不保存）".into()),
        "save_site_css" => ("Save CSS that applies on every visit".into(), "保存每次访问都会应用的 CSS".into()),
        "save_site_js" => ("Save a script that runs on every visit".into(), "保存每次访问都会运行的脚本".into()),
        other => (format!("Run “{other}”"), format!("运行“{other}”")),
    };
    match (site, zh) {
        (Some(h), false) => format!("{en} on {h}"),
        (Some(h), true) => format!("在 {h} 上{cn}"),
        (None, false) => en,
        (None, true) => cn,
    }
}

/// “text”: the same curly quotes read right in English and Chinese.
fn quoted(text: &str) -> String {
    format!("“{}”", shortened(text))
}

fn shortened(text: &str) -> String {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.chars().count() <= MAX_SHOWN {
        return text;
    }
    format!("{}…", text.chars().take(MAX_SHOWN - 1).collect::<String>())
}

/// "Ctrl+Shift+K", from the call's key and modifiers.
fn key_combo(args: &Value) -> String {
    let held = |k: &str| args.get(k).and_then(Value::as_bool).unwrap_or(false);
    let mut parts: Vec<&str> =
        [("ctrl", "Ctrl"), ("alt", "Alt"), ("shift", "Shift"), ("meta", "Meta")].into_iter().filter(|(k, _)| held(k)).map(|(_, n)| n).collect();
    let key = args.get("key").and_then(Value::as_str).unwrap_or_default();
    parts.push(key);
    parts.join("+")
}

fn tag_en(tag: &str) -> &str {
    match tag {
        "a" => "link",
        "input" | "textarea" => "field",
        "select" => "list",
        "" => "element",
        other => other,
    }
}

fn tag_zh(tag: &str) -> &'static str {
    match tag {
        "a" => "链接",
        "button" => "按钮",
        "input" | "textarea" => "输入框",
        "select" => "下拉列表",
        "img" => "图片",
        _ => "元素",
    }
}
