//! The agent's live runs and panels (the worker's generic `Live`), and the runtime's events as
//! the panel's: every event goes to the window's panels and into the log a reconnecting panel gets.

use crate::live::Live;
use dusk_chrome::runtime::Port;
use dusk_core::agent::{AgentEvent, Sink, StopSignal};
use dusk_core::protocol::AgentPortEvent;
use std::cell::RefCell;
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
        if let AgentEvent::Screenshot { step, data_url } = &event {
            keep_thumbnail(self.0, *step, data_url.clone());
        }
        emit(self.0, AgentPortEvent::Event { event });
    }
}

thread_local! {
    /// Per window: the run's small screenshots by step, for the kept timeline (core::history).
    static THUMBS: RefCell<Vec<(i32, Vec<(u32, String)>)>> = const { RefCell::new(Vec::new()) };
}

fn keep_thumbnail(window_id: i32, step: u32, data_url: String) {
    wasm_bindgen_futures::spawn_local(async move {
        let Ok(thumb) = crate::screenshot::thumbnail(&data_url).await else { return };
        THUMBS.with(|t| {
            let mut t = t.borrow_mut();
            match t.iter_mut().find(|(w, _)| *w == window_id) {
                Some((_, list)) => list.push((step, thumb)),
                None => t.push((window_id, vec![(step, thumb)])),
            }
        });
    });
}

/// The window's thumbnails so far, taken (the run has ended).
pub fn take_thumbnails(window_id: i32) -> Vec<(u32, String)> {
    THUMBS.with(|t| {
        let mut t = t.borrow_mut();
        let at = t.iter().position(|(w, _)| *w == window_id);
        at.map(|i| t.remove(i).1).unwrap_or_default()
    })
}
