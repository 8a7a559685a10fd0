//! The elements the page gave click-like listeners, as the worker found them with the debugger
//! (`click_listeners`, before a listing): Dusk runs nothing in the page's own world to learn it
//! (docs/architecture.md, "Listener probe"). read::clickable lists them. A MutationObserver (in
//! this isolated world, unseen by the page) records what the page adds between two listings, so
//! the worker asks the debugger about only that (`listener_changes`), or nothing at all.

use dusk_core::page::listeners::{flatten, scope, ListenerChanges, Scope, Seen, ADDED_NODES, ADDED_ROOTS, FRAME_DOCUMENT, SHADOW_ROOT};
use std::cell::{Cell, RefCell};
use wasm_bindgen::prelude::*;
use web_sys::Document;

#[wasm_bindgen(inline_js = "import { read, call } from 'dusk-unshadowed';

let watch = null, roots = [], added = [], overflow = false;
const record = (records, cap) => {
  for (const r of records) for (const n of r.addedNodes) {
    if (read(n, 'nodeType') !== 1) continue;
    if (added.length >= cap) { overflow = true; return; }
    added.push(n);
  }
};
export function track(list, cap) {
  if (watch) watch.disconnect();
  roots = list; added = []; overflow = false;
  watch = new MutationObserver((records) => record(records, cap));
  for (const r of list) watch.observe(r, { childList: true, subtree: true });
}
export function take(cap, maxRoots) {
  if (!watch) return { alive: false };
  record(watch.takeRecords(), cap);
  const alive = roots.every((r) => (read(r, 'nodeType') === 9 ? read(r, 'defaultView') : read(r, 'host') && read(read(r, 'host'), 'isConnected')));
  const seen = new Set();
  for (const n of added) if (read(n, 'isConnected')) seen.add(n);
  const was = overflow;
  added = []; overflow = false;
  // Top-most only: a subtree's lookup covers everything under it.
  const tops = [];
  for (const n of seen) {
    let inside = false;
    for (let p = read(n, 'parentNode'); p; p = read(p, 'parentNode')) if (seen.has(p)) { inside = true; break; }
    if (!inside) tops.push(n);
    if (tops.length > maxRoots) break;
  }
  let newRoots = false;
  for (let t = 0; t < tops.length && !newRoots && tops.length <= maxRoots; t++) {
    const el = tops[t], all = call(el, 'getElementsByTagName', '*');
    newRoots = Boolean(read(el, 'shadowRoot')) || read(el, 'tagName') === 'IFRAME' || read(el, 'tagName') === 'FRAME';
    for (let i = 0; i < all.length && !newRoots; i++) newRoots = Boolean(read(all[i], 'shadowRoot')) || read(all[i], 'tagName') === 'IFRAME' || read(all[i], 'tagName') === 'FRAME';
  }
  return { alive, overflow: was, tops, newRoots };
}
// Each element's steps down from the top document, flattened as the worker sends paths.
export function paths(doc, els, shadow, frame) {
  const flat = [];
  for (const el of els) {
    const steps = [];
    let n = el;
    for (;;) {
      if (read(n, 'nodeType') === 1) {
        const p = read(n, 'parentNode');
        if (!p) break;
        let i = 0;
        for (let c = read(p, 'firstElementChild'); c && c !== n; c = read(c, 'nextElementSibling')) i++;
        steps.push(i);
        n = p;
      } else if (read(n, 'nodeType') === 11 && read(n, 'host')) {
        steps.push(shadow);
        n = read(n, 'host');
      } else if (read(n, 'nodeType') === 9 && n !== doc && read(n, 'defaultView') && read(n, 'defaultView').frameElement) {
        steps.push(frame);
        n = read(n, 'defaultView').frameElement;
      } else break;
    }
    if (n === doc) flat.push(steps.length, ...steps.reverse());
  }
  return flat;
}
export function resolve(doc, flat, shadow, frame) {
  const out = [];
  for (let i = 0; i < flat.length; ) {
    const end = i + 1 + flat[i];
    let n = doc;
    for (i++; n && i < end; i++) {
      const s = flat[i];
      n = s === shadow ? read(n, 'shadowRoot') : s === frame ? (read(n, 'tagName') === 'IFRAME' || read(n, 'tagName') === 'FRAME' ? n.contentDocument : null) : read(n, 'children') ? read(n, 'children')[s] : null;
    }
    i = end;
    if (n && read(n, 'nodeType') === 1) out.push(n);
  }
  return out;
}
export function merge(kept, found) {
  const out = kept.filter((el) => read(el, 'isConnected')), have = new Set(out);
  for (const el of found) if (!have.has(el)) out.push(el);
  return out;
}")]
extern "C" {
    fn track(roots: &js_sys::Array, cap: u32);
    fn take(cap: u32, max_roots: u32) -> JsValue;
    fn paths(doc: &Document, els: &js_sys::Array, shadow: i32, frame: i32) -> Vec<i32>;
    /// `flat`: each path as its length, then its steps.
    fn resolve(doc: &Document, flat: &[i32], shadow: i32, frame: i32) -> js_sys::Array;
    fn merge(kept: &js_sys::Array, found: &js_sys::Array) -> js_sys::Array;
}

