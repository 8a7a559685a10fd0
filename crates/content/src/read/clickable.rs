//! What get_elements lists: the candidate selector's matches, plus what is clickable only through
//! script: the top of a `cursor: pointer` run, elements the page gave click-like listeners (found
//! by the worker with the debugger: crate::listeners), and `tabindex=-1` items of menus and lists.

use crate::walk::{Root, RootNode};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::Element;

// In JS: thousands of set lookups and a few style reads are cheap there and dear across the boundary.
#[wasm_bindgen(inline_js = "
// Selectors of rules that set cursor: pointer, from the scope's readable sheets (cross-origin ones
// are skipped); checking those elements costs far less than a style read on every element.
const cached = new WeakMap();
function pointerSelectors(scope) {
  const sheets = [...(scope.styleSheets || []), ...(scope.adoptedStyleSheets || [])];
  const hit = cached.get(scope);
  if (hit && hit.count === sheets.length) return hit.selectors;
  const out = [], visit = (rules) => {
    for (const r of rules) {
      if (r.selectorText && r.style && r.style.cursor === 'pointer') out.push(r.selectorText);
      if (r.cssRules) visit(r.cssRules);
    }
  };
  for (const sheet of sheets) {
    try { visit(sheet.cssRules); } catch (_) {}
  }
  cached.set(scope, { count: sheets.length, selectors: out });
  return out;
}
export function listed(root, selector, listens) {
  const doc = root.ownerDocument || root, view = doc.defaultView, extra = new Set(listens);
  const cursor = new Map(), cur = (el) => {
    let c = cursor.get(el);
    if (c === undefined) { c = view.getComputedStyle(el).cursor; cursor.set(el, c); }
    return c;
  };
  const pointerish = [...pointerSelectors(root), '[style*=cursor]'];
  let found;
  // One traversal for all of them; a selector this browser can't parse sends us one by one.
  try { found = root.querySelectorAll(pointerish.join(',')); } catch (_) {
    found = pointerish.flatMap((sel) => { try { return [...root.querySelectorAll(sel)]; } catch (_) { return []; } });
  }
  {
    for (const el of found) {
      const p = el.parentElement;
      if (cur(el) === 'pointer' && !(p && cur(p) === 'pointer')) extra.add(el);
    }
  }
  for (const el of root.querySelectorAll('[tabindex=\"-1\"]')) if (el.parentElement?.closest('[role=listbox],[role=menu],ul,ol')) extra.add(el);
  const native = new Set(root.querySelectorAll(selector));
  const els = [], flags = [];
  if (extra.size === 0) {
    for (const el of native) { els.push(el); flags.push(0); }
    return { els, flags: Uint8Array.from(flags) };
  }
  // The native list is in document order; the few extras are put in place by binary search.
  for (const el of native) { els.push(el); flags.push(0); }
  const FOLLOWING = Node.DOCUMENT_POSITION_FOLLOWING;
  for (const el of extra) {
    if (el.namespaceURI !== 'http://www.w3.org/1999/xhtml' || el === doc.body || el === doc.documentElement || !root.contains(el)) continue;
    const item = el.getAttribute('tabindex') === '-1';
    let lo = 0, hi = els.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (els[mid] === el) { lo = mid; hi = -1; break; } if (els[mid].compareDocumentPosition(el) & FOLLOWING) lo = mid + 1; else hi = mid; }
    if (hi === -1) { if (item) flags[lo] = 1; continue; }
    els.splice(lo, 0, el); flags.splice(lo, 0, 1);
  }
  // A list or card whose handler serves the items inside it is left out when those are listed.
  // In document order a descendant comes right after its ancestor, so one look ahead tells.
  const keep = els.map((el, i) => flags[i] === 0 || !(i + 1 < els.length && el.contains(els[i + 1])));
  return { els: els.filter((_, i) => keep[i]), flags: Uint8Array.from(flags.filter((_, i) => keep[i])) };
}")]
extern "C" {
    fn listed(root: &JsValue, selector: &str, listens: &js_sys::Array) -> JsValue;
}

/// The root's candidates in document order, each with whether only script makes it clickable.
pub fn candidates(root: &Root, selector: &str) -> Vec<(Element, bool)> {
    let node: JsValue = match &root.node {
        RootNode::Doc(d) => d.clone().into(),
        RootNode::Shadow(s) => s.clone().into(),
    };
    let raw = listed(&node, selector, &crate::listeners::held());
    let get = |k: &str| js_sys::Reflect::get(&raw, &k.into()).unwrap_or(JsValue::UNDEFINED);
    let els: js_sys::Array = get("els").unchecked_into();
    let flags = get("flags").dyn_into::<js_sys::Uint8Array>().map(|a| a.to_vec()).unwrap_or_default();
    // Elements of a same-origin frame belong to its realm, so `instanceof Element` here fails.
    (0..els.length()).map(|i| (els.get(i).unchecked_into::<Element>(), flags.get(i as usize) == Some(&1))).collect()
}
