//! Marks made once a frame has painted (layout is clean then): icons and drawings on a page Dusk
//! recolours, the text its translucent elements leave under AA, or the site's own design measured again.

use super::*;

thread_local! {
    static ICONS_PENDING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Once per mutation batch: one pending icon pass is enough.
pub(super) fn after_batch() {
    if !ICONS_PENDING.with(|p| p.replace(true)) {
        watch::after_paint(mark_new_icons);
    }
}

/// SVGs added since the last batch are measured once the frame is out (layout is clean then).
fn mark_new_icons() {
    ICONS_PENDING.with(|p| p.set(false));
    if with(|s| s.phase == PagePhase::Active && s.own.is_some()) {
        // The site's own design draws its own icons and drawings.
        remeasure_own();
    } else if with(|s| s.phase == PagePhase::Active) {
        icons::mark(&with(|s| s.roots.clone()));
        shapes::mark(&with(|s| s.roots.clone()), theme_on());
        frames::mark_drawings();
        mark_translucent();
    }
}

/// Text the theme left under AA only by being painted translucent is raised (once painted).
fn mark_translucent() {
    let Some(doc) = document() else { return };
    let selectors =
        with(|s| s.translucent.get_or_insert_with(|| s.last_input.first().map(dusk_core::dark::translucent::selectors).unwrap_or_default()).clone());
    translucent::mark(&doc, &selectors);
}

/// A drawing changed size (or was first observed): its shapes may have crossed the icon size.
pub(crate) fn shapes_resized() {
    if with(|s| s.phase == PagePhase::Active && !s.rehearsing && s.own.is_none()) {
        shapes::mark(&with(|s| s.roots.clone()), theme_on());
        frames::mark_drawings();
    }
}
