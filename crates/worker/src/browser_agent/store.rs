//! Where a window's agent run is: its last run's id (chrome.storage.session, so a reopened panel
//! finds it after a worker restart) and the tab it acts on now (for the mask's Stop and heartbeat).

use super::current::CURRENT;
pub use super::current::{current_tab, window_acting_on};
use dusk_chrome::storage;
use dusk_core::history::PageRef;
use std::cell::RefCell;
use wasm_bindgen::JsValue;

thread_local! {
    /// The page each window's run started on, for its history entry.
    static START: RefCell<Vec<(i32, PageRef)>> = const { RefCell::new(Vec::new()) };
}

pub fn set_start_page(window_id: i32, page: PageRef) {
    START.with(|s| {
        let mut s = s.borrow_mut();
        s.retain(|(w, _)| *w != window_id);
        s.push((window_id, page));
    });
}

pub fn take_start_page(window_id: i32) -> Option<PageRef> {
    START.with(|s| {
        let mut s = s.borrow_mut();
        let at = s.iter().position(|(w, _)| *w == window_id)?;
        Some(s.remove(at).1)
    })
}

fn last_key(window_id: i32) -> String {
    format!("agent_last:{window_id}")
}

pub async fn set_last_run(window_id: i32, run_id: &str) {
    let _ = storage::session_set(&last_key(window_id), &JsValue::from_str(run_id)).await;
}

pub async fn last_run(window_id: i32) -> Option<String> {
    storage::session_get(&last_key(window_id)).await.ok()?.as_string()
}

/// Every page call of a run passes here: the toolbar is redrawn only when the tab changes, since a
/// redraw is a tab read, four storage reads and three button calls.
pub fn set_current_tab(window_id: i32, tab: i32) {
    let before = current_tab(window_id);
    if before == Some(tab) {
        return;
    }
    CURRENT.with(|c| {
        let mut c = c.borrow_mut();
        c.retain(|(w, _)| *w != window_id);
        c.push((window_id, tab));
    });
    before.into_iter().chain([tab]).for_each(crate::toolbar::refresh_soon);
}

pub fn forget(window_id: i32) {
    let before = current_tab(window_id);
    CURRENT.with(|c| c.borrow_mut().retain(|(w, _)| *w != window_id));
    before.into_iter().for_each(crate::toolbar::refresh_soon);
}
