//! The tab each window's agent run acts on now: the toolbar reads it too.

use std::cell::RefCell;

thread_local! {
    pub(super) static CURRENT: RefCell<Vec<(i32, i32)>> = const { RefCell::new(Vec::new()) };
}

pub fn current_tab(window_id: i32) -> Option<i32> {
    CURRENT.with(|c| c.borrow().iter().find(|(w, _)| *w == window_id).map(|(_, t)| *t))
}

/// The window whose run acts on `tab`.
pub fn window_acting_on(tab: i32) -> Option<i32> {
    CURRENT.with(|c| c.borrow().iter().find(|(_, t)| *t == tab).map(|(w, _)| *w))
}

pub fn is_acting_on(tab: i32) -> bool {
    window_acting_on(tab).is_some()
}
