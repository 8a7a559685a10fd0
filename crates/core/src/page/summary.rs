//! `page_summary` from what the always-on script read (`page_facts`): counts by kind across
//! documents, frames and shadow roots, the text from the top cut to its limit, the focused element.

use super::elements::{classify, describe, is_candidate, Extra, Kind, CANDIDATE_SELECTOR};
use super::naming::{element_name, NamePart};
use crate::protocol::caps::SUMMARY_TEXT;
use crate::protocol::page::{ElementCounts, PageSummary};
use crate::protocol::page_facts::{DocumentFacts, ElementFacts, FocusedFacts, PageFacts, ShadowFacts};
use crate::protocol::ContentRequest;

/// What the worker asks the page for to answer `page_summary { text_limit }`.
pub fn facts_request(text_limit: u32) -> ContentRequest {
    ContentRequest::PageFacts { candidates: CANDIDATE_SELECTOR.into(), text_limit: text_limit.min(SUMMARY_TEXT) }
}

pub fn page_summary(facts: PageFacts, text_limit: u32) -> PageSummary {
    let mut counts = ElementCounts::default();
    facts.documents.iter().for_each(|d| count_document(d, &mut counts));
    facts.shadow_roots.iter().for_each(|s| count_shadow_root(s, &mut counts));
    let (text, text_truncated) = cut(&facts.text, text_limit.min(SUMMARY_TEXT) as usize);
    let focused = facts.focused.as_ref().filter(|f| !matches!(f.tag.as_str(), "body" | "html")).map(describe_focused);
    let hidden_text = facts.hidden_text;
    PageSummary {
        url: facts.url,
        title: facts.title,
        viewport: facts.viewport,
        scroll: facts.scroll,
        page: facts.page,
        counts,
        text,
        text_truncated,
        focused,
        hidden_text,
    }
}

fn editable(el: &ElementFacts) -> bool {
    el.contenteditable.as_deref().is_some_and(|v| v != "false")
}

/// Counts by kind from a document's collections, then moves the elements whose role overrides their tag.
fn count_document(d: &DocumentFacts, counts: &mut ElementCounts) {
    counts.add_many(Kind::Link, d.links);
    counts.add_many(Kind::Image, d.images);
    counts.forms += d.forms;
    counts.add_many(Kind::Select, d.selects);
    counts.add_many(Kind::Button, d.buttons);
    counts.add_many(Kind::Input, d.textareas + d.editables);
    for t in &d.input_types {
        let t = t.as_deref().unwrap_or_default().to_ascii_lowercase();
        if t != "hidden" {
            counts.add(classify("input", Some(&t), None, false));
        }
    }
    for el in &d.roles {
        let t = el.tag.as_str();
        let ty = el.input_type.as_deref();
        let counted = if matches!(t, "a" | "area") && !el.href { Kind::Other } else { classify(t, ty, None, false) };
        let actual = classify(t, ty, el.role.as_deref(), editable(el));
        if counted != actual {
            counts.remove(counted);
            counts.add(actual);
        }
    }
}

/// A shadow root's candidates are classified one by one.
fn count_shadow_root(s: &ShadowFacts, counts: &mut ElementCounts) {
    for el in &s.candidates {
        let extra = Extra { role: el.role.as_deref(), tabindex: el.tabindex.as_deref(), onclick: el.onclick, editable: editable(el), widget: false };
        if is_candidate(&el.tag, el.href, &extra) {
            counts.add(classify(&el.tag, el.input_type.as_deref(), el.role.as_deref(), extra.editable));
        }
    }
    counts.forms += s.forms;
}

/// The text cut to `limit` characters, with "…" and true when cut.
fn cut(raw: &str, limit: usize) -> (String, bool) {
    let raw = raw.trim_end();
    if raw.chars().count() <= limit {
        return (raw.to_string(), false);
    }
    let mut cut: String = raw.chars().take(limit).collect();
    cut.push('…');
    (cut, true)
}

