//! The caret of a text field: where a click puts it (core's `caret_at`, measured with the
//! field's font), and whether the last click or typing in a field left it somewhere on purpose.

use dusk_core::page::text_edit::{caret_at, utf16_offset};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsValue;
use web_sys::Element;

#[wasm_bindgen(inline_js = "
let canvas;
// The field's text box in its document: [left, top, width, line height], with the font set for measuring.
export function text_box(el) {
  const cs = el.ownerDocument.defaultView.getComputedStyle(el), r = el.getBoundingClientRect(), px = (v) => parseFloat(v) || 0;
  canvas ||= new OffscreenCanvas(1, 1).getContext('2d');
  canvas.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
  const left = r.left + px(cs.borderLeftWidth) + px(cs.paddingLeft) - el.scrollLeft, top = r.top + px(cs.borderTopWidth) + px(cs.paddingTop) - el.scrollTop;
  return [left, top, el.clientWidth - px(cs.paddingLeft) - px(cs.paddingRight), px(cs.lineHeight) || px(cs.fontSize) * 1.2];
}
export function text_width(s) { return canvas.measureText(s).width; }")]
extern "C" {
    fn text_box(el: &Element) -> Vec<f64>;
    fn text_width(s: &str) -> f64;
}

thread_local! {
    /// The field whose caret a click or typing placed last: typing there without a place goes to the caret.
    static PLACED: RefCell<Option<Element>> = const { RefCell::new(None) };
}

pub fn remember(el: &Element) {
    PLACED.with(|p| *p.borrow_mut() = Some(el.clone()));
}

pub fn placed_in(el: &Element) -> bool {
    PLACED.with(|p| p.borrow().as_ref() == Some(el))
}

/// The field's selection as UTF-16 offsets; None where its type has none (email, number).
pub fn selection(el: &Element) -> Option<(u32, u32)> {
    let get = |k: &str| js_sys::Reflect::get(el, &k.into()).ok().and_then(|v| v.as_f64());
    Some((get("selectionStart")? as u32, get("selectionEnd")? as u32))
}

pub fn select_range(el: &Element, start: u32, end: u32) {
    if let Some(f) = js_sys::Reflect::get(el, &"setSelectionRange".into()).ok().and_then(crate::dom::as_function) {
        let _ = f.call2(el, &JsValue::from(start), &JsValue::from(end));
    }
}

/// Puts the caret of a text field where a click at (`x`, `y`) in its document lands.
pub fn place_at_point(el: &Element, x: f64, y: f64) {
    let value = js_sys::Reflect::get(el, &"value".into()).ok().and_then(|v| v.as_string()).unwrap_or_default();
    let b = text_box(el);
    let [left, top, width, line] = [b.first(), b.get(1), b.get(2), b.get(3)].map(|v| v.copied().unwrap_or(0.0));
    let multi_line = crate::dom::tag(el) == "textarea";
    let n = caret_at(&value, multi_line, width, line, x - left, y - top, text_width);
    let at = utf16_offset(&value, n);
    select_range(el, at, at);
    remember(el);
}
