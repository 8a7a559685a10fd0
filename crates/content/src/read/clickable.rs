//! What get_elements lists: the candidate selector's matches, plus what is clickable only through
//! script: the top of a `cursor: pointer` run, elements the page gave click-like listeners (named
//! by the main-world probe, extension/listeners.js), and `tabindex=-1` items of menus and lists.

use crate::walk::{Root, RootNode};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::Element;

// One pass in JS: a computed-style read per element is cheap there and dear across the boundary.
#[wasm_bindgen(inline_js = "
const SKIP = new Set(['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT', 'HEAD', 'HTML', 'BODY']);
export function listed(root, selector) {
  const doc = root.ownerDocument || root, view = doc.defaultView, listens = new Set();
  const grab = (e) => listens.add(e.composedPath()[0]);
  doc.addEventListener('dusk:listens', grab, true);
  doc.dispatchEvent(new CustomEvent('dusk:probe'));
  doc.removeEventListener('dusk:listens', grab, true);
  const cursor = new Map(), cur = (el) => {
    let c = cursor.get(el);
    if (c === undefined) { c = view.getComputedStyle(el).cursor; cursor.set(el, c); }
    return c;
  };
  const els = [], flags = [], walk = doc.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
  for (let el = walk.nextNode(); el; el = walk.nextNode()) {
    if (SKIP.has(el.tagName)) continue;
    const item = el.getAttribute('tabindex') === '-1' && el.parentElement?.closest('[role=listbox],[role=menu],ul,ol');
    if (el.matches(selector) && !item) { els.push(el); flags.push(0); continue; }
    if (el.namespaceURI !== 'http://www.w3.org/1999/xhtml') continue;
    const p = el.parentElement;
    const pointer = cur(el) === 'pointer' && !(p && cur(p) === 'pointer');
    if (pointer || item || listens.has(el)) { els.push(el); flags.push(1); }
  }
  // A list or card whose handler serves the items inside it is left out when those are listed.
  const holds = new Set();
  for (const el of els) for (let a = el.parentElement; a && !holds.has(a); a = a.parentElement) holds.add(a);
  const keep = els.map((el, i) => flags[i] === 0 || !holds.has(el));
  return { els: els.filter((_, i) => keep[i]), flags: Uint8Array.from(flags.filter((_, i) => keep[i])) };
}")]
extern "C" {
    fn listed(root: &JsValue, selector: &str) -> JsValue;
}

/// The root's candidates in document order, each with whether only script makes it clickable.
pub fn candidates(root: &Root, selector: &str) -> Vec<(Element, bool)> {
    let node: JsValue = match &root.node {
        RootNode::Doc(d) => d.clone().into(),
        RootNode::Shadow(s) => s.clone().into(),
    };
    let raw = listed(&node, selector);
    let get = |k: &str| js_sys::Reflect::get(&raw, &k.into()).unwrap_or(JsValue::UNDEFINED);
    let els: js_sys::Array = get("els").unchecked_into();
    let flags = get("flags").dyn_into::<js_sys::Uint8Array>().map(|a| a.to_vec()).unwrap_or_default();
    // Elements of a same-origin frame belong to its realm, so `instanceof Element` here fails.
    (0..els.length()).map(|i| (els.get(i).unchecked_into::<Element>(), flags.get(i as usize) == Some(&1))).collect()
}