fn describe_focused(f: &FocusedFacts) -> String {
    let name = element_name(
        &f.tag,
        |part| match part {
            NamePart::Type => f.input_type.clone(),
            NamePart::Value => f.value.clone(),
            NamePart::Label => f.label.clone(),
            NamePart::AriaLabel => f.aria_label.clone(),
            NamePart::Placeholder => f.placeholder.clone(),
            NamePart::Title => f.title.clone(),
            NamePart::PrevLabel => f.prev_label.clone(),
            NamePart::Name => f.name.clone(),
            NamePart::Alt => f.alt.clone(),
            NamePart::Src => f.src.clone(),
            NamePart::Shown => f.shown.clone(),
            _ => None,
        },
        40,
    );
    describe(&f.tag, &f.id, &name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::ContentResponse;

    fn el(tag: &str) -> ElementFacts {
        ElementFacts { tag: tag.into(), ..Default::default() }
    }

    #[test]
    fn counts_documents_frames_and_shadow_roots_as_the_page_layer_did() {
        let top = DocumentFacts {
            links: 3,
            images: 2,
            forms: 1,
            selects: 1,
            buttons: 4,
            textareas: 1,
            input_types: vec![None, Some("HIDDEN".into()), Some("checkbox".into()), Some("submit".into())],
            editables: 1,
            // A link without href made a button; a div made a link; a button whose role says nothing new.
            roles: vec![
                ElementFacts { role: Some("button".into()), ..el("a") },
                ElementFacts { role: Some("link".into()), ..el("div") },
                ElementFacts { role: Some("button".into()), ..el("button") },
            ],
        };
        let frame = DocumentFacts { links: 1, input_types: vec![Some("text".into())], ..Default::default() };
        let shadow = ShadowFacts {
            candidates: vec![
                el("button"),
                ElementFacts { input_type: Some("email".into()), ..el("input") },
                ElementFacts { tabindex: Some("-1".into()), ..el("span") },
                ElementFacts { href: true, ..el("a") },
                ElementFacts { contenteditable: Some("false".into()), ..el("div") },
            ],
            forms: 1,
        };
        let facts = PageFacts { documents: vec![top, frame], shadow_roots: vec![shadow], ..Default::default() };
        let c = page_summary(facts, 100).counts;
        assert_eq!(c.links, 3 + 1 + 1 + 1, "{c:?}");
        assert_eq!(c.buttons, 4 + 1 + 1 + 1, "{c:?}");
        // textarea, editable, untyped input, checkbox; the frame's text input; the shadow email input.
        assert_eq!(c.inputs, 4 + 1 + 1, "{c:?}");
        assert_eq!((c.images, c.selects, c.forms), (2, 1, 2), "{c:?}");
    }

    #[test]
    fn text_is_cut_at_the_limit_and_the_focused_element_described() {
        let focused =
            FocusedFacts { tag: "input".into(), id: "q".into(), label: Some("  ".into()), placeholder: Some("Search docs".into()), ..Default::default() };
        let facts = PageFacts { text: "Héllo wörld\nsecond line\n".into(), focused: Some(focused), ..Default::default() };
        let s = page_summary(facts.clone(), 5);
        assert_eq!((s.text.as_str(), s.text_truncated), ("Héllo…", true));
        assert_eq!(s.focused.as_deref(), Some("input#q \"Search docs\""));
        let whole = page_summary(facts, 1000);
        assert_eq!((whole.text.as_str(), whole.text_truncated), ("Héllo wörld\nsecond line", false));
        let body = PageFacts { focused: Some(FocusedFacts { tag: "body".into(), ..Default::default() }), ..Default::default() };
        assert_eq!(page_summary(body, 10).focused, None, "a page with nothing focused");
        let button = FocusedFacts { tag: "input".into(), input_type: Some("Submit".into()), ..Default::default() };
        assert_eq!(describe_focused(&button), "input \"submit\"", "a button input without value is named by its type");
    }

    #[test]
    fn the_request_and_reply_cross_as_the_always_on_script_speaks_them() {
        let request = serde_json::to_value(facts_request(1_000_000)).unwrap();
        assert_eq!(request["type"], "page_facts");
        assert_eq!(request["text_limit"], SUMMARY_TEXT);
        assert_eq!(request["candidates"], CANDIDATE_SELECTOR);
        let reply = serde_json::json!({
            "type": "page_facts", "url": "http://x/", "title": "T", "viewport": {"width": 800, "height": 600},
            "scroll": {"x": 0, "y": 10}, "page": {"width": 800, "height": 2000},
            "documents": [{"links": 1, "images": 0, "forms": 0, "selects": 0, "buttons": 0, "textareas": 0,
                "input_types": [null], "editables": 0, "roles": [{"tag": "div", "role": "button"}]}],
            "shadow_roots": [], "text": "Hi\n", "focused": null, "layer": false
        });
        let ContentResponse::PageFacts(facts) = crate::protocol::from_value(reply).unwrap() else { panic!("not page_facts") };
        assert!(!facts.layer);
        let s = page_summary(*facts, 600);
        assert_eq!((s.counts.links, s.counts.buttons, s.counts.inputs), (1, 1, 1));
        assert_eq!((s.url.as_str(), s.text.as_str(), s.scroll.y), ("http://x/", "Hi", 10.0));
    }
}
