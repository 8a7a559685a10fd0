//! Follows the page: a MutationObserver and load events feed one batched refresh per frame.

use js_sys::Array;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use web_sys::{MutationObserver, MutationObserverInit};

#[wasm_bindgen(inline_js = "import { getter, read } from 'dusk-unshadowed';
// What the page's mutations touched since the last batch, noted without entering wasm: a chat
// streaming its reply appends text only, dozens of times a second.
let added = [], touched = [], styled = [], active = false;
// Read for every record (a dashboard's tick brings a thousand): the prototypes' own getters.
const docOf = getter(Node, 'ownerDocument'), typeOf = getter(Node, 'nodeType'), nameOf = getter(Node, 'nodeName'), firstElementOf = getter(Element, 'firstElementChild');
const hiddenOf = getter(Document, 'hidden');
// rAF may be throttled in a frame below the top one while visible.
const subframe = (() => { try { return window.top !== window; } catch { return true; } })();
// One batch before the next paint: scheduled here, so a frame's mutations cost no call into wasm.
let scheduled = false, run = null, hidden = null;
const fire = () => { if (scheduled) { scheduled = false; run(); } };
// The tab's visibility, kept from its events: a batch touches no more of Blink than it must, as
// each interface's first call in a task costs more than the call itself.
function isHidden() {
  if (hidden === null) {
    hidden = hiddenOf(document);
    document.addEventListener('visibilitychange', () => {
      hidden = hiddenOf(document);
      // A tab hidden while its batch waits for a frame runs it on the timer instead.
      if (scheduled && hidden) setTimeout(fire, 250);
    });
  }
  return hidden;
}
// `batch`: the batch to run (always the same function).
export function schedule(batch) { run = batch; request(); }
function request() {
  if (scheduled || !run) return;
  scheduled = true;
  requestAnimationFrame(fire);
  // rAF never fires in a hidden tab (nor in an offscreen frame); the timer keeps the theme
  // current there too. A visible top document's rAF comes before its next paint: no timer task.
  if (subframe || isHidden()) setTimeout(fire, 250);
}
export function is_scheduled(batch) { return scheduled && run === batch; }
// The first change after a frame's batch is themed in a microtask of the page's own task: what
// the page just touched is still warm, and a change the page makes in its own frame callback is
// dark in that frame. Changes after it within the frame wait for the frame's batch.
let lastSoon = -Infinity;
// A microtask by V8's own promise rather than `queueMicrotask`, one more interface of Blink's.
const settled = Promise.resolve();
function requestSoon() {
  if (scheduled || !run) return;
  // V8's clock, not Blink's `performance`; a clock set back starts the window afresh.
  const now = Date.now();
  if (now < lastSoon) lastSoon = -Infinity;
  if (subframe || now - lastSoon < 16 || isHidden()) return request();
  lastSoon = now;
  scheduled = true;
  settled.then(fire);
}
// A sheet that loads after its element was added: 1, a <link>'s (read as an added sheet); 2, one
// with @import rules (an import's rules are read with the whole scope; the sheet itself may have
// been read before they came). Other loads (images, scripts) change no sheet: 0.
function sheetLoad(t) {
  const name = nameOf(t);
  const link = name === 'LINK' || name === 'link';
  if (!link && name !== 'STYLE' && name !== 'style') return 0;
  try {
    const rules = t.sheet?.cssRules;
    for (let i = 0; rules && i < rules.length && i < 8; i++) if (rules[i].type === 3) return 2;
    return link ? 1 : 0;
  } catch { return link ? 1 : 0; }
}
// `imports`: notes that the next batch reads every scope whole, and schedules it.
export function listen_sheet_loads(batch, imports) {
  document.addEventListener('load', (e) => { const k = sheetLoad(e.target); if (k === 2) imports(); else if (k) schedule(batch); }, true);
}
// The roots observed, so a batch writing inline styles can stop observing while it writes: its
// own writes then cost no records (a dashboard's tick: hundreds).
// Held weakly, as the observer holds what it observes: a root the page let go is dropped.
let roots = [];
let handler = null, held = [], observing = null, observingInit = null;
// Whether a root of another document (a same-origin frame's) is observed: only then does a
// record's target need its document read.
let foreign = false;
export function watch_root(observer, root, init) {
  observing = observer;
  observingInit = init;
  if ((docOf(root) || root) !== document) foreign = true;
  roots = roots.filter((r) => r.deref());
  if (!roots.some((r) => r.deref() === root)) roots.push(new WeakRef(root));
  observer.observe(root, init);
}
export function unwatch_all(observer) { roots.length = 0; foreign = false; observer.disconnect(); }
export function hold(observer) {
  held = observer.takeRecords();
  observer.disconnect();
}
export function resume(observer, init) {
  for (const r of roots) { const root = r.deref(); if (root) observer.observe(root, init); }
  const recs = held;
  held = [];
  if (recs.length && handler) handler(recs);
}
export function observer_callback(on_work, batch, repaint) {
  run = batch;
  return handler = (records) => {
    let batch = false, removed = false, painting = false;
    const others = [];
    // With dark mode on, a restyled element whose value the theme knows is painted in this callback.
    const now = active && repaint;
    // A dashboard's records come in runs on one target (its style, then its text).
    let last = null, mine = true;
    for (const r of records) {
      const t = r.target;
      if (t !== last) { last = t; mine = !foreign || (docOf(t) || t) === document; }
      if (!mine) { others.push(r); continue; }
      // A new `style` needs its marker only; another attribute may be a legacy colour.
      if (r.type === 'attributes') {
        if (r.attributeName !== 'style') touched.push(t);
        else if (now && now(t)) { painting = true; continue; }
        else styled.push(t);
        batch = true;
        continue;
      }
      // An element with no element child now kept none of what was added (a node moved on has
      // a record of its own): a cell whose text changed costs no list of added nodes.
      if (typeOf(t) !== 1 || firstElementOf(t) !== null) {
        const a = r.addedNodes;
        for (let i = 0; i < a.length; i++) { const n = a[i]; if (typeOf(n) === 1) { added.push(n); batch = true; } }
      }
      if (batch) continue;
      // Text under a <style> is a sheet; a removed node may take a sheet with it.
      const name = nameOf(t);
      if (name === 'STYLE' || name === 'style') batch = true;
      else removed = true;
    }
    // Counted, not read node by node: a cell's text replaced costs no list of removed nodes.
    if (removed && !batch && sheetCount() !== sheetsSeen) batch = true;
    if (painting) { hold(observing); repaint(null); resume(observing, observingInit); }
    if (others.length || !active) { active = on_work(others); requestSoon(); }
    else if (batch) requestSoon();
  };
}
// The sheets of every observed scope, as the last batch found them.
const sheetsOf = (root) => read(root, 'styleSheets').length;
let sheetsSeen = -1;
function sheetCount() {
  let n = 0;
  for (const r of roots) { const root = r.deref(); if (root) n += sheetsOf(root); }
  return n;
}
export function take_pending() {
  sheetsSeen = sheetCount();
  const out = [added, touched, styled];
  added = [];
  touched = [];
  styled = [];
  return out;
}")]
extern "C" {
    /// The MutationObserver's callback: it notes records and schedules the batch itself; it calls
    /// `on_work(others)` (records of other documents; it answers whether dark mode is on) only
    /// when there are such records, or when it last answered no.
    /// `repaint(element)` paints a restyled element whose value the theme knows (`inline`);
    /// undefined: none is.
    fn observer_callback(on_work: &js_sys::Function, batch: &js_sys::Function, repaint: &JsValue) -> js_sys::Function;
    /// What the page's mutations touched since the last batch: [added, touched, styled].
    pub(super) fn take_pending() -> Array;
    // Each takes the batch: an import with no argument skips the glue (short_imports.mjs).
    #[wasm_bindgen(js_name = schedule)]
    fn schedule_batch(batch: &js_sys::Function);
    fn is_scheduled(batch: &js_sys::Function) -> bool;
    fn listen_sheet_loads(batch: &js_sys::Function, imports: &js_sys::Function);
    fn watch_root(observer: &MutationObserver, root: &JsValue, init: &MutationObserverInit);
    fn unwatch_all(observer: &MutationObserver);
    fn hold(observer: &MutationObserver);
    fn resume(observer: &MutationObserver, init: &MutationObserverInit);
}

