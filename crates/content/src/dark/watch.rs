//! Follows the page: a MutationObserver and load events feed one batched refresh per frame.

use js_sys::Array;
use std::cell::{Cell, RefCell};
use wasm_bindgen::prelude::*;
use web_sys::{MutationObserver, MutationObserverInit};

thread_local! {
    static OBSERVER: RefCell<Option<MutationObserver>> = const { RefCell::new(None) };
    static SCHEDULED: Cell<bool> = const { Cell::new(false) };
    static BATCH: RefCell<Option<Closure<dyn FnMut()>>> = const { RefCell::new(None) };
    /// This layer runs in a frame below the top one, where rAF may be throttled while visible.
    static SUBFRAME: bool = web_sys::window().is_some_and(|w| w.top().ok().flatten().is_none_or(|t| !js_sys::Object::is(&t, &w)));
}

/// Attributes whose changes can change the theme.
const ATTRIBUTES: [&str; 7] = ["style", "bgcolor", "color", "text", "fill", "stroke", "media"];

/// Starts observing a scope root (the document or a shadow root) for added nodes and restyles.
pub fn observe(root: &JsValue) {
    OBSERVER.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
            // Records are noted on the JS side; wasm is entered only when a batch has work.
            let work = Closure::<dyn FnMut(bool, bool, Array) -> bool>::new(|batch, added, others: Array| super::on_mutations(batch, added, &others));
            *slot = MutationObserver::new(&super::grow::observer_callback(work.as_ref().unchecked_ref())).ok();
            work.forget();
        }
        // Unchecked: a same-origin frame's document is a Node of another realm.
        if let (Some(observer), Some(node)) = (slot.as_ref(), Some(root.unchecked_ref::<web_sys::Node>())) {
            let init = MutationObserverInit::new();
            init.set_child_list(true);
            init.set_subtree(true);
            init.set_attributes(true);
            init.set_attribute_filter(&ATTRIBUTES.iter().map(|a| JsValue::from_str(a)).collect::<Array>());
            let _ = observer.observe_with_options(node, &init);
        }
    });
}

pub fn disconnect() {
    OBSERVER.with(|cell| {
        if let Some(o) = cell.borrow().as_ref() {
            o.disconnect();
        }
    });
}

/// Runs `super::run_batch` once before the next paint (or soon, if the tab is hidden).
/// A batch is waiting for the next frame.
pub fn pending() -> bool {
    SCHEDULED.with(|s| s.get())
}

pub fn schedule() {
    if SCHEDULED.with(|s| s.replace(true)) {
        return;
    }
    let Some(window) = web_sys::window() else { return };
    BATCH.with(|cell| {
        let mut slot = cell.borrow_mut();
        let batch = slot.get_or_insert_with(|| {
            let batch = Closure::<dyn FnMut()>::new(|| {
                if SCHEDULED.with(|s| s.replace(false)) {
                    super::run_batch();
                }
            });
            // A tab hidden while its batch waits for a frame runs it on the timer instead.
            let hidden = Closure::<dyn FnMut()>::new(|| {
                let Some(window) = web_sys::window() else { return };
                if SCHEDULED.with(|s| s.get()) && window.document().is_some_and(|d| d.hidden()) {
                    BATCH.with(|cell| {
                        if let Some(f) = cell.borrow().as_ref() {
                            let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(f.as_ref().unchecked_ref(), 250);
                        }
                    });
                }
            });
            if let Some(doc) = window.document() {
                let _ = doc.add_event_listener_with_callback("visibilitychange", hidden.as_ref().unchecked_ref());
            }
            hidden.forget();
            batch
        });
        let f: &js_sys::Function = batch.as_ref().unchecked_ref();
        let _ = window.request_animation_frame(f);
        // rAF never fires in a hidden tab (nor in an offscreen frame); the timer keeps the theme
        // current there too. A visible top document's rAF comes before its next paint: no timer
        // task per batch there.
        if SUBFRAME.with(|s| *s) || window.document().is_none_or(|d| d.hidden()) {
            let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(f, 250);
        }
    });
}

/// DOMContentLoaded, window load and every stylesheet load (load events captured on document).
pub fn listen_document_events() {
    let Some(window) = web_sys::window() else { return };
    let Some(document) = window.document() else { return };
    let ready = Closure::<dyn FnMut()>::new(super::on_dom_ready);
    let _ = document.add_event_listener_with_callback("DOMContentLoaded", ready.as_ref().unchecked_ref());
    ready.forget();
    let resource = Closure::<dyn FnMut()>::new(schedule);
    let _ = document.add_event_listener_with_callback_and_bool("load", resource.as_ref().unchecked_ref(), true);
    resource.forget();
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
