//! One batch per frame: the theme brought in line with what changed in the page.

use super::*;

/// Re-applies the theme to what changed: what the page added gets rules of its own (`grow`);
/// anything else recollects every scope and rebuilds the theme if what styles the page changed.
#[inline(never)]
pub(crate) fn run_batch() {
    if with(|s| s.judge_waits && s.phase == PagePhase::Pending) && document().is_some_and(|d| !verdict_waits(&d.ready_state(), own::sheets_loading(&d))) {
        return decide();
    }
    // Open shadow roots that came with added nodes get a theme of their own.
    let pending = grow::Pending::take();
    // The site's own design is measured again once what the page added has painted.
    with(|s| s.own_dirty |= s.own.is_some() && pending.added.length() > 0);
    for root in collect::shadow_roots_under(&pending.added) {
        add_root(Root::Shadow(root));
    }
    let full = with(|s| {
        if !matches!(s.phase, PagePhase::Pending | PagePhase::Active) {
            return false;
        }
        if s.own.is_some() && !s.rehearsing {
            // Sheets added later get the site's dark scheme too.
            own::switch_on(&s.roots, &|sheet| s.cache.is_unreadable(sheet));
        }
        if s.phase == PagePhase::Active {
            if let Some(p) = s.prepared.take() {
                let started = now();
                // The theme built when the popup opened goes on at once; whether the page changed
                // since is checked once it has painted, off the switch's critical path.
                let css = s.own.as_ref().map_or(p.css, |own| own_css(own, &p.input));
                let recoloured = s.own.is_none();
                put_theme(s, &css, recoloured.then_some(p.roles.markers.as_slice()), || p.freeze.clone());
                if s.own.is_none() && !s.rehearsing && !p.translucent.1.is_empty() {
                    if let Some(doc) = document() {
                        translucent::put(&doc, &p.translucent.1);
                    }
                }
                s.last_input = p.input;
                // The markers live on the page's side now (`inline`).
                let mut roles = p.roles;
                roles.markers = Vec::new();
                s.roles = Some(roles);
                s.translucent = Some(p.translucent.0);
                s.last_build_ms = now() - started;
                watch::after_paint(run_batch);
                return true;
            }
        }
        let own = own_sheets(s);
        // An import that arrived is read by collecting the scopes whole: its sheet's marks did not move.
        let imports_arrived = std::mem::take(&mut s.imports_arrived);
        let quick = s.phase == PagePhase::Active && s.own.is_none() && !s.rehearsing && !s.images_arrived && !imports_arrived;
        // The status times full refreshes: a quick batch reads no clock, one more interface of Blink's.
        if quick && grow::grow(s, &pending, &own) {
            keep_page_sheets_first(s);
            return false;
        }
        let started = now();
        let State { roots, cache, .. } = s;
        // The page's values, not the dark ones written in place, are what the theme reads.
        roots.iter().for_each(inline::unpaint);
        let input: Vec<_> = roots.iter().map(|r| collect::scope(r, cache, &own)).collect();
        s.last_collect_ms = now() - started;
        let images_arrived = std::mem::take(&mut s.images_arrived);
        if input != s.last_input || s.installed.iter().any(|i| i.css.is_empty()) || images_arrived {
            s.own_dirty |= s.own.is_some() && !s.last_input.is_empty();
            let (css, roles) = match (&s.own, s.prepared.take()) {
                (Some(own), _) => (own_css(own, &input), None),
                (None, Some(p)) if p.input == input => (p.css, Some(p.roles)),
                _ => {
                    let (css, roles) = build_roles(&input, &s.refine, s.adjust);
                    (css, Some(roles))
                }
            };
            put_theme(s, &css, roles.as_ref().map(|r| r.markers.as_slice()), || freeze_css(&input));
            s.last_input = input;
            s.roles = roles.map(|mut r| {
                r.markers = Vec::new();
                r
            });
            s.translucent = None;
        } else {
            s.installed.iter_mut().for_each(Installed::readopt);
            // What the page added since carries values the theme knows.
            inline::apply(&pending.added, &pending.touched, &pending.styled);
        }
        s.marks = grow::marks_now(s, &own);
        keep_page_sheets_first(s);
        s.last_build_ms = now() - started - s.last_collect_ms;
        true
    });
    let frames = frames::run_dirty();
    foreign::fetch_all(with(|s| s.cache.take_to_fetch()));
    marks::after_batch(full || frames, &pending.added);
}

/// Our sheets in every scope: the themes, what was added since, and the passes' own sheets.
fn own_sheets(s: &State) -> Vec<web_sys::CssStyleSheet> {
    s.installed.iter().flat_map(Installed::sheets).chain(install::frozen_sheet()).chain(shapes::sheets()).chain(translucent::sheet()).collect()
}

/// A scope whose page adopted sheets of its own (rare) gets them put before ours again.
fn keep_page_sheets_first(s: &State) {
    let late: Vec<_> = s.roots.iter().filter(|r| sheet_growth::has_page_adopted(r.js())).collect();
    if !late.is_empty() {
        let own = own_sheets(s);
        late.into_iter().for_each(|r| install::keep_page_sheets_first(r, &own));
    }
}
