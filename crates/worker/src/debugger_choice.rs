//! Options → Browser agent's "Find clickable parts with Chrome's debugger"
//! (`AgentSettings::use_debugger`), kept in memory so an attach asks it without a storage read.
//! Every `chrome.debugger.attach` of Dusk's asks `allowed()` first; worker.js reports each change.

use dusk_core::browser_agent::mode::{AgentSettings, STORAGE_KEY};
use std::cell::Cell;

thread_local! {
    static USE: Cell<Option<bool>> = const { Cell::new(None) };
}

/// Whether the user lets Dusk attach Chrome's debugger (stored once per worker, then kept current).
pub async fn allowed() -> bool {
    if let Some(known) = USE.with(Cell::get) {
        return known;
    }
    let stored = AgentSettings::from_stored(crate::stored::read(STORAGE_KEY).await).use_debugger;
    USE.with(|u| {
        u.get().unwrap_or_else(|| {
            u.set(Some(stored));
            stored
        })
    })
}

/// The agent settings changed (or a run read them).
pub fn set(on: bool) {
    USE.with(|u| u.set(Some(on)));
}
