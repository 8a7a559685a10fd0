//! What get_elements lists: the candidate selector's matches, plus what is clickable only through
//! script: the top of a `cursor: pointer` run, elements the page gave click-like listeners (found
//! by the worker with the debugger: crate::listeners), and `tabindex=-1` items of menus and lists.
//! An element with a listener of its own is listed whatever it holds, if it says something of its
//! own; one clickable only by inheritance is folded into the listed items inside it.

use crate::walk::{Root, RootNode};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::Element;

// In JS: thousands of set lookups and a few style reads are cheap there and dear across the boundary.
#[wasm_bindgen(inline_js = "import { read, call } from 'dusk-unshadowed';

// Selectors of rules that set cursor: pointer, from the scope's readable sheets (cross-origin ones
// are skipped); checking those elements costs far less than a style read on every element.
const cached = new WeakMap();
function pointerSelectors(scope) {
  const sheets = [...(read(scope, 'styleSheets') || []), ...(read(scope, 'adoptedStyleSheets') || [])];
  const hit = cached.get(scope);
  if (hit && hit.count === sheets.length) return hit.selectors;
  const out = [], visit = (rules) => {
    for (const r of rules) {
      if (r.selectorText && read(r, 'style') && read(r, 'style').cursor === 'pointer') out.push(r.selectorText);
      if (r.cssRules) visit(r.cssRules);
    }
  };
  for (const sheet of sheets) {
    try { visit(sheet.cssRules); } catch (_) {}
  }
  cached.set(scope, { count: sheets.length, selectors: out });
  return out;
}
// A listener that serves more listed elements than this, or covers half the viewport, is a
// delegation root (React's root, a backdrop), not an action of its own.
const DELEGATION = 40;
// The broad net's matches per root, kept while nothing under the root was added, removed or
// given another value of an attribute the net reads (an observer says so): a listing of an
// unchanged page skips the query over every element.
const nets = new WeakMap();
function net(root, selector, attributes) {
  const kept = nets.get(root);
  if (kept && kept.selector === selector && kept.watch !== null && !kept.watch.takeRecords().length) return kept.els;
  if (kept && kept.watch !== null) kept.watch.disconnect();
  const entry = { selector, els: [...call(root, 'querySelectorAll', selector)], watch: null };
  const watch = new MutationObserver(() => { watch.disconnect(); entry.watch = null; entry.els = null; });
  watch.observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: attributes });
  entry.watch = watch;
  nets.set(root, entry);
  return entry.els;
}
export function listed(root, selector, attributes, listens, holders, faces) {
  const doc = read(root, 'ownerDocument') || root, view = read(doc, 'defaultView'), extra = new Set([...listens, ...faces]), own = new Set(listens), forced = new Set(faces);
  const cursor = new Map(), cur = (el) => {
    let c = cursor.get(el);
    if (c === undefined) { c = view.getComputedStyle(el).cursor; cursor.set(el, c); }
    return c;
  };
  const pointerish = [...pointerSelectors(root), '[style*=cursor]'];
  // Flags: 0 matched the selector, 1 clickable by inheritance (a pointer cursor, a list item),
  // 2 given a click listener of its own.
  // An image inside a control is the control's content, not an item of its own.
  const els = net(root, selector, attributes).filter((el) => read(el, 'localName') !== 'img' || !(read(el, 'parentElement') && call(read(el, 'parentElement'), 'closest', holders)));
  const flags = els.map(() => 0), place = new Map();
  for (let i = 0; i < els.length; i++) place.set(els[i], i);
  // A listed element with a pointer cursor would only keep its flag (links, mostly): not read.
  const raises = (el) => !place.has(el) || call(el, 'getAttribute', 'tabindex') === '-1';
  let found;
  // One traversal for all of them; a selector this browser can't parse sends us one by one.
  try { found = call(root, 'querySelectorAll', pointerish.join(',')); } catch (_) {
    found = pointerish.flatMap((sel) => { try { return [...call(root, 'querySelectorAll', sel)]; } catch (_) { return []; } });
  }
  {
    for (const el of found) {
      if (!raises(el)) continue;
      const p = read(el, 'parentElement');
      if (cur(el) === 'pointer' && !(p && cur(p) === 'pointer')) extra.add(el);
    }
  }
  for (const el of call(root, 'querySelectorAll', '[tabindex=\"-1\"]')) { const p = read(el, 'parentElement'); if (p && call(p, 'closest', '[role=listbox],[role=menu],ul,ol')) extra.add(el); }
  if (extra.size) {
    // Listed extras raise their flag; the native list is in document order, and the others are
    // put in place by binary search, after every index in `place` has been used.
    const FOLLOWING = Node.DOCUMENT_POSITION_FOLLOWING, fresh = [];
    for (const el of extra) {
      if (read(el, 'namespaceURI') !== 'http://www.w3.org/1999/xhtml' || el === read(doc, 'body') || el === read(doc, 'documentElement') || !call(root, 'contains', el)) continue;
      const flag = own.has(el) ? 2 : 1, i = place.get(el);
      if (i === undefined) fresh.push([el, flag]);
      else if (call(el, 'getAttribute', 'tabindex') === '-1' || flag === 2) flags[i] = Math.max(flags[i], flag);
    }
    for (const [el, flag] of fresh) {
      let lo = 0, hi = els.length;
      while (lo < hi) { const mid = (lo + hi) >> 1; if (call(els[mid], 'compareDocumentPosition', el) & FOLLOWING) lo = mid + 1; else hi = mid; }
      els.splice(lo, 0, el); flags.splice(lo, 0, flag);
    }
  }
  // Each element's nearest ancestor in the list: in document order an ancestor comes first, so a
  // stack of the open ancestors tells. A container clickable only by inheritance whose handler
  // serves the items inside it is left out; one with a listener of its own is an action of its
  // own (an inbox row opens its mail), unless it serves so many that it is a delegation root, or
  // has no words but its items'.
  const up = new Int32Array(els.length), inside = new Int32Array(els.length), stack = [];
  for (let i = 0; i < els.length; i++) {
    while (stack.length && !call(els[stack[stack.length - 1]], 'contains', els[i])) stack.pop();
    up[i] = stack.length ? stack[stack.length - 1] : -1;
    for (const j of stack) inside[j]++;
    stack.push(i);
  }
  const area = view.innerWidth * view.innerHeight, big = (el) => { const r = call(el, 'getBoundingClientRect'); return r.width * r.height >= area / 2; };
  // Words of its own outside the items it holds: a mail row's sender and subject. A title bar or a
  // menu whose every word is a listed item's would only repeat their names.
  const items = new Set(els), NO_TEXT = new Set(['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT']);
  const says = (c) => {
    const walk = call(doc, 'createTreeWalker', c, NodeFilter.SHOW_TEXT);
    let n = 0;
    for (let t = walk.nextNode(); t && n < 500; t = walk.nextNode(), n++) {
      if (!t.data.trim()) continue;
      let p = read(t, 'parentElement');
      while (p && p !== c && !items.has(p) && !NO_TEXT.has(read(p, 'tagName'))) p = read(p, 'parentElement');
      if (p === c) return true;
    }
    return false;
  };
  const keep = els.map((el, i) => forced.has(el) || flags[i] === 0 || inside[i] === 0 || (flags[i] === 2 && inside[i] <= DELEGATION && !big(el) && says(el)));
  const at = new Int32Array(els.length);
  let n = 0;
  for (let i = 0; i < els.length; i++) at[i] = keep[i] ? n++ : -1;
  // An ancestor left out hands its place to its own nearest kept ancestor.
  const kept = [], keptFlags = [], keptUp = [];
  for (let i = 0; i < els.length; i++) {
    if (!keep[i]) continue;
    let j = up[i];
    while (j >= 0 && !keep[j]) j = up[j];
    kept.push(els[i]); keptFlags.push(flags[i] ? 1 : 0); keptUp.push(j >= 0 ? at[j] : -1);
  }
  return { els: kept, flags: Uint8Array.from(keptFlags), up: Int32Array.from(keptUp) };
}")]
extern "C" {
    fn listed(root: &JsValue, selector: &str, attributes: &js_sys::Array, listens: &js_sys::Array, holders: &str, faces: &js_sys::Array) -> JsValue;
}

