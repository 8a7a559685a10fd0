//! Runs alive in this worker, and the side panels listening to each window. Events go to every
//! panel of the window and into the run's log, which a panel that reconnects gets first.

use dusk_chrome::message::to_js;
use dusk_chrome::runtime::Port;
use dusk_core::agent::StopSignal;
use dusk_core::chat::ChatSink;
use dusk_core::protocol::ChatEvent;
use std::cell::RefCell;
use wasm_bindgen::JsValue;
use web_sys::AbortController;

struct LiveRun {
    window_id: i32,
    stop: StopSignal,
    controller: AbortController,
    log: Vec<ChatEvent>,
}

thread_local! {
    static LIVE: RefCell<Vec<LiveRun>> = const { RefCell::new(Vec::new()) };
    static PORTS: RefCell<Vec<(i32, Port)>> = const { RefCell::new(Vec::new()) };
}

pub fn subscribe(window_id: i32, port: &Port) {
    PORTS.with(|p| {
        let mut ports = p.borrow_mut();
        if !ports.iter().any(|(w, q)| *w == window_id && js_sys::Object::is(q, port)) {
            ports.push((window_id, port.clone()));
        }
    });
}

pub fn unsubscribe(port: &Port) {
    PORTS.with(|p| p.borrow_mut().retain(|(_, q)| !js_sys::Object::is(q, port)));
}

/// Registers a run for the window; false if one is already alive there.
pub fn start(window_id: i32, stop: StopSignal, controller: AbortController, log: Vec<ChatEvent>) -> bool {
    LIVE.with(|l| {
        let mut live = l.borrow_mut();
        if live.iter().any(|r| r.window_id == window_id) {
            return false;
        }
        live.push(LiveRun { window_id, stop, controller, log });
        true
    })
}

pub fn finish(window_id: i32) {
    LIVE.with(|l| l.borrow_mut().retain(|r| r.window_id != window_id));
}

/// Stop: the runtime sees the signal at once; the abort ends the HTTP stream.
pub fn stop(window_id: i32) {
    LIVE.with(|l| {
        for r in l.borrow().iter().filter(|r| r.window_id == window_id) {
            r.stop.stop();
            r.controller.abort_with_reason(&JsValue::from_str("stop"));
        }
    });
}

/// The events so far of the window's live run, if it has one.
pub fn replay(window_id: i32) -> Option<Vec<ChatEvent>> {
    LIVE.with(|l| l.borrow().iter().find(|r| r.window_id == window_id).map(|r| r.log.clone()))
}

/// Sends to every panel of the window, and logs for panels that come later.
pub struct WindowSink(pub i32);

impl ChatSink for WindowSink {
    fn emit(&self, event: ChatEvent) {
        LIVE.with(|l| {
            if let Some(run) = l.borrow_mut().iter_mut().find(|r| r.window_id == self.0) {
                if event == ChatEvent::ResetAnswer {
                    while matches!(run.log.last(), Some(ChatEvent::Delta { .. })) {
                        run.log.pop();
                    }
                } else {
                    run.log.push(event.clone());
                }
            }
        });
        let message = to_js(&event);
        PORTS.with(|p| {
            for (_, port) in p.borrow().iter().filter(|(w, _)| *w == self.0) {
                // A closed port only means that panel went away; the answer is still saved.
                let _ = port.post_message(&message);
            }
        });
    }
}
