//! The tabs a dark run works on now, with each run's Stop and abort: the toolbar reads it too.

use dusk_core::agent::StopSignal;
use std::cell::RefCell;
use web_sys::AbortController;

thread_local! {
    pub(super) static LIVE: RefCell<Vec<(i32, StopSignal, AbortController)>> = const { RefCell::new(Vec::new()) };
}

pub fn is_running(tab_id: i32) -> bool {
    LIVE.with(|l| l.borrow().iter().any(|(t, ..)| *t == tab_id))
}
