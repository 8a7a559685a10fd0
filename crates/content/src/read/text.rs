//! text_snapshot: the page's rendered text in sections under its headings, cut to a token budget.

use dusk_core::page::text::{fit_budget, sectionize};
use dusk_core::protocol::page::TextSnapshot;
use web_sys::Document;

#[inline(never)]
pub fn text_snapshot(doc: &Document, budget: u32) -> TextSnapshot {
    let text = doc.body().map(|b| crate::dom::long_inner_text(&b)).unwrap_or_default();
    let mut headings = Vec::new();
    if let Ok(list) = doc.query_selector_all("h1,h2,h3,h4,h5,h6,[role=heading]") {
        for i in 0..list.length() {
            let Some(el) = list.item(i).and_then(crate::dom::as_element) else { continue };
            let name = el.tag_name().to_ascii_lowercase();
            let level =
                name.strip_prefix('h').and_then(|n| n.parse::<u8>().ok()).or_else(|| el.get_attribute("aria-level").and_then(|l| l.parse().ok())).unwrap_or(2);
            let heading = crate::dom::as_html(&el).map(|h| h.inner_text()).unwrap_or_default();
            headings.push((level, heading));
        }
    }
    fit_budget(&doc.title(), sectionize(&text, &headings), budget.max(50))
}
