//! The elements the page gave click-like listeners, as the worker last found them with the
//! debugger (`click_listeners`, before each `get_elements`): Dusk runs nothing in the page's own
//! world to learn it (docs/architecture.md, "Listener probe"). read::clickable lists them.

use dusk_core::page::listeners::{FRAME_DOCUMENT, SHADOW_ROOT};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use web_sys::Document;

#[wasm_bindgen(inline_js = "
export function resolve(doc, flat, shadow, frame) {
  const out = [];
  for (let i = 0; i < flat.length; ) {
    const end = i + 1 + flat[i];
    let n = doc;
    for (i++; n && i < end; i++) {
      const s = flat[i];
      n = s === shadow ? n.shadowRoot : s === frame ? (n.tagName === 'IFRAME' || n.tagName === 'FRAME' ? n.contentDocument : null) : n.children ? n.children[s] : null;
    }
    i = end;
    if (n && n.nodeType === 1) out.push(n);
  }
  return out;
}")]
extern "C" {
    /// `flat`: each path as its length, then its steps.
    fn resolve(doc: &Document, flat: &[i32], shadow: i32, frame: i32) -> js_sys::Array;
}

thread_local! {
    static HELD: RefCell<js_sys::Array> = RefCell::new(js_sys::Array::new());
}

/// Keeps the elements the paths lead to, for the listings until the next call; how many there are.
pub fn set(doc: &Document, paths: &[Vec<i32>]) -> u32 {
    let mut flat = Vec::with_capacity(paths.iter().map(|p| p.len() + 1).sum());
    for p in paths {
        flat.push(p.len() as i32);
        flat.extend_from_slice(p);
    }
    let found = resolve(doc, &flat, SHADOW_ROOT, FRAME_DOCUMENT);
    let n = found.length();
    HELD.with(|h| *h.borrow_mut() = found);
    n
}

/// The elements last set, some of which may have left the page since.
pub fn held() -> js_sys::Array {
    HELD.with(|h| h.borrow().clone())
}
