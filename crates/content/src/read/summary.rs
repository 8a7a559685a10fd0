//! page_summary: where the user is and what the page holds, in one cheap call.

use crate::dom::{as_html, deep_active_element, describe_el, is_visible, local_rect, tag, window};
use crate::walk::roots;
use dusk_core::page::elements::COUNT_SELECTORS;
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

pub fn page_summary(doc: &Document, text_limit: u32) -> Result<PageSummary, String> {
    let win = window()?;
    let mut counts = ElementCounts::default();
    for root in roots(doc) {
        for (kind, selector) in COUNT_SELECTORS {
            let n = root.query_all(selector).map_or(0, |l| l.length());
            counts.add_many(kind, n);
        }
        counts.forms += root.query_all("form").map_or(0, |l| l.length());
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
