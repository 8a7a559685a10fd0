//! The pre-paint fallback CSS: found, claimed (which turns it off), released where dark is not wanted.

use super::*;

/// A layer that started while the document loaded may have looked for the fallback before the
/// sheet was in (it comes with the registered script): it looks again until it has claimed.
pub(super) fn recheck_fallback() {
    let claimed = document().and_then(|d| d.document_element()).is_some_and(|h| h.has_attribute(CLAIM_ATTR));
    with(|s| s.fallback_settled &= claimed || !s.started_loading);
}

/// Marks the page as ours, which turns the registered pre-paint fallback CSS off.
pub(super) fn claim() {
    if let Some(d) = document() {
        claim_in(&d);
    }
}

pub(super) fn claim_in(doc: &web_sys::Document) {
    if let Some(html) = doc.document_element() {
        let _ = html.set_attribute(CLAIM_ATTR, "");
    }
}

/// The registered pre-paint fallback CSS styles `doc` now.
pub(super) fn fallback_present(doc: &web_sys::Document) -> bool {
    let (Some(window), Some(html)) = (doc.default_view(), doc.document_element()) else { return false };
    let marker = window.get_computed_style(&html).ok().flatten().and_then(|st| st.get_property_value("--dusk-fallback").ok()).unwrap_or_default();
    !marker.trim().is_empty()
}

/// Turns the fallback off on a page where it was injected but dark mode is not wanted.
/// Checked until the DOM is parsed, never after: reading computed style then would force a
/// full restyle in the middle of a switch.
#[inline(never)]
pub(super) fn release_fallback() {
    if with(|s| s.fallback_settled) {
        return;
    }
    let Some(document) = document() else { return };
    let present = fallback_present(&document);
    if present {
        claim();
    }
    // Registered CSS is injected at document start, so once parsing is done its absence is final.
    let settled = present || document.ready_state() != "loading";
    with(|s| s.fallback_settled = settled);
}