/// One candidate: the element, whether only script makes it clickable, and the position (in the
/// same list) of the nearest candidate it sits in.
pub struct Candidate {
    pub el: Element,
    pub scripted: bool,
    pub up: Option<usize>,
}

/// The root's candidates in document order. `attributes`: every attribute `selector` reads;
/// `faces`: elements listed in a hidden control's place (read::faces), handler or not.
pub fn candidates(root: &Root, selector: &str, attributes: &[&str], faces: &js_sys::Array) -> Vec<Candidate> {
    let node: JsValue = match &root.node {
        RootNode::Doc(d) => d.clone().into(),
        RootNode::Shadow(s) => s.clone().into(),
    };
    let attributes: js_sys::Array = attributes.iter().map(|a| JsValue::from_str(a)).collect();
    let raw = listed(&node, selector, &attributes, &crate::listeners::held(), dusk_core::page::elements::IMAGE_HOLDERS, faces);
    let get = |k: &str| js_sys::Reflect::get(&raw, &k.into()).unwrap_or(JsValue::UNDEFINED);
    let els: js_sys::Array = get("els").unchecked_into();
    let flags = get("flags").dyn_into::<js_sys::Uint8Array>().map(|a| a.to_vec()).unwrap_or_default();
    let up = get("up").dyn_into::<js_sys::Int32Array>().map(|a| a.to_vec()).unwrap_or_default();
    // Elements of a same-origin frame belong to its realm, so `instanceof Element` here fails.
    (0..els.length())
        .map(|i| Candidate {
            el: els.get(i).unchecked_into::<Element>(),
            scripted: flags.get(i as usize) == Some(&1),
            up: up.get(i as usize).and_then(|&u| usize::try_from(u).ok()).filter(|&u| u < i as usize),
        })
        .collect()
}
