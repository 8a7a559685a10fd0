//! While the parser builds the document, the layer follows it frame by frame instead of through
//! the MutationObserver: observed, every node the parser inserts makes Blink write a mutation
//! record, and that garbage grows the tab's Oilpan heap for good (+4.5 MB on a page of 17k
//! elements). The fallback CSS covers those frames; each frame in which the document grew runs
//! the batch, which reads the scope whole, and the observer takes over once the DOM is parsed.

use super::{document, watch};
use std::cell::{Cell, RefCell};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Document, HtmlCollection};

struct Waiting {
    doc: Document,
    /// Every element of the document (a live list): its length says whether the parser added any.
    all: HtmlCollection,
    seen: u32,
}

thread_local! {
    static WAITING: RefCell<Option<Waiting>> = const { RefCell::new(None) };
    /// The frame request and the timer waiting to tick: the first to fire cancels the other.
    static TICKING: Cell<Option<(i32, i32)>> = const { Cell::new(None) };
    static TICK: RefCell<Option<Closure<dyn FnMut()>>> = const { RefCell::new(None) };
}

/// Observes a scope root now, or, for the top document while it is being parsed, once it is.
pub(super) fn observe(root: &JsValue) {
    let parsing = document().filter(|d| js_sys::Object::is(d, root) && d.ready_state() == "loading");
    let Some(doc) = parsing else { return watch::observe(root) };
    let all = doc.get_elements_by_tag_name("*");
    WAITING.with(|w| *w.borrow_mut() = Some(Waiting { seen: all.length(), doc, all }));
    next();
}

/// The DOM is parsed: the observer takes over, if it was waiting, and what the parser added
/// since the last frame is read now, whole, as the batch of its records would have read it.
pub(super) fn parsed() {
    if let Some(w) = WAITING.with(|w| w.borrow_mut().take()) {
        if w.doc.ready_state() != "loading" {
            watch::observe(w.doc.as_ref());
            super::run_batch();
        }
    }
}

/// Dark mode went off while the page was still being parsed: nothing to follow any more.
pub(super) fn stop() {
    WAITING.with(|w| w.borrow_mut().take());
}

fn next() {
    if TICKING.with(Cell::get).is_some() {
        return;
    }
    let Some(window) = web_sys::window() else { return };
    TICK.with(|cell| {
        let mut slot = cell.borrow_mut();
        let f = slot.get_or_insert_with(|| Closure::<dyn FnMut()>::new(tick));
        let f = f.as_ref().unchecked_ref();
        let frame = window.request_animation_frame(f).unwrap_or_default();
        // rAF never fires in a hidden tab.
        let timer = window.set_timeout_with_callback_and_timeout_and_arguments_0(f, 250).unwrap_or_default();
        TICKING.with(|t| t.set(Some((frame, timer))));
    });
}

fn tick() {
    let Some((frame, timer)) = TICKING.with(Cell::take) else { return };
    if let Some(window) = web_sys::window() {
        let _ = window.cancel_animation_frame(frame);
        window.clear_timeout_with_handle(timer);
    }
    let (grew, done) = WAITING.with(|w| {
        let mut w = w.borrow_mut();
        let Some(w) = w.as_mut() else { return (false, false) };
        let n = w.all.length();
        let grew = n != w.seen;
        w.seen = n;
        (grew, w.doc.ready_state() != "loading")
    });
    // Once parsed, `parsed` runs the batch itself.
    if done {
        return parsed();
    }
    if WAITING.with(|w| w.borrow().is_some()) {
        next();
    }
    if grew {
        watch::schedule();
    }
}
