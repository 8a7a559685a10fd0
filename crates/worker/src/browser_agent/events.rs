//! The agent's live runs and panels (the worker's generic `Live`), and the runtime's events as
//! the panel's: every event goes to the window's panels and into the log a reconnecting panel gets.

use crate::live::Live;
use dusk_chrome::runtime::Port;
use dusk_core::agent::{AgentEvent, Sink, StopSignal};
use dusk_core::protocol::AgentPortEvent;
use web_sys::AbortController;

thread_local! {
    pub static LIVE: Live<AgentPortEvent> = Live::new();
}

pub fn subscribe(window_id: i32, port: &Port) {
    LIVE.with(|l| l.subscribe(window_id, port));
}

pub fn unsubscribe(port: &Port) {
    LIVE.with(|l| l.unsubscribe(port));
}

pub fn start(window_id: i32, stop: StopSignal, controller: AbortController, log: Vec<AgentPortEvent>) -> bool {
    LIVE.with(|l| l.start(window_id, stop, controller, log))
}

pub fn finish(window_id: i32) {
    LIVE.with(|l| l.finish(window_id));
}

pub fn is_running(window_id: i32) -> bool {
    LIVE.with(|l| l.is_running(window_id))
}

pub fn stop(window_id: i32) {
    LIVE.with(|l| l.stop(window_id));
}

pub fn replay(window_id: i32) -> Option<Vec<AgentPortEvent>> {
    LIVE.with(|l| l.replay(window_id))
}

/// Streamed text is not logged: a reconnecting panel gets the final answer instead.
pub fn emit(window_id: i32, event: AgentPortEvent) {
    LIVE.with(|l| {
        l.emit(window_id, &event, |log, e| {
            if !matches!(e, AgentPortEvent::Event { event: AgentEvent::TextDelta { .. } | AgentEvent::TextReset }) {
                log.push(e.clone());
            }
        })
    });
}

pub struct WindowSink(pub i32);

impl Sink for WindowSink {
    fn emit(&self, event: AgentEvent) {
        emit(self.0, AgentPortEvent::Event { event });
    }
}