thread_local! {
    static OBSERVER: RefCell<Option<MutationObserver>> = const { RefCell::new(None) };
    /// The page side's repaint of restyled elements (`inline::repainter`), handed over at start.
    static REPAINT: RefCell<Option<js_sys::Function>> = const { RefCell::new(None) };
    /// What every root is observed for.
    static INIT: MutationObserverInit = {
        let init = MutationObserverInit::new();
        init.set_child_list(true);
        init.set_subtree(true);
        init.set_attributes(true);
        init.set_attribute_filter(&ATTRIBUTES.iter().map(|a| JsValue::from_str(a)).collect::<Array>());
        init
    };
    /// The batch the JS side schedules: `super::run_batch`.
    static BATCH: js_sys::Function = Closure::<dyn FnMut()>::new(super::run_batch).into_js_value().unchecked_into();
}

/// Attributes whose changes can change the theme.
const ATTRIBUTES: [&str; 7] = ["style", "bgcolor", "color", "text", "fill", "stroke", "media"];

/// What the observer's callback repaints restyled elements with (given before any root is observed).
pub fn repaint_with(repaint: js_sys::Function) {
    REPAINT.with(|r| *r.borrow_mut() = Some(repaint));
}

/// Starts observing a scope root (the document or a shadow root) for added nodes and restyles.
pub fn observe(root: &JsValue) {
    OBSERVER.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
            // Records are noted on the JS side; wasm is entered only for other documents' records.
            let work = Closure::<dyn FnMut(Array) -> bool>::new(|others: Array| super::on_mutations(&others));
            let repaint = REPAINT.with(|r| r.borrow().clone()).map_or(JsValue::UNDEFINED, JsValue::from);
            *slot = BATCH.with(|batch| MutationObserver::new(&observer_callback(work.as_ref().unchecked_ref(), batch, &repaint)).ok());
            work.forget();
        }
        if let Some(observer) = slot.as_ref() {
            INIT.with(|init| watch_root(observer, root, init));
        }
    });
}

