//! page_summary: where the user is and what the page holds, in one cheap call.

use super::elements::kind_of;
use crate::dom::{deep_active_element, describe_el, tag, window};
use crate::walk::collect;
use dusk_core::page::elements::CANDIDATE_SELECTOR;
use dusk_core::protocol::page::{ElementCounts, PageSummary, Point, Size};
use web_sys::Document;

/// Rendered text with blank lines dropped, cut to `limit` characters.
pub fn visible_text(doc: &Document, limit: usize) -> (String, bool) {
    let raw = doc.body().map(|b| b.inner_text()).unwrap_or_default();
    let mut out = String::new();
    let mut count = 0;
    for line in raw.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let len = line.chars().count() + 1;
        if count + len > limit {
            let room = limit.saturating_sub(count);
            out.extend(line.chars().take(room));
            out.push('…');
            return (out, true);
        }
        out.push_str(line);
        out.push('\n');
        count += len;
    }
    (out.trim_end().to_string(), false)
}

pub fn page_summary(doc: &Document, text_limit: u32) -> Result<PageSummary, String> {
    let win = window()?;
    let mut counts = ElementCounts::default();
    for f in collect(doc, &format!("{CANDIDATE_SELECTOR},form")) {
        let t = tag(&f.el);
        if t == "form" {
            counts.forms += 1;
        } else {
            counts.add(kind_of(&f.el, &t));
        }
    }
    let num = |v: Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue>| v.ok().and_then(|v| v.as_f64()).unwrap_or(0.0);
    let root = doc.document_element();
    let (text, text_truncated) = visible_text(doc, text_limit as usize);
    let focused = deep_active_element(doc).filter(|el| !matches!(tag(el).as_str(), "body" | "html")).map(|el| describe_el(&el));
    Ok(PageSummary {
        url: win.location().href().unwrap_or_default(),
        title: doc.title(),
        viewport: Size { width: num(win.inner_width()), height: num(win.inner_height()) },
        scroll: Point { x: win.scroll_x().unwrap_or(0.0), y: win.scroll_y().unwrap_or(0.0) },
        page: Size {
            width: root.as_ref().map_or(0.0, |r| f64::from(r.scroll_width())),
            height: root.as_ref().map_or(0.0, |r| f64::from(r.scroll_height())),
        },
        counts,
        text,
        text_truncated,
        focused,
    })
}