thread_local! {
    static HELD: RefCell<js_sys::Array> = RefCell::new(js_sys::Array::new());
    static STATE: Cell<State> = const { Cell::new(State::Fresh) };
}

#[derive(Clone, Copy, PartialEq)]
enum State {
    /// No lookup handed over in this document yet.
    Fresh,
    /// `changes` answered; the lookup it asked for is not handed over yet.
    Asked,
    /// Every lookup asked for was handed over; additions are recorded since.
    Current,
}

/// Starts recording additions in every root the page layer walks, from now on.
fn watch(doc: &Document) {
    let roots: js_sys::Array = crate::walk::roots(doc)
        .into_iter()
        .map(|r| match r.node {
            crate::walk::RootNode::Doc(d) => JsValue::from(d),
            crate::walk::RootNode::Shadow(s) => JsValue::from(s),
        })
        .collect();
    track(&roots, ADDED_NODES);
}

/// What was added since the last `set`; until the next `set` hands a lookup over, the next call
/// asks for the whole page (the additions taken here would otherwise be lost).
pub fn changes(doc: &Document) -> ListenerChanges {
    let raw = take(ADDED_NODES, ADDED_ROOTS as u32);
    let get = |k: &str| js_sys::Reflect::get(&raw, &k.into()).unwrap_or(JsValue::UNDEFINED);
    let tops: js_sys::Array = get("tops").dyn_into().unwrap_or_default();
    let seen = Seen {
        handed: STATE.with(Cell::get) == State::Current,
        roots_alive: get("alive").is_truthy(),
        overflow: get("overflow").is_truthy(),
        added_roots: tops.length() as usize,
        new_roots: get("newRoots").is_truthy(),
    };
    match scope(&seen) {
        Scope::Nothing => ListenerChanges::default(),
        Scope::Whole => {
            watch(doc);
            STATE.with(|s| s.set(State::Asked));
            ListenerChanges { full: true, added: vec![] }
        }
        Scope::Subtrees => {
            STATE.with(|s| s.set(State::Asked));
            ListenerChanges { full: false, added: unflatten(&paths(doc, &tops, SHADOW_ROOT, FRAME_DOCUMENT)) }
        }
    }
}

fn unflatten(flat: &[i32]) -> Vec<Vec<i32>> {
    let mut out = vec![];
    let mut i = 0;
    while i < flat.len() {
        let end = (i + 1 + flat[i].max(0) as usize).min(flat.len());
        out.push(flat[i + 1..end].to_vec());
        i = end;
    }
    out
}

/// Keeps the elements the paths lead to (instead of those kept, or beside them with `add`), for
/// the listings until the next call; how many there are now.
pub fn set(doc: &Document, found_paths: &[Vec<i32>], add: bool) -> u32 {
    let found = resolve(doc, &flatten(found_paths), SHADOW_ROOT, FRAME_DOCUMENT);
    match STATE.with(Cell::get) {
        State::Asked => STATE.with(|s| s.set(State::Current)),
        // A whole lookup sent without `listener_changes` first (the layer was loading): watch from here on.
        _ if !add => {
            watch(doc);
            STATE.with(|s| s.set(State::Current));
        }
        _ => {}
    }
    HELD.with(|h| {
        let mut held = h.borrow_mut();
        *held = if add { merge(&held, &found) } else { found };
        held.length()
    })
}

/// The elements last set, some of which may have left the page since.
pub fn held() -> js_sys::Array {
    HELD.with(|h| h.borrow().clone())
}
