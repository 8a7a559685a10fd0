//! Where a visible-only listing's left-out elements are: on screen, hidden for good, past an
//! on-screen scroll box's edge, or on the page beyond the viewport. One pass over all of them,
//! each ancestor's style read once and each clipping box's measured once.

use crate::dom::{tag, window};
use crate::names::scroll_box_name;
use crate::registry;
use dusk_core::protocol::page::{LeftOut, PageMore, ScrollBoxMore};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::Element;

#[wasm_bindgen(inline_js = "import { read, call } from 'dusk-unshadowed';

// Codes: -1 on screen, -2 hidden for good (not rendered, clipped), -3 page below, -4 page above,
// -5 elsewhere (left or right, or in a frame); k*4+d: past scroll box k's edge d (below, above, right, left).
export function placement(els) {
  const chains = new Map(), memo = new Map(), boxes = [], boxAt = new Map(), views = new Map(), open = [];
  const up = (a) => read(a, 'parentElement') || read(call(a, 'getRootNode'), 'host') || null;
  const scrolls = (v) => v === 'auto' || v === 'scroll' || v === 'overlay';
  const visible = { checkOpacity: true, checkVisibilityCSS: true };
  // Each ancestor's style is read once: the boxes that clip, from it up to the first fixed one,
  // as a list shared by everything under it ({ a, x, y, next, box }; null when none clips).
  // A style read costs as much as a rect: most ancestors clip nothing, which one read of the
  // overflow shorthand tells, and being fixed matters only under a box that clips.
  const chain = (from, top) => {
    let a = from, tail = null, n = 0;
    for (; a && a !== top; a = up(a)) {
      const known = chains.get(a);
      if (known !== undefined) { tail = known; break; }
      open[n++] = a;
    }
    while (n > 0) {
      const b = open[--n], s = read(read(b, 'ownerDocument'), 'defaultView').getComputedStyle(b);
      const rest = tail !== null && s.position === 'fixed' ? null : tail;
      if (s.overflow === 'visible') tail = rest;
      else { const x = s.overflowX, y = s.overflowY; tail = x !== 'visible' || y !== 'visible' ? { a: b, x, y, next: rest, box: null } : rest; }
      chains.set(b, tail);
    }
    return tail;
  };
  // Each document's viewport, read once per listing.
  const viewOf = (doc) => {
    let v = views.get(doc);
    if (v === undefined) { const w = read(doc, 'defaultView'); v = { top: read(doc, 'documentElement'), w: w.innerWidth, h: w.innerHeight, main: doc === document }; views.set(doc, v); }
    return v;
  };
  const place = (el) => {
    const r = call(el, 'getBoundingClientRect');
    if (r.width <= 0 || r.height <= 0 || !call(el, 'checkVisibility', visible)) return -2;
    const v = viewOf(read(el, 'ownerDocument'));
    let x1 = r.left, y1 = r.top, x2 = r.right, y2 = r.bottom;
    for (let c = chain(up(el), v.top); c !== null; c = c.next) {
      const a = c.a;
      let box = c.box;
      if (box === null) { const b = call(a, 'getBoundingClientRect'), bx = b.left + read(a, 'clientLeft'), by = b.top + read(a, 'clientTop'); box = c.box = [bx, by, bx + read(a, 'clientWidth'), by + read(a, 'clientHeight')]; }
      const bx1 = box[0], by1 = box[1], bx2 = box[2], by2 = box[3];
      const nx1 = Math.max(x1, bx1), ny1 = Math.max(y1, by1), nx2 = Math.min(x2, bx2), ny2 = Math.min(y2, by2);
      if (nx2 <= nx1 || ny2 <= ny1) {
        const sy = scrolls(c.y) && read(a, 'scrollHeight') > read(a, 'clientHeight') + 1, sx = scrolls(c.x) && read(a, 'scrollWidth') > read(a, 'clientWidth') + 1;
        if (!sy && !sx) return -2;
        // Past this box's edge: worth a line if the box is on screen; else it is wherever the box is.
        const at = placeBox(a);
        if (at !== -1) return at;
        let k = boxAt.get(a);
        if (k === undefined) { k = boxes.length; boxes.push(a); boxAt.set(a, k); }
        return k * 4 + (y1 >= by2 ? 0 : y2 <= by1 ? 1 : x1 >= bx2 ? 2 : 3);
      }
      x1 = nx1; y1 = ny1; x2 = nx2; y2 = ny2;
    }
    if (Math.min(x2, v.w) > Math.max(x1, 0) && Math.min(y2, v.h) > Math.max(y1, 0)) return -1;
    if (!v.main) return -5;
    return y1 >= v.h ? -3 : y2 <= 0 ? -4 : -5;
  };
  const placeBox = (a) => { let c = memo.get(a); if (c === undefined) { c = place(a); memo.set(a, c); } return c; };
  const codes = new Int32Array(els.length);
  for (let i = 0; i < els.length; i++) codes[i] = place(els[i]);
  return { codes, boxes };
}")]
extern "C" {
    fn placement(els: &js_sys::Array) -> JsValue;
}

/// Where each element is, and the scroll boxes holding what is past their edges.
pub struct Placed {
    /// Per element: on screen now.
    pub shown: Vec<bool>,
    pub left_out: LeftOut,
}

/// Places `els` (a visible-only listing's candidates): which are on screen, and what the
/// listing leaves out, per scroll box and for the page.
pub fn place<'a>(els: impl Iterator<Item = &'a Element>) -> Placed {
    let list: js_sys::Array = els.collect();
    let raw = placement(&list);
    let get = |k: &str| js_sys::Reflect::get(&raw, &k.into()).unwrap_or(JsValue::UNDEFINED);
    let codes = get("codes").dyn_into::<js_sys::Int32Array>().map(|a| a.to_vec()).unwrap_or_default();
    let boxes: js_sys::Array = get("boxes").dyn_into().unwrap_or_default();
    let mut more: Vec<ScrollBoxMore> = (0..boxes.length())
        .map(|i| {
            let b: Element = boxes.get(i).unchecked_into();
            ScrollBoxMore { index: registry::index_of(&b).0, tag: tag(&b), name: scroll_box_name(&b), ..ScrollBoxMore::default() }
        })
        .collect();
    let mut page = PageMore::default();
    for &c in &codes {
        match c {
            -3 => page.below += 1,
            -4 => page.above += 1,
            c if c >= 0 => {
                let Some(b) = more.get_mut(c as usize / 4) else { continue };
                match c % 4 {
                    0 => b.below += 1,
                    1 => b.above += 1,
                    2 => b.right += 1,
                    _ => b.left += 1,
                }
            }
            _ => {}
        }
    }
    if let Ok(w) = window() {
        let height = w.inner_height().ok().and_then(|v| v.as_f64()).unwrap_or(0.0);
        let y = w.scroll_y().unwrap_or(0.0);
        let full = w.document().and_then(|d| d.scrolling_element()).map_or(0.0, |e| f64::from(e.scroll_height()));
        page.below_px = (full - y - height).max(0.0).round() as u32;
        page.above_px = y.max(0.0).round() as u32;
    }
    more.retain(|b| b.below + b.above + b.right + b.left > 0);
    Placed { shown: codes.iter().map(|&c| c == -1).collect(), left_out: LeftOut { boxes: more, page } }
}
