//! Marks made once a frame has painted (layout is clean then): icons and drawings on a page Dusk
//! recolours, the text its translucent elements leave under AA, or the site's own design measured again.

use super::*;

thread_local! {
    static ICONS_PENDING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Once per mutation batch: one pending pass over the page is enough. A batch that only themed
/// added nodes (`full` false) leaves their drawings to the ResizeObserver, which measures them
/// once laid out, in the frame they first paint; the page is walked only if it has translucent text.
pub(super) fn after_batch(full: bool, added: &js_sys::Array) {
    let walk = full || (added.length() > 0 && with(|s| s.own.is_some() || has_translucent(s)));
    if !walk {
        if with(|s| s.phase == PagePhase::Active) {
            shapes::observe_added(added);
        }
        return;
    }
    if !ICONS_PENDING.with(|p| p.replace(true)) {
        watch::after_paint(mark_new_icons);
    }
}

fn has_translucent(s: &mut State) -> bool {
    let doc = s.last_input.first();
    !s.translucent.get_or_insert_with(|| doc.map(dusk_core::dark::translucent::selectors).unwrap_or_default()).is_empty()
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

/// Drawings changed size (or were first observed, laid out now): an icon follows the text
/// colour; only a drawing the size of a surface has the page's drawings measured again.
pub(crate) fn shapes_resized(drawings: &[web_sys::Element]) {
    if with(|s| s.phase == PagePhase::Active && !s.rehearsing && s.own.is_none()) {
        icons::mark_each(drawings);
        if shapes::any_surface(drawings) {
            shapes::mark(&with(|s| s.roots.clone()), theme_on());
            frames::mark_drawings();
        } else {
            shapes::unmark_each(drawings);
        }
    }
}
