//! Puts a theme in the page: core's theme built for every scope (or the site's own design's
//! sheet), the switching frame's transitions held off, and rebuilds when a foreign sheet arrives.

use super::*;
use dusk_core::dark::theme::Markers;

/// Holds the page's transitions off for the frame in which the theme switches.
pub(super) fn freeze(css: &str) {
    if css.is_empty() {
        return;
    }
    if let Some(d) = document() {
        install::freeze_transitions(&Root::Doc(d), css);
        watch::after_paint(install::thaw);
    }
}

/// The document scope's freezing CSS.
pub(super) fn freeze_css(input: &[dusk_core::dark::Scope]) -> String {
    input.first().map(dusk_core::dark::freeze::freeze_css).unwrap_or_default()
}

/// The theme is in the page, so shapes' own colours are read from it.
pub(super) fn theme_on() -> bool {
    with(|s| s.installed.iter().any(|i| i.is_on()))
}

/// Core's theme for every scope, adjusted, with the site's refinement after the document's, and
/// the custom properties' roles and inline markers it found (what the page adds later is built with them).
#[inline(never)]
pub(super) fn build_roles(input: &[dusk_core::dark::Scope], refine: &str, adjust: Adjust) -> (Vec<String>, dusk_core::dark::theme::Roles) {
    let (mut css, roles) = dusk_core::dark::adjust::with_adjust(adjust, || images::during(|| dusk_core::dark::theme::build_with_roles(input)));
    if let Some(doc) = css.first_mut().filter(|_| !refine.is_empty()) {
        doc.push('\n');
        doc.push_str(refine);
    }
    (css, roles)
}

/// A cross-origin sheet's text arrived (or could not be had): rebuild whatever theme uses it.
#[inline(never)]
pub(super) fn foreign_arrived(url: &str, css: Option<String>) {
    let usable = css.is_some();
    with(|s| {
        s.cache.set_foreign(url, css);
        // The sheet's marks don't change when its text arrives: the next batch builds it all.
        s.roles = None;
    });
    if !usable {
        return;
    }
    frames::restyle_all();
    watch::schedule();
    match with(|s| (s.phase, s.prepared.is_some())) {
        (PagePhase::Pending | PagePhase::Active, _) => watch::schedule(),
        (PagePhase::Off, true) => {
            with(|s| s.prepared = None);
            prepare();
        }
        _ => {}
    }
}

/// A light background strip was decoded: the next build redraws it (core's `images`).
pub(super) fn image_arrived() {
    match with(|s| (s.phase, s.prepared.is_some())) {
        (PagePhase::Pending | PagePhase::Active, _) => {
            with(|s| s.images_arrived = true);
            frames::restyle_all();
            watch::schedule();
        }
        (PagePhase::Off, true) => {
            with(|s| s.prepared = None);
            prepare();
        }
        _ => {}
    }
}

/// Puts one CSS text per scope into its sheet, and its inline style markers on its elements
/// (none: the CSS has no inline rules), holding transitions off first if the page has painted.
pub(super) fn put_theme(s: &mut State, css: &[String], markers: Option<&[Markers]>, freeze_css: impl FnOnce() -> String) {
    if std::mem::take(&mut s.freeze_next) {
        freeze(&freeze_css());
    }
    for (i, (inst, css)) in s.installed.iter_mut().zip(css).enumerate() {
        inst.set(css);
        match markers.and_then(|m| m.get(i)) {
            Some(m) => inline::put(&inst.root, m),
            None => inline::clear(&inst.root),
        }
    }
}

/// The own design's CSS for each scope: the document's raise sheet, and in every scope its
/// pictures' dark-scheme sources.
pub(super) fn own_css(doc: &str, input: &[dusk_core::dark::Scope]) -> Vec<String> {
    let sources = |i: usize| input.get(i).map(|s| dusk_core::dark::own::sources_css(&s.scheme_sources)).unwrap_or_default();
    (0..input.len().max(1)).map(|i| if i == 0 { format!("{doc}{}", sources(0)) } else { sources(i) }).collect()
}

/// The page changed under the site's own design: its text is measured again, with our sheets
/// off so a raised colour isn't taken for the site's, and only changed marks are touched.
pub(super) fn remeasure_own() {
    if !with(|s| s.own.is_some() && std::mem::take(&mut s.own_dirty)) {
        return;
    }
    let Some(doc) = document() else { return };
    with(|s| s.installed.iter().for_each(|i| i.set_enabled(false)));
    let raised = own::measure(&doc);
    with(|s| s.installed.iter().for_each(|i| i.set_enabled(true)));
    let css = own::mark(&doc, &raised);
    with(|s| {
        let all = own_css(&css, &s.last_input);
        s.own = Some(css);
        put_theme(s, &all, None, String::new);
    });
}
