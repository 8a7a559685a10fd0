//! The chat's live runs and panels, on the worker's generic `Live`.

use crate::live::Live;
use dusk_chrome::runtime::Port;
use dusk_core::agent::StopSignal;
use dusk_core::chat::ChatSink;
use dusk_core::protocol::ChatEvent;
use web_sys::AbortController;

thread_local! {
    static LIVE: Live<ChatEvent> = Live::new();
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
    fn emit(&self, event: ChatEvent) {
        LIVE.with(|l| {
            l.emit(self.0, &event, |log, event| {
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
}
