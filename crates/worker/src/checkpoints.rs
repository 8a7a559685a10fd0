//! Agent runs' checkpoints in chrome.storage.session, and the `Host` basics every worker host shares.

use dusk_chrome::storage;
use dusk_core::agent::RunState;
use wasm_bindgen::prelude::*;

/// The checkpoint as JSON text: one string is far cheaper to store than a tree of JS objects.
pub async fn save(state: &RunState) {
    let text = serde_json::to_string(&state.checkpoint()).unwrap_or_default();
    let _ = storage::session_set(&RunState::storage_key(&state.run_id), &JsValue::from_str(&text)).await;
}

pub async fn load(run_id: &str) -> Option<RunState> {
    let text = storage::session_get(&RunState::storage_key(run_id)).await.ok()?.as_string()?;
    dusk_core::protocol::from_str(&text).ok()
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
