//! text_snapshot: the page's rendered text in sections under its headings, cut to a token budget.

use dusk_core::page::text::{fit_budget, heading_level, sectionize};
use dusk_core::protocol::page::TextSnapshot;
use web_sys::Document;

#[inline(never)]
pub fn text_snapshot(doc: &Document, budget: u32) -> TextSnapshot {
    let text = doc.body().map(|b| crate::dom::long_inner_text(&b)).unwrap_or_default();
    let headings: Vec<(u8, String)> = crate::dom::headings(doc, "h1,h2,h3,h4,h5,h6,[role=heading]")
        .into_iter()
        .map(|(tag, aria_level, text)| (heading_level(&tag, aria_level.as_deref()), text))
        .collect();
    fit_budget(&doc.title(), sectionize(&text, &headings), budget.max(50))
}
