//! page_summary: where the user is and what the page holds, in one cheap call.

use crate::dom::{as_html, deep_active_element, describe_el, get_attr, has_attr, is_visible, local_rect, tag, window};
use crate::walk::{elements, roots, Root, RootNode};
use dusk_core::page::elements::{classify, is_candidate, Extra, Kind, CANDIDATE_SELECTOR};
use dusk_core::protocol::page::{ElementCounts, PageSummary, Point, Size};
use web_sys::{Document, Element};

/// Appends rendered text from the top of `el` until `limit` characters, reading innerText only of
/// boxes no taller than a few viewports so a huge page costs no more than its first screens.
fn gather(el: &Element, limit: usize, viewport_h: f64, out: &mut String, depth: u32) {
    if out.len() >= limit {
        return;
    }
    let tall = el.get_bounding_client_rect().height() > viewport_h * 3.0;
    if tall && depth < 12 && el.child_element_count() > 0 {
        let mut child = el.first_element_child();
        while let Some(c) = child {
            if out.len() >= limit {
                return;
            }
            gather(&c, limit, viewport_h, out, depth + 1);
            child = c.next_element_sibling();
        }
        return;
    }
    if !is_visible(el, &local_rect(el)) {
        return;
    }
    if let Some(h) = as_html(el) {
        for line in h.inner_text().lines().map(str::trim).filter(|l| !l.is_empty()) {
            out.push_str(line);
            out.push('\n');
            if out.len() >= limit {
                return;
            }
        }
    }
}

/// Rendered text from the top of the page, cut to `limit` characters.
pub fn visible_text(doc: &Document, limit: usize, viewport_h: f64) -> (String, bool) {
    let mut raw = String::new();
    if let Some(body) = doc.body() {
        gather(&body, limit + 1, viewport_h.max(100.0), &mut raw, 0);
    }
    let raw = raw.trim_end();
    if raw.chars().count() <= limit {
        return (raw.to_string(), false);
    }
    let mut cut: String = raw.chars().take(limit).collect();
    cut.push('…');
    (cut, true)
}

/// Counts by kind from the document's own collections (links, images, forms, tags), then moves
/// elements whose role overrides their tag: a handful of reads instead of several per element.
fn count_document(doc: &Document, counts: &mut ElementCounts) {
    let tags = |name: &str| doc.get_elements_by_tag_name(name).length();
    counts.add_many(Kind::Link, doc.links().length());
    counts.add_many(Kind::Image, doc.images().length());
    counts.forms += doc.forms().length();
    counts.add_many(Kind::Select, tags("select"));
    counts.add_many(Kind::Button, tags("button") + tags("summary"));
    counts.add_many(Kind::Input, tags("textarea"));
    let inputs = doc.get_elements_by_tag_name("input");
    for i in 0..inputs.length() {
        let Some(input) = inputs.item(i) else { continue };
        let t = get_attr(&input, "type").unwrap_or_default().to_ascii_lowercase();
        if t != "hidden" {
            counts.add(classify("input", Some(&t), None, false));
        }
    }
    for el in elements(doc.query_selector_all("[contenteditable]:not([contenteditable=false]):not(input,textarea)").ok()) {
        if get_attr(&el, "role").is_none() {
            counts.add(Kind::Input);
        }
    }
    for el in elements(doc.query_selector_all("[role]").ok()) {
        let t = tag(&el);
        let (ty, role) = (get_attr(&el, "type"), get_attr(&el, "role"));
        let editable = get_attr(&el, "contenteditable").is_some_and(|v| v != "false");
        let counted = if matches!(t.as_str(), "a" | "area") && !has_attr(&el, "href") { Kind::Other } else { classify(&t, ty.as_deref(), None, false) };
        let actual = classify(&t, ty.as_deref(), role.as_deref(), editable);
        if counted != actual {
            counts.remove(counted);
            counts.add(actual);
        }
    }
}

/// Shadow roots have no collections; their few elements are classified one by one.
fn count_root(root: &Root, counts: &mut ElementCounts) {
    for el in elements(root.query_all(CANDIDATE_SELECTOR)) {
        let t = tag(&el);
        let role = get_attr(&el, "role");
        let tabindex = get_attr(&el, "tabindex");
        let editable = get_attr(&el, "contenteditable").is_some_and(|v| v != "false");
        let extra = Extra { role: role.as_deref(), tabindex: tabindex.as_deref(), onclick: has_attr(&el, "onclick"), editable };
        if is_candidate(&t, has_attr(&el, "href"), &extra) {
            counts.add(classify(&t, get_attr(&el, "type").as_deref(), role.as_deref(), editable));
        }
    }
    counts.forms += root.query_all("form").map_or(0, |l| l.length());
}

#[inline(never)]
pub fn page_summary(doc: &Document, text_limit: u32) -> Result<PageSummary, String> {
    let win = window()?;
    let mut counts = ElementCounts::default();
    for root in roots(doc) {
        match &root.node {
            RootNode::Doc(d) => count_document(d, &mut counts),
            RootNode::Shadow(_) => count_root(&root, &mut counts),
        }
    }
    let num = |v: Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue>| v.ok().and_then(|v| v.as_f64()).unwrap_or(0.0);
    let root = doc.document_element();
    let viewport = Size { width: num(win.inner_width()), height: num(win.inner_height()) };
    let (text, text_truncated) = visible_text(doc, text_limit as usize, viewport.height);
    let focused = deep_active_element(doc).filter(|el| !matches!(tag(el).as_str(), "body" | "html")).map(|el| describe_el(&el));
    Ok(PageSummary {
        url: win.location().href().unwrap_or_default(),
        title: doc.title(),
        viewport,
        scroll: Point { x: win.scroll_x().unwrap_or(0.0), y: win.scroll_y().unwrap_or(0.0) },
        page: Size { width: root.as_ref().map_or(0.0, |r| f64::from(r.scroll_width())), height: root.as_ref().map_or(0.0, |r| f64::from(r.scroll_height())) },
        counts,
        text,
        text_truncated,
        focused,
    })
}
