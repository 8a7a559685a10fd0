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

/// The window's panels, for the run `1` (its screenshots become the kept timeline's thumbnails).
pub struct WindowSink(pub i32, pub String);

impl Sink for WindowSink {
    fn emit(&self, event: AgentEvent) {
        if let AgentEvent::Screenshot { step, data_url } = &event {
            keep_thumbnail(&self.1, *step, data_url.clone());
        }
        emit(self.0, AgentPortEvent::Event { event });
    }
}

/// A run's thumbnails by step, and how many are still being scaled.
struct Thumbs {
    run_id: String,
    pending: u32,
    done: Vec<(u32, String)>,
}

thread_local! {
    static THUMBS: RefCell<Vec<Thumbs>> = const { RefCell::new(Vec::new()) };
}

fn with_run<T>(run_id: &str, f: impl FnOnce(&mut Thumbs) -> T) -> T {
    THUMBS.with(|t| {
        let mut t = t.borrow_mut();
        let at = match t.iter().position(|x| x.run_id == run_id) {
            Some(i) => i,
            None => {
                t.push(Thumbs { run_id: run_id.to_string(), pending: 0, done: vec![] });
                t.len() - 1
            }
        };
        f(&mut t[at])
    })
}

fn keep_thumbnail(run_id: &str, step: u32, data_url: String) {
    with_run(run_id, |t| t.pending += 1);
    let run_id = run_id.to_string();
    wasm_bindgen_futures::spawn_local(async move {
        let thumb = crate::screenshot::thumbnail(&data_url).await;
        with_run(&run_id, |t| {
            t.pending -= 1;
            if let Ok(thumb) = thumb {
                t.done.push((step, thumb));
            }
        });
    });
}

/// The run's thumbnails, once the last ones are scaled (at most 2 s), taken.
pub async fn take_thumbnails(run_id: &str) -> Vec<(u32, String)> {
    for _ in 0..100 {
        if with_run(run_id, |t| t.pending) == 0 {
            break;
        }
        crate::fetch::sleep(20).await;
    }
    THUMBS.with(|t| {
        let mut t = t.borrow_mut();
        let at = t.iter().position(|x| x.run_id == run_id);
        at.map(|i| t.remove(i).done).unwrap_or_default()
    })
}
