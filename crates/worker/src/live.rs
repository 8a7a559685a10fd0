//! Runs alive in this worker, one per window, and the side panels listening to each window.
//! Events go to every panel of the window and into the run's log, which a panel that reconnects
//! gets first. Chat and the browser agent each keep one `Live` of their own event type.

use dusk_chrome::message::to_js;
use dusk_chrome::runtime::Port;
use dusk_core::agent::StopSignal;
use serde::Serialize;
use std::cell::RefCell;
use wasm_bindgen::JsValue;
use web_sys::AbortController;

struct LiveRun<E> {
    window_id: i32,
    stop: StopSignal,
    controller: AbortController,
    log: Vec<E>,
}

pub struct Live<E> {
    runs: RefCell<Vec<LiveRun<E>>>,
    ports: RefCell<Vec<(i32, Port)>>,
}

impl<E: Serialize + Clone> Live<E> {
    pub fn new() -> Self {
        Live { runs: RefCell::new(Vec::new()), ports: RefCell::new(Vec::new()) }
    }

    pub fn subscribe(&self, window_id: i32, port: &Port) {
        let mut ports = self.ports.borrow_mut();
        if !ports.iter().any(|(w, q)| *w == window_id && js_sys::Object::is(q, port)) {
            ports.push((window_id, port.clone()));
        }
    }

    pub fn unsubscribe(&self, port: &Port) {
        self.ports.borrow_mut().retain(|(_, q)| !js_sys::Object::is(q, port));
    }

    /// Registers a run for the window; false if one is already alive there.
    pub fn start(&self, window_id: i32, stop: StopSignal, controller: AbortController, log: Vec<E>) -> bool {
        let mut runs = self.runs.borrow_mut();
        if runs.iter().any(|r| r.window_id == window_id) {
            return false;
        }
        runs.push(LiveRun { window_id, stop, controller, log });
        true
    }

    pub fn finish(&self, window_id: i32) {
        self.runs.borrow_mut().retain(|r| r.window_id != window_id);
    }

    pub fn is_running(&self, window_id: i32) -> bool {
        self.runs.borrow().iter().any(|r| r.window_id == window_id)
    }

    /// Stop: the runtime sees the signal at once; the abort ends the HTTP stream.
    pub fn stop(&self, window_id: i32) {
        for r in self.runs.borrow().iter().filter(|r| r.window_id == window_id) {
            r.stop.stop();
            r.controller.abort_with_reason(&JsValue::from_str("stop"));
        }
    }

    /// The events so far of the window's live run, if it has one.
    pub fn replay(&self, window_id: i32) -> Option<Vec<E>> {
        self.runs.borrow().iter().find(|r| r.window_id == window_id).map(|r| r.log.clone())
    }

    /// Sends to every panel of the window; `keep` updates the run's log for panels that come later.
    pub fn emit(&self, window_id: i32, event: &E, keep: impl FnOnce(&mut Vec<E>, &E)) {
        if let Some(run) = self.runs.borrow_mut().iter_mut().find(|r| r.window_id == window_id) {
            keep(&mut run.log, event);
        }
        self.post(window_id, event);
    }

    /// Sends to every panel of the window without logging.
    pub fn post(&self, window_id: i32, event: &E) {
        let message = to_js(event);
        for (_, port) in self.ports.borrow().iter().filter(|(w, _)| *w == window_id) {
            // A closed port only means that panel went away; the run goes on.
            let _ = port.post_message(&message);
        }
    }
}