pub fn disconnect() {
    OBSERVER.with(|cell| {
        if let Some(o) = cell.borrow().as_ref() {
            unwatch_all(o);
        }
    });
}

/// Runs `f` (which writes inline styles) unobserved: its writes make no records, and records
/// the page made before are noted as usual once observing again.
pub fn unobserved(f: impl FnOnce()) {
    // Cloned out: the records noted on resume may reach wasm, which may observe a new root.
    match OBSERVER.with(|cell| cell.borrow().clone()) {
        Some(o) => {
            hold(&o);
            f();
            INIT.with(|init| resume(&o, init));
        }
        None => f(),
    }
}

/// A batch is waiting for the next frame.
pub fn pending() -> bool {
    BATCH.with(is_scheduled)
}

/// Runs `super::run_batch` once before the next paint (or soon, if the tab is hidden).
pub fn schedule() {
    BATCH.with(schedule_batch);
}

/// DOMContentLoaded, window load and every stylesheet load (load events captured on document).
pub fn listen_document_events() {
    let Some(window) = web_sys::window() else { return };
    let Some(document) = window.document() else { return };
    let ready = Closure::<dyn FnMut()>::new(super::on_dom_ready);
    let _ = document.add_event_listener_with_callback("DOMContentLoaded", ready.as_ref().unchecked_ref());
    ready.forget();
    let imports = Closure::<dyn FnMut()>::new(|| {
        super::with(|s| {
            s.imports_arrived = true;
            s.cache.forget_texts();
        });
        schedule();
    });
    BATCH.with(|batch| listen_sheet_loads(batch, imports.as_ref().unchecked_ref()));
    imports.forget();
    let page = Closure::<dyn FnMut()>::new(super::on_page_load);
    let _ = window.add_event_listener_with_callback("load", page.as_ref().unchecked_ref());
    page.forget();
}

/// Runs `f` in a task of its own, after the current message has been answered.
pub fn after_reply(f: fn()) {
    let Some(window) = web_sys::window() else { return };
    let once = Closure::once_into_js(f);
    let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(once.unchecked_ref(), 0);
}

/// Runs `f` after the next frame has been styled and painted (a frame, then a task).
pub fn after_paint(f: fn()) {
    let Some(window) = web_sys::window() else { return };
    let then = Closure::once_into_js(move || after_reply(f));
    let _ = window.request_animation_frame(then.unchecked_ref());
}
