//! The chat's live runs and panels, on the worker's generic `Live`.

use crate::live::Live;
use dusk_chrome::runtime::Port;
use dusk_core::agent::StopSignal;
use dusk_core::chat::ChatSink;
use dusk_core::protocol::ChatEvent;
use std::cell::RefCell;
use web_sys::AbortController;

thread_local! {
    static LIVE: Live<ChatEvent> = Live::new();
    /// Events held until the task that emitted them has sent its request (`WindowSink`).
    static HELD: RefCell<Vec<(i32, ChatEvent)>> = const { RefCell::new(Vec::new()) };
}

pub fn subscribe(window_id: i32, port: &Port) {
    LIVE.with(|l| l.subscribe(window_id, port));
}

pub fn unsubscribe(port: &Port) {
    LIVE.with(|l| l.unsubscribe(port));
}

/// Registers a run for the window; false if one is already alive there.
pub fn start(window_id: i32, stop: StopSignal, controller: AbortController, log: Vec<ChatEvent>) -> bool {
    LIVE.with(|l| l.start(window_id, stop, controller, log))
}

pub fn finish(window_id: i32) {
    LIVE.with(|l| l.finish(window_id));
}

pub fn stop(window_id: i32) {
    LIVE.with(|l| l.stop(window_id));
}

pub fn is_running(window_id: i32) -> bool {
    LIVE.with(|l| l.is_running(window_id))
}

pub fn replay(window_id: i32) -> Option<Vec<ChatEvent>> {
    LIVE.with(|l| l.replay(window_id))
}

/// Sends to every panel of the window, and logs for panels that come later.
pub struct WindowSink(pub i32);

impl ChatSink for WindowSink {
    /// The question's echo, and whatever follows it in the same task, goes to the panels once the
    /// task has sent the answer's request: a port message costs the worker a few tenths of a
    /// millisecond, which the first word would wait for. The order stays as emitted.
    fn emit(&self, event: ChatEvent) {
        let asked = matches!(event, ChatEvent::Asked { .. });
        let now = HELD.with(|h| {
            let mut held = h.borrow_mut();
            if !asked && held.is_empty() {
                return Some(event);
            }
            if held.is_empty() {
                wasm_bindgen_futures::spawn_local(async {
                    for (window_id, event) in HELD.with(|h| h.take()) {
                        send(window_id, event);
                    }
                });
            }
            held.push((self.0, event));
            None
        });
        if let Some(event) = now {
            send(self.0, event);
        }
    }
}

fn send(window_id: i32, event: ChatEvent) {
    LIVE.with(|l| {
        l.emit(window_id, &event, |log, event| {
            if *event == ChatEvent::ResetAnswer {
                while matches!(log.last(), Some(ChatEvent::Delta { .. })) {
                    log.pop();
                }
            } else {
                log.push(event.clone());
            }
        })
    });
}
