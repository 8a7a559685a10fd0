//! inspect: computed styles and boxes of the elements a selector matches.

use crate::dom::{element_style, tag, top_rect};
use crate::names::element_text;
use crate::selector::unique_selector;
use crate::walk::collect;
use dusk_core::protocol::page::InspectedElement;
use web_sys::Document;

#[inline(never)]
pub fn inspect(doc: &Document, selector: &str, limit: u32) -> Result<(Vec<InspectedElement>, u32), String> {
    doc.query_selector(selector).map_err(|_| format!("invalid selector: {selector}"))?;
    let found = collect(doc, selector);
    let total = found.len() as u32;
    let elements = found
        .into_iter()
        .take(limit.clamp(1, 100) as usize)
        .map(|f| {
            let t = tag(&f.el);
            InspectedElement {
                selector: unique_selector(&f.el),
                text: element_text(&f.el, &t, 200),
                tag: t,
                style: element_style(&f.el),
                rect: top_rect(&f.el),
            }
        })
        .collect();
    Ok((elements, total))
}
