//! What an action changed on the page, so the model sees its own progress: a field's new value, a
//! checkbox's state, an element's new text, text that appeared or went, elements that went away.
//! Compared between what the run saw before the action and after it.

use crate::protocol::page::ElementInfo;

/// Lines of each kind the result shows at most.
const MAX_LINES: usize = 6;
/// Characters of one text line or value shown.
const MAX_CHARS: usize = 80;

/// The page as the run saw it at one moment: the listed elements and the page text.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Seen {
    pub elements: Vec<ElementInfo>,
    pub text: String,
    /// `text` is what was on screen (before a scroll), not the page from its top.
    pub on_screen: bool,
}

fn short(s: &str) -> String {
    let s = s.trim();
    if s.chars().count() <= MAX_CHARS {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(MAX_CHARS - 1).collect::<String>())
    }
}

fn label(e: &ElementInfo) -> String {
    let kind = match e.input_type.as_deref() {
        Some(t) if e.tag == "input" => format!("input type={t}"),
        _ => e.tag.clone(),
    };
    if e.text.trim().is_empty() {
        format!("[{}] {kind}", e.index)
    } else {
        format!("[{}] {kind} \"{}\"", e.index, short(&e.text))
    }
}

/// Lines of `after` that `before` lacks, in page order, without repeats.
fn added<'a>(before: &str, after: &'a str) -> Vec<&'a str> {
    let old: std::collections::HashSet<&str> = before.lines().map(str::trim).collect();
    let mut out: Vec<&str> = Vec::new();
    for line in after.lines().map(str::trim).filter(|l| !l.is_empty() && !old.contains(l)) {
        if !out.contains(&line) {
            out.push(line);
        }
    }
    out
}

fn by_index(els: &[ElementInfo]) -> std::collections::HashMap<u32, &ElementInfo> {
    els.iter().map(|e| (e.index, e)).collect()
}

/// One line per change; `gone` are indices listed before that were removed or lost their box.
pub fn changes(before: &Seen, after: &Seen, gone: &[u32]) -> Vec<String> {
    // By index, so a listing of thousands is compared in one pass, not element by element.
    let (old, new) = (by_index(&before.elements), by_index(&after.elements));
    let gone: std::collections::HashSet<u32> = gone.iter().copied().collect();
    let mut out = Vec::new();
    for b in &before.elements {
        let Some(a) = new.get(&b.index) else { continue };
        if a.value != b.value {
            out.push(format!("{} value \"{}\" → \"{}\"", label(b), short(b.value.as_deref().unwrap_or("")), short(a.value.as_deref().unwrap_or(""))));
        }
        if a.checked != b.checked {
            out.push(format!("{} now {}", label(b), if a.checked == Some(true) { "checked" } else { "unchecked" }));
        }
        if a.text != b.text && !a.text.trim().is_empty() && !b.text.trim().is_empty() {
            out.push(format!("{} text → \"{}\"", label(b), short(&a.text)));
        }
    }
    out.truncate(MAX_LINES);
    // Not new to the page (those are `new_elements`), but not on screen before: a menu that opened.
    let shown: Vec<&ElementInfo> = after.elements.iter().filter(|a| !a.new && old.get(&a.index).is_none_or(|b| !b.visible)).collect();
    if !shown.is_empty() {
        let more = if shown.len() > MAX_LINES { format!(" and {} more", shown.len() - MAX_LINES) } else { String::new() };
        out.push(format!("shown now: {}{more}", shown.iter().take(MAX_LINES).map(|e| label(e)).collect::<Vec<_>>().join(", ")));
    }
    let went: Vec<String> = before.elements.iter().filter(|e| gone.contains(&e.index)).take(MAX_LINES).map(label).collect();
    if !went.is_empty() {
        out.push(format!("no longer shown: {}", went.join(", ")));
    }
    let appeared = added(&before.text, &after.text);
    for line in appeared.iter().take(MAX_LINES) {
        out.push(format!("text appeared: \"{}\"", short(line)));
    }
    let disappeared = added(&after.text, &before.text);
    for line in disappeared.iter().take(MAX_LINES) {
        out.push(format!("text went: \"{}\"", short(line)));
    }
    let more = appeared.len().saturating_sub(MAX_LINES) + disappeared.len().saturating_sub(MAX_LINES);
    if more > 0 {
        out.push(format!("… and {more} more lines of text changed"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn el(index: u32, tag: &str, text: &str, value: Option<&str>, checked: Option<bool>) -> ElementInfo {
        ElementInfo { index, tag: tag.into(), text: text.into(), value: value.map(str::to_string), checked, visible: true, ..Default::default() }
    }

    #[test]
    fn values_checks_texts_and_lines_are_named() {
        let before = Seen {
            elements: vec![
                el(1, "input", "Quantity", Some("3"), None),
                el(2, "input", "Gift wrap", None, Some(false)),
                el(3, "button", "Show more", None, None),
            ],
            text: "Your cart\nLoading prices…".into(),
            on_screen: false,
        };
        let after = Seen {
            elements: vec![
                el(1, "input", "Quantity", Some("4"), None),
                el(2, "input", "Gift wrap", None, Some(true)),
                el(3, "button", "Show less", None, None),
            ],
            text: "Your cart\nTotal: $12".into(),
            on_screen: false,
        };
        assert_eq!(
            changes(&before, &after, &[]),
            vec![
                "[1] input \"Quantity\" value \"3\" → \"4\"",
                "[2] input \"Gift wrap\" now checked",
                "[3] button \"Show more\" text → \"Show less\"",
                "text appeared: \"Total: $12\"",
                "text went: \"Loading prices…\"",
            ]
        );
    }

    #[test]
    fn elements_that_came_on_screen_are_named_with_their_index() {
        let hidden = ElementInfo { visible: false, ..el(5, "button", "Settings", None, None) };
        let before = Seen { elements: vec![el(1, "button", "Open menu", None, None), hidden], text: String::new(), on_screen: false };
        let shown = ElementInfo { visible: true, ..el(5, "button", "Settings", None, None) };
        let after = Seen {
            elements: vec![el(1, "button", "Open menu", None, None), shown, el(6, "button", "Sign out", None, None)],
            text: String::new(),
            on_screen: false,
        };
        assert_eq!(changes(&before, &after, &[]), vec!["shown now: [5] button \"Settings\", [6] button \"Sign out\""]);
    }

    #[test]
    fn nothing_changed_is_no_lines_and_removed_elements_are_named() {
        let seen = Seen { elements: vec![el(7, "div", "Cookie notice", None, None)], text: "Hello".into(), on_screen: false };
        assert!(changes(&seen, &seen, &[]).is_empty());
        let after = Seen { elements: vec![], text: "Hello".into(), on_screen: false };
        assert_eq!(changes(&seen, &after, &[7]), vec!["no longer shown: [7] div \"Cookie notice\""]);
    }
}
