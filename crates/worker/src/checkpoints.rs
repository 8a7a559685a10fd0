//! Agent runs' checkpoints in chrome.storage.session, and the `Host` basics every worker host shares.
//! Written piecewise (core `CheckpointWriter`): each step stores its head and what it changed.

use dusk_chrome::storage;
use dusk_core::agent::{CheckpointWriter, RunState};
use js_sys::{Array, Object, Reflect};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

thread_local! {
    /// What each run's checkpoint holds now, with its run id (a worker that restarts writes it
    /// whole once). A few runs at most, so a list, not a map's code for one more value type.
    static WRITERS: RefCell<Vec<(String, CheckpointWriter)>> = const { RefCell::new(Vec::new()) };
}

/// Each part as JSON text: one string is far cheaper to store than a tree of JS objects.
pub async fn save(state: &RunState) {
    let entries = WRITERS.with(|w| {
        let mut writers = w.borrow_mut();
        let i = match writers.iter().position(|(id, _)| *id == state.run_id) {
            Some(i) => i,
            None => {
                writers.push((state.run_id.clone(), CheckpointWriter::default()));
                writers.len() - 1
            }
        };
        writers[i].1.entries(state)
    });
    let items = Object::new();
    for (key, text) in entries {
        let _ = Reflect::set(&items, &key.into(), &JsValue::from_str(&text));
    }
    if storage::session_set_items(&items).await.is_err() {
        // Written whole next time: what storage holds is no longer known.
        forget(&state.run_id);
    }
}

pub async fn load(run_id: &str) -> Option<RunState> {
    let head = storage::session_get(&RunState::storage_key(run_id)).await.ok()?.as_string()?;
    let keys: Array = RunState::part_keys(&head).into_iter().map(JsValue::from).collect();
    let parts = if keys.length() == 0 { JsValue::UNDEFINED } else { storage::session_get_keys(&keys).await.ok()? };
    RunState::from_parts(&head, &|k| Reflect::get(&parts, &JsValue::from_str(k)).ok()?.as_string()).ok()
}

fn forget(run_id: &str) {
    WRITERS.with(|w| w.borrow_mut().retain(|(id, _)| id != run_id));
}

/// Storage was cleared (the user's "clear all data"): every checkpoint is written whole next time.
pub fn forget_all() {
    WRITERS.with(|w| w.borrow_mut().clear());
}

/// Removes a run's checkpoint, head and parts.
pub async fn remove(run_id: &str) {
    let key = RunState::storage_key(run_id);
    let head = storage::session_get(&key).await.ok().and_then(|h| h.as_string()).unwrap_or_default();
    let keys: Array = RunState::part_keys(&head).into_iter().chain([key]).map(JsValue::from).collect();
    let _ = storage::session_remove_keys(&keys).await;
    forget(run_id);
}

/// The three `Host` methods every worker host shares: the worker's clock, the run's Stop (a
/// `stop` field), and checkpoints in chrome.storage.session.
macro_rules! worker_host_basics {
    () => {
        fn now_ms(&self) -> f64 {
            crate::clock::now_ms()
        }
        fn stop_signal(&self) -> &dusk_core::agent::StopSignal {
            &self.stop
        }
        async fn save_checkpoint(&self, state: &dusk_core::agent::RunState) {
            crate::checkpoints::save(state).await;
        }
    };
}
pub(crate) use worker_host_basics;
