//! Finds the big drop-down `<select>`s to hold at their width while the theme switches
//! (core's `HeldWidth`): read while the popup is open, so the switch itself reads no layout.

use crate::selector::unique_selector;
use dusk_core::dark::freeze::{HeldWidth, HOLD_MAX, HOLD_MIN_OPTIONS};
use wasm_bindgen::JsCast;
use web_sys::{Document, HtmlSelectElement};

pub fn held_selects(document: &Document) -> Vec<HeldWidth> {
    let Some(window) = web_sys::window() else { return Vec::new() };
    let Ok(list) = document.query_selector_all("select:not([multiple])") else { return Vec::new() };
    let mut out = Vec::new();
    for i in 0..list.length() {
        let Some(select) = list.item(i).and_then(|n| n.dyn_into::<HtmlSelectElement>().ok()) else { continue };
        if select.size() > 1 || select.length() < HOLD_MIN_OPTIONS {
            continue;
        }
        let width = window.get_computed_style(&select).ok().flatten().and_then(|s| s.get_property_value("width").ok());
        // "auto" (not rendered) parses to None and is skipped.
        let Some(width_px) = width.and_then(|w| dusk_core::page::number::parse_number(w.strip_suffix("px")?)) else { continue };
        out.push(HeldWidth { selector: unique_selector(&select), width_px });
        if out.len() == HOLD_MAX {
            break;
        }
    }
    out
}
