//! The page's own events: mutations, DOM ready and load.

use super::*;

#[inline(never)]
pub(crate) fn on_mutations(others: &Array) -> bool {
    let active = with(|s| matches!(s.phase, PagePhase::Pending | PagePhase::Active));
    // A frame's mutations only mark it; its shadow roots stay its own.
    for record in others.iter() {
        frames::touched(record.unchecked_ref());
    }
    // The observer's callback schedules the batch once this returns.
    active
}

#[inline(never)]
pub(crate) fn on_dom_ready() {
    parsing::parsed();
    match with(|s| s.phase) {
        PagePhase::Pending => decide(),
        PagePhase::Off if with(|s| s.memory_loaded) => release_fallback(),
        _ => {}
    }
}

/// window load: the one late full scan, for custom elements that attached shadow roots without a mutation record.
#[inline(never)]
pub(crate) fn on_page_load() {
    let replaced = with(|s| s.doc.clone()).zip(document()).is_none_or(|(a, b)| !js_sys::Object::is(&a, &b));
    if replaced {
        return;
    }
    parsing::parsed();
    // Frames the page added while loading.
    frames::load_others();
    // A DOMContentLoaded this layer missed must not leave the page on the fallback.
    match with(|s| s.phase) {
        PagePhase::Pending => decide(),
        PagePhase::Off => {}
        _ => {
            recheck_fallback();
            release_fallback();
        }
    }
    if with(|s| s.phase) == PagePhase::Active {
        if let Some(d) = document() {
            for root in collect::shadow_roots_in(&Root::Doc(d)) {
                add_root(Root::Shadow(root));
            }
        }
    }
    watch::schedule();
}
