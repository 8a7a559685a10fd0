//! Which SVGs on the default black fill are icons. Only icons follow the text colour: a large
//! unsized SVG (a decorative shape, a figure drawn full width) would become a bright slab.

use super::collect::Root;
use dusk_core::dark::shapes::is_icon;

/// Set on an SVG that the theme fills with the text colour.
pub const ICON_ATTR: &str = "data-dusk-icon";
/// Set on one measured too big to be an icon, so it isn't measured again.
const LARGE_ATTR: &str = "data-dusk-large";

/// Measures the unmarked default-fill SVGs of `roots`; call where layout is clean or due anyway.
pub fn mark(roots: &[Root]) {
    let selector = format!("svg:not([fill]):not([{ICON_ATTR}]):not([{LARGE_ATTR}])");
    for root in roots {
        let Some(list) = root.query_all(&selector) else { continue };
        for i in 0..list.length() {
            let Some(el) = list.item(i).and_then(super::collect::as_element) else { continue };
            let r = el.get_bounding_client_rect();
            if r.width() <= 0.0 || r.height() <= 0.0 {
                continue; // not laid out yet (hidden, or still loading): measured on a later batch
            }
            let attr = if is_icon(r.width(), r.height()) { ICON_ATTR } else { LARGE_ATTR };
            let _ = el.set_attribute(attr, "");
        }
    }
}

/// Marks those of `svgs` not measured yet (read all, then write all: one layout at most).
pub fn mark_each(svgs: &[web_sys::Element]) {
    let selector = format!("svg:not([fill]):not([{ICON_ATTR}]):not([{LARGE_ATTR}])");
    let sized: Vec<_> = svgs.iter().filter(|el| el.matches(&selector).unwrap_or(false)).map(|el| (el, el.get_bounding_client_rect())).collect();
    for (el, r) in sized {
        if r.width() > 0.0 && r.height() > 0.0 {
            let _ = el.set_attribute(if is_icon(r.width(), r.height()) { ICON_ATTR } else { LARGE_ATTR }, "");
        }
    }
}

/// Takes every mark off, leaving the page as it was.
pub fn unmark(roots: &[Root]) {
    for root in roots {
        for attr in [ICON_ATTR, LARGE_ATTR] {
            let Some(list) = root.query_all(&format!("[{attr}]")) else { continue };
            for i in 0..list.length() {
                if let Some(el) = list.item(i).and_then(super::collect::as_element) {
                    let _ = el.remove_attribute(attr);
                }
            }
        }
    }
}
