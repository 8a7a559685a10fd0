//! query_elements: finds elements matching a plain description, ranked, with selectors and styles.

use crate::dom::{element_style, is_visible, tag, top_rect, window};
use crate::names::element_text;
use crate::selector::unique_selector;
use dusk_core::page::query::{Features, Position, Query};
use dusk_core::page::rank::best_first;
use dusk_core::page::selector::xpath_literal;
use dusk_core::protocol::page::{QueryMatch, Rect};
use web_sys::{Document, Element};

const MAX_CANDIDATES: u32 = 3000;
/// Hidden matches (collapsed menus, closed tabs) are skipped, up to this many layout reads.
const MAX_LAYOUT_CHECKS: usize = 400;

fn own_text(el: &Element) -> String {
    let children = el.child_nodes();
    let mut s = String::new();
    for i in 0..children.length().min(64) {
        if let Some(n) = children.item(i).filter(|n| n.node_type() == web_sys::Node::TEXT_NODE) {
            s.push_str(&n.text_content().unwrap_or_default());
        }
    }
    s
}

fn push_unique(out: &mut Vec<Element>, seen: &js_sys::Set, el: Element) {
    if !seen.has(&el) {
        seen.add(&el);
        out.push(el);
    }
}

/// Elements whose own text contains the phrase, case-insensitively for ASCII letters.
fn by_phrase(doc: &Document, phrase: &str, out: &mut Vec<Element>, seen: &js_sys::Set) {
    const UP: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    const LOW: &str = "abcdefghijklmnopqrstuvwxyz";
    let lit = xpath_literal(&phrase.to_ascii_lowercase());
    let expr = format!("//body//*[not(self::script or self::style)][text()[contains(translate(normalize-space(.), '{UP}', '{LOW}'), {lit})]]");
    let Ok(result) = doc.evaluate(&expr, doc) else { return };
    let mut taken = 0;
    while let Ok(Some(node)) = result.iterate_next() {
        if taken >= MAX_CANDIDATES {
            break;
        }
        if let Some(el) = crate::dom::as_element(node) {
            push_unique(out, seen, el);
            taken += 1;
        }
    }
}

fn position(rect: &Rect, vw: f64, vh: f64, scroll_y: f64, page_h: f64) -> Option<Position> {
    if rect.width >= vw * 0.6 && rect.y + scroll_y < 120.0 && rect.height < vh * 0.4 {
        Some(Position::Top)
    } else if rect.width >= vw * 0.6 && rect.y + scroll_y + rect.height >= page_h - 40.0 {
        Some(Position::Bottom)
    } else if rect.width < vw * 0.4 && rect.height > vh * 0.3 && (rect.x < vw * 0.25 || rect.x + rect.width > vw * 0.75) {
        Some(Position::Side)
    } else {
        None
    }
}

#[inline(never)]
pub fn query_elements(doc: &Document, description: &str, limit: u32) -> Result<Vec<QueryMatch>, String> {
    let q = Query::parse(description);
    if q.is_empty() {
        return Err("the description has no words to match; try e.g. \"navigation sidebar\" or \"search input\"".into());
    }
    let seen = js_sys::Set::new(&wasm_bindgen::JsValue::UNDEFINED);
    let mut candidates = Vec::new();
    let selector = q.candidate_selector();
    if !selector.is_empty() {
        if let Ok(list) = doc.query_selector_all(&selector) {
            for i in 0..list.length().min(MAX_CANDIDATES) {
                if let Some(el) = list.item(i).and_then(crate::dom::as_element) {
                    push_unique(&mut candidates, &seen, el);
                }
            }
        }
    }
    for phrase in &q.phrases {
        by_phrase(doc, phrase, &mut candidates, &seen);
    }
    let wants_text = !q.phrases.is_empty();
    let features = |el: &Element, pos: Option<Position>| {
        let label = ["aria-label", "title", "placeholder", "name", "alt"].iter().filter_map(|a| el.get_attribute(a)).collect::<Vec<_>>().join(" ");
        Features {
            tag: tag(el),
            role: el.get_attribute("role").unwrap_or_default().to_ascii_lowercase(),
            id: el.id(),
            class: el.get_attribute("class").unwrap_or_default(),
            label,
            input_type: el.get_attribute("type").unwrap_or_default().to_ascii_lowercase(),
            text: if wants_text { own_text(el) } else { String::new() },
            position: pos,
        }
    };
    let scored: Vec<(f64, Vec<String>, Element)> = candidates
        .into_iter()
        .filter_map(|el| {
            let (s, reasons) = q.score(&features(&el, None));
            (s > 0.0).then_some((s, reasons, el))
        })
        .collect();
    let scored = best_first(scored, |s| (s.0, 0.0));
    let win = window()?;
    let num = |v: Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue>| v.ok().and_then(|v| v.as_f64()).unwrap_or(0.0);
    let (vw, vh, sy) = (num(win.inner_width()), num(win.inner_height()), win.scroll_y().unwrap_or(0.0));
    let page_h = doc.document_element().map_or(vh, |r| f64::from(r.scroll_height()));
    // Re-rank the best visible few with what needs layout: visibility and landmark position.
    let wanted = limit.clamp(1, 50) as usize * 3 + 5;
    let ranked: Vec<(f64, Vec<String>, Element, Rect)> = scored
        .into_iter()
        .take(MAX_LAYOUT_CHECKS)
        .filter_map(|(_, _, el)| {
            let rect = top_rect(&el);
            if !is_visible(&el, &rect) {
                return None;
            }
            let (s, reasons) = q.score(&features(&el, position(&rect, vw, vh, sy, page_h)));
            Some((s, reasons, el, rect))
        })
        .take(wanted)
        .collect();
    // Among equal scores, the smaller element is the more specific match.
    Ok(best_first(ranked, |r| (r.0, r.3.area()))
        .into_iter()
        .take(limit.clamp(1, 50) as usize)
        .map(|(score, reasons, el, rect)| {
            let t = tag(&el);
            QueryMatch {
                selector: unique_selector(&el),
                score: (score * 100.0).round() / 100.0,
                text: element_text(&el, &t, 80),
                tag: t,
                reasons,
                rect,
                style: element_style(&el),
            }
        })
        .collect())
}
