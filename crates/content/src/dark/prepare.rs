//! A theme built ahead of a switch-on, and the switch rehearsed so the click pays no compilation.

use super::*;

/// Builds the theme for an unthemed page without applying it, so a switch-on is instant.
#[inline(never)]
pub(super) fn prepare() {
    if with(|s| s.phase != PagePhase::Off || s.prepared.is_some()) {
        return;
    }
    let Some(document) = document() else { return };
    let shadow_roots = collect::shadow_roots_in(&Root::Doc(document.clone()));
    let mut roots = vec![Root::Doc(document.clone())];
    roots.extend(shadow_roots.iter().cloned().map(Root::Shadow));
    let already_dark = page_is_dark(&document);
    icons::mark(&roots);
    let input: Vec<_> = with(|s| roots.iter().map(|r| collect::scope(r, &mut s.cache, &[])).collect());
    // The site's own dark design, judged under its dark scheme, then put back as the page wrote it.
    let own = if dusk_core::dark::own::may_darken(&input) { own::judge(&document, &roots, &known_unreadable) } else { None };
    own::switch_off();
    let (css, roles) = with(|s| build_roles(&input, &s.refine, s.adjust));
    let sheets: Vec<Installed> = roots.into_iter().zip(&css).filter_map(|(root, css)| Installed::parsed(root, css)).collect();
    let selectors = input.first().map(dusk_core::dark::translucent::selectors).unwrap_or_default();
    // Text the theme leaves under AA only by being translucent is measured now, with the theme in
    // for one task (nothing paints), so the switching frame raises it too; most pages have none.
    let translucent = if own.is_none() && !already_dark && translucent::any(&document, &selectors) {
        let mut on = sheets.clone();
        on.iter_mut().for_each(Installed::readopt);
        on.iter().zip(&roles.markers).for_each(|(i, m)| inline::put(&i.root, m));
        let raised = translucent::measure(&document, &selectors);
        on.iter().for_each(|i| inline::clear(&i.root));
        on.iter().for_each(Installed::remove);
        raised
    } else {
        Vec::new()
    };
    // Held only on the prepared path: a theme applied while the page loads has no painted width to keep.
    let freeze = freeze_css(&input) + &dusk_core::dark::freeze::hold_widths_css(&hold::held_selects(&document));
    with(|s| s.prepared = Some(Prepared { shadow_roots, input, css, freeze, sheets, already_dark, own, translucent: (selectors, translucent), roles }));
    foreign::fetch_all(with(|s| s.cache.take_to_fetch()));
    watch::after_reply(rehearse);
}

/// Runs the real switch messages on and off once, in one task with our sheets disabled, so nothing paints
/// but V8 has compiled that path before the click (cold, it cost ~3 ms of lazy compilation).
#[inline(never)]
pub(super) fn rehearse() {
    let Some(p) = with(|s| s.prepared.clone().filter(|_| s.phase == PagePhase::Off)) else { return };
    if document().is_none_or(|d| d.ready_state() == "loading") {
        return;
    }
    let (memory, early) = with(|s| (s.memory.clone(), s.switched_early));
    p.sheets.iter().for_each(|i| i.set_enabled(false));
    with(|s| s.rehearsing = true);
    reply(r#"{"type":"dark_switch","on":true}"#);
    reply(r#"{"type":"dark_switch","on":false}"#);
    with(|s| s.rehearsing = false);
    install::thaw();
    p.sheets.iter().for_each(|i| i.set_enabled(true));
    with(|s| {
        s.memory = memory;
        s.switched_early = early;
        s.prepared = Some(p);
    });
}
