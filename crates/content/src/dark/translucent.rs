//! Text under a translucent element on a page Dusk recolours (core's `dark::translucent`): the
//! theme keeps every colour pair at AA, but `opacity` blends text with what lies behind it
//! (nbconvert's prompts at 0.5). Once the theme has painted, only the elements the page's rules
//! may paint translucent are measured, and their text under AA as painted is raised in its own
//! hue (core's `own::raised_through`), marked as a site's own design's text is.

use super::collect::Root;
use super::own::{mark_raised, raise_all};
use super::quality::text_pairs_in;
use dusk_core::dark::own::RAISE_ATTR;
use js_sys::{Array, Object};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use web_sys::{CssStyleSheet, Document, Element};

/// Text elements measured at most under translucent elements.
const MAX_TEXT: u32 = 5_000;

// One crossing for every selector and its computed opacities.
#[wasm_bindgen(inline_js = "import { read, call } from 'dusk-unshadowed';

export function translucent_roots(doc, selectors) {
  const found = new Set();
  const add = (list) => { for (const el of list) { const o = parseFloat(getComputedStyle(el).opacity); if (o > 0 && o < 1) found.add(el); } };
  for (const s of selectors) {
    try { add(call(doc, 'querySelectorAll', s)); } catch (e) {
      for (const part of s.split(',')) { try { add(call(doc, 'querySelectorAll', part)); } catch (e) {} }
    }
  }
  // The outermost only: one inside another is measured with it, at both opacities.
  return [...found].filter((el) => { for (let p = read(el, 'parentElement'); p; p = read(p, 'parentElement')) if (found.has(p)) return false; return true; });
}")]
extern "C" {
    fn translucent_roots(doc: &Document, selectors: &Array) -> Array;
}

thread_local! {
    static SHEET: RefCell<Option<(Root, CssStyleSheet, String)>> = const { RefCell::new(None) };
}

/// Measures the text under the document's translucent elements (`selectors`: core's
/// `translucent::selectors`) and raises what fails AA as painted; marks that no longer fail go.
pub fn mark(doc: &Document, selectors: &[String]) {
    if selectors.is_empty() && SHEET.with(|s| s.borrow().is_none()) {
        return;
    }
    // Measured with the raise sheet off, so a colour raised before isn't taken for the theme's.
    let raising = sheet();
    raising.iter().for_each(|s| s.set_disabled(true));
    let raised = measure(doc, selectors);
    raising.iter().for_each(|s| s.set_disabled(false));
    put(doc, &raised);
}

/// The text under translucent elements that fails AA as styled now, with its raised colour.
pub fn measure(doc: &Document, selectors: &[String]) -> Vec<(Element, String)> {
    let list: Array = selectors.iter().map(|s| JsValue::from_str(s)).collect();
    let roots = if list.length() == 0 { Array::new() } else { translucent_roots(doc, &list) };
    if roots.length() == 0 {
        return Vec::new();
    }
    raise_all(text_pairs_in(&roots, MAX_TEXT))
}

/// The translucent elements `selectors` find now: none on most pages, so preparing measures nothing.
pub fn any(doc: &Document, selectors: &[String]) -> bool {
    let list: Array = selectors.iter().map(|s| JsValue::from_str(s)).collect();
    list.length() > 0 && translucent_roots(doc, &list).length() > 0
}

/// Marks `raised` (measured beforehand), unmarks the rest, and puts their sheet in.
pub fn put(doc: &Document, raised: &[(Element, String)]) {
    let css = mark_raised(doc, raised, &format!("[{RAISE_ATTR}]"));
    install(doc, &css);
}

/// The raise sheet holds `css`, adopted last in the document (again, if the page reset its sheets).
fn install(doc: &Document, css: &str) {
    SHEET.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
            if css.is_empty() {
                return;
            }
            let Ok(sheet) = CssStyleSheet::new() else { return };
            *slot = Some((Root::Doc(doc.clone()), sheet, String::new()));
        }
        let Some((root, sheet, current)) = slot.as_mut() else { return };
        root.keep_adopted(sheet, current, css);
    });
}

/// The raise sheet in place, so the theme never reads it as the page's own.
pub fn sheet() -> Option<CssStyleSheet> {
    SHEET.with(|cell| cell.borrow().as_ref().map(|(_, s, _)| s.clone()))
}

/// Takes the sheet off (the marks go with every other raise mark).
pub fn remove() {
    if let Some((root, sheet, _)) = SHEET.with(|cell| cell.borrow_mut().take()) {
        let next: Array = root.adopted().iter().filter(|s| !Object::is(s, &sheet)).collect();
        root.set_adopted(&next);
    }
}
