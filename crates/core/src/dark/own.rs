//! A site's own dark design, shown as the browser shows it in its dark scheme: the
//! page's own `prefers-color-scheme` conditions are rewritten in place, so its dark rules apply in
//! the page's own cascade (same order, same specificity), and only text the design leaves under AA
//! is raised, lighter (or darker) in its own hue.

use super::band::clamp_luminance;
use super::color::{contrast, Rgba};
use super::css::{for_each_rule, Decl, Rule};
use super::markup::{emit_scheme_sources, SchemeSource};
use super::theme::Scope;
use super::value::role_of;

/// The attribute naming the colour a text element is raised to.
pub const RAISE_ATTR: &str = "data-dusk-aa";

/// AA for normal text, and for large text (24px, or 18.66px bold).
const AA: f32 = 4.5;
const AA_LARGE: f32 = 3.0;
/// Raised text lands a little above the line, so what the browser paints still passes.
const MARGIN: f32 = 0.05;

/// The media text with the dark scheme on, or None if it tests no scheme. `(prefers-color-scheme:
/// dark)` becomes `(prefers-color-scheme)`, true whatever the user's scheme and still recognisable
/// as the site's dark design; `light` becomes `(max-width: -1px)`, which never holds.
pub fn scheme_on(query: &str) -> Option<String> {
    let lower = query.to_ascii_lowercase();
    if !lower.contains("prefers-color-scheme") {
        return None;
    }
    let mut out = String::with_capacity(query.len());
    let (mut rest, mut changed) = (lower.as_str(), false);
    while let Some(start) = rest.find('(') {
        let Some(len) = rest[start..].find(')') else { break };
        let feature: String = rest[start..=start + len].chars().filter(|c| !c.is_whitespace()).collect();
        out.push_str(&rest[..start]);
        let replaced = match feature.as_str() {
            "(prefers-color-scheme:dark)" => Some("(prefers-color-scheme)"),
            "(prefers-color-scheme:light)" => Some("(max-width: -1px)"),
            _ => None,
        };
        changed |= replaced.is_some();
        out.push_str(replaced.unwrap_or(&rest[start..=start + len]));
        rest = &rest[start + len + 1..];
    }
    out.push_str(rest);
    changed.then_some(out)
}

/// Whether switching the page's scheme conditions on could change how it paints: some block gated
/// by `prefers-color-scheme` (dark, or light which switching off unveils) declares a colour, a
/// custom property, `color-scheme` or a filter. Switching them to judge the page costs a full
/// restyle each way, and more where a block flips layout (rustdoc's dark block only sets
/// `html { content: "dark" }`: a relayout of the whole page), so a page whose blocks can't
/// darken it is judged light without switching. Only sheets that name the feature are parsed.
pub fn may_darken(scopes: &[Scope]) -> bool {
    fn paints(decls: &[Decl]) -> bool {
        decls.iter().any(|d| d.name.starts_with("--") || role_of(&d.name).is_some() || matches!(d.name.as_str(), "color-scheme" | "filter"))
    }
    fn any_gated(rules: &[Rule], gated: bool) -> bool {
        rules.iter().any(|r| {
            let here = gated || (r.is_at_rule() && r.prelude.to_ascii_lowercase().contains("prefers-color-scheme"));
            (here && paints(&r.decls)) || any_gated(&r.children, here)
        })
    }
    scopes.iter().flat_map(|s| &s.sheets).filter(|sh| sh.css.contains("prefers-color-scheme") || sh.media.contains("prefers-color-scheme")).any(|sh| {
        let gated = sh.media.to_ascii_lowercase().contains("prefers-color-scheme");
        // One top-level rule at a time: the layer's memory keeps its peak.
        let mut found = false;
        for_each_rule(&sh.css, |rule| found = found || any_gated(std::slice::from_ref(&rule), gated));
        found
    })
}

/// Whether the page's dark verdict waits: judged while a linked sheet is still loading, a site's
/// own dark design reads as light (its dark rules aren't in yet). Window load (`complete`) ends
/// the wait, so a sheet that never loads can't hold the page on the fallback.
pub fn verdict_waits(ready_state: &str, sheets_loading: u32) -> bool {
    ready_state != "complete" && sheets_loading > 0
}

/// The colour `fg` must take to meet AA on `bg`, moved in its own hue away from the background
/// (lighter on a dark one); None when the pair passes as it is. Translucent text is judged as painted.
pub fn raised(fg: Rgba, bg: Rgba, large: bool) -> Option<Rgba> {
    raised_through(fg, bg, large, 1.0)
}

/// As `raised`, for text inside an element painted at `opacity` (the product of its own and its
/// ancestors'): the pair is judged as it reaches the screen, the text blended with the background,
/// and the raised colour is the one that passes once blended the same way. Below the opacity at
/// which even white (or black) can't pass, it takes that extreme: as legible as the design allows.
pub fn raised_through(fg: Rgba, bg: Rgba, large: bool, opacity: f32) -> Option<Rgba> {
    let opacity = opacity.clamp(0.0, 1.0);
    if fg.a <= 0.0 || opacity <= 0.0 {
        return None;
    }
    let bg = Rgba { a: 1.0, ..bg };
    let fg = if fg.a < 1.0 { fg.over(bg) } else { fg };
    let painted = |c: Rgba| if opacity < 1.0 { Rgba { a: opacity, ..c }.over(bg) } else { c };
    let need = if large { AA_LARGE } else { AA };
    if contrast(painted(fg), bg) >= need {
        return None;
    }
    let yb = bg.luminance();
    // White or black, whichever contrasts more with the background once painted, is the way to go.
    let up = contrast(painted(Rgba::rgb(255, 255, 255)), bg) >= contrast(painted(Rgba::rgb(0, 0, 0)), bg);
    let target = need + MARGIN;
    let (h, s, l) = fg.to_hsl();
    let ok = |y: f32| if up { (y + 0.05) / (yb + 0.05) >= target } else { (yb + 0.05) / (y + 0.05) >= target };
    if opacity >= 1.0 {
        return Some(clamp_luminance(h, s, l, 1.0, ok, up));
    }
    // Blended, luminance no longer follows lightness alone: bisect on what is painted.
    let at = |l: f32| Rgba::from_hsl(h, s, l, 1.0).rounded();
    let passes = |l: f32| ok(painted(at(l)).rounded().luminance());
    let (mut bad, mut good) = (l, if up { 1.0 } else { 0.0 });
    for _ in 0..20 {
        let mid = (bad + good) / 2.0;
        if passes(mid) {
            good = mid
        } else {
            bad = mid
        }
    }
    Some(at(good))
}

/// The sheet that paints each raised colour: layered and important, so it wins over the page's
/// unlayered rules and its own `!important` ones, as the shape sheet does.
pub fn raise_css<'a>(colours: impl IntoIterator<Item = &'a str>) -> String {
    let rules: String = colours.into_iter().map(|c| format!("[{RAISE_ATTR}=\"{c}\"]{{color:{c}!important}}")).collect();
    if rules.is_empty() {
        return rules;
    }
    format!("@layer dusk-aa{{{rules}}}")
}

/// A `<picture>`'s dark-scheme source shown as the browser's dark scheme picks it (the page's
/// `<source media>` can't be switched in place, so its image's content is replaced, same box).
pub fn sources_css(sources: &[SchemeSource]) -> String {
    let mut out = String::new();
    emit_scheme_sources(sources, &mut out);
    out
}

/// The root's colour scheme under the site's own design: dark where the page offers a dark
/// scheme (`color-scheme: light dark` on the root, or failing that in its `<meta name=color-scheme>`),
/// which the browser's dark scheme resolves to dark; nothing where it doesn't, so form controls
/// and scrollbars look as the browser would draw them.
pub fn scheme_css(root_color_scheme: &str, meta: Option<&str>) -> &'static str {
    let offers_dark = |v: &str| {
        let words: Vec<String> = v.split([' ', ',']).map(|w| w.trim().to_ascii_lowercase()).collect();
        words.iter().any(|w| w == "dark") && !words.iter().any(|w| w == "only")
    };
    let root = root_color_scheme.trim();
    let offered = if root.is_empty() || root.eq_ignore_ascii_case("normal") { meta.is_some_and(offers_dark) } else { offers_dark(root) };
    if offered {
        ":root{color-scheme:dark}"
    } else {
        ""
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_dark_scheme_is_switched_on_in_place() {
        assert_eq!(scheme_on("(prefers-color-scheme: dark)").as_deref(), Some("(prefers-color-scheme)"));
        assert_eq!(scheme_on("screen and (prefers-color-scheme:dark)").as_deref(), Some("screen and (prefers-color-scheme)"));
        assert_eq!(scheme_on("(prefers-color-scheme: light)").as_deref(), Some("(max-width: -1px)"));
        assert_eq!(scheme_on("not all and (prefers-color-scheme: dark)").as_deref(), Some("not all and (prefers-color-scheme)"));
        assert_eq!(scheme_on("(min-width: 600px)"), None);
        // Once switched on, it stays as it is: a second pass changes nothing.
        assert_eq!(scheme_on("(prefers-color-scheme)"), None);
        for junk in ["(", "(prefers-color-scheme", ")(", "prefers-color-scheme: dark)"] {
            let _ = scheme_on(junk);
        }
    }

    #[test]
    fn the_verdict_waits_for_loading_sheets_until_window_load() {
        assert!(verdict_waits("interactive", 1));
        assert!(verdict_waits("loading", 2));
        assert!(!verdict_waits("interactive", 0));
        // A sheet that failed to load is still "loading" (no sheet): window load judges anyway.
        assert!(!verdict_waits("complete", 1));
    }

    #[test]
    fn coverage_line_numbers_are_raised_in_their_own_hue() {
        // coverage.py's dark palette: #777 numbers on its #1e1e1e page, 3.72:1.
        let (grey, page) = (Rgba::rgb(119, 119, 119), Rgba::rgb(30, 30, 30));
        let up = raised(grey, page, false).expect("3.7:1 is raised");
        assert!(contrast(up, page) >= 4.5 && contrast(up, page) < 4.8, "raised only as far as needed: {up:?} {}", contrast(up, page));
        assert!(up.r == up.g && up.g == up.b, "grey stays grey: {up:?}");
        // A passing pair is left as the site made it; large text needs only 3:1.
        assert_eq!(raised(Rgba::rgb(200, 200, 200), page, false), None);
        assert_eq!(raised(grey, page, true), None);
        let blue = raised(Rgba::rgb(30, 60, 160), page, false).unwrap();
        assert!((blue.to_hsl().0 - Rgba::rgb(30, 60, 160).to_hsl().0).abs() < 3.0, "hue kept: {blue:?}");
        // On a light background inside a dark design, text goes darker.
        let dark = raised(Rgba::rgb(150, 150, 150), Rgba::rgb(240, 240, 240), false).unwrap();
        assert!(dark.luminance() < Rgba::rgb(150, 150, 150).luminance());
        // Invisible text stays invisible.
        assert_eq!(raised(Rgba { a: 0.0, ..grey }, page, false), None);
    }

    #[test]
    fn the_raise_sheet_and_the_root_scheme() {
        assert_eq!(raise_css(["#8c8c8c"]), "@layer dusk-aa{[data-dusk-aa=\"#8c8c8c\"]{color:#8c8c8c!important}}");
        assert_eq!(raise_css([]), "");
        assert_eq!(scheme_css("light dark", None), ":root{color-scheme:dark}");
        assert_eq!(scheme_css("normal", None), "");
        assert_eq!(scheme_css("only light", Some("light dark")), "");
        // furo: nothing on the root, `<meta name="color-scheme" content="light dark">`.
        assert_eq!(scheme_css("normal", Some("light dark")), ":root{color-scheme:dark}");
        assert_eq!(scheme_css("normal", Some("only light")), "");
    }

    #[test]
    fn only_scheme_blocks_that_paint_can_darken_the_page() {
        let scope = |css: &str, media: &str| vec![Scope { sheets: vec![crate::dark::Sheet { css: css.into(), media: media.into() }], ..Scope::default() }];
        // rustdoc: its dark block only flags the scheme for its script.
        assert!(!may_darken(&scope("body { color: #000 } @media (prefers-color-scheme: dark) { html { content: \"dark\"; } }", "")));
        assert!(!may_darken(&scope("body { color: #000 }", "")));
        assert!(may_darken(&scope("@media (prefers-color-scheme: dark) { body { background: #111 } }", "")));
        assert!(may_darken(&scope("@media screen { @media (prefers-color-scheme: dark) { :root { --bg: #111 } } }", "")));
        // A light block switched off may unveil a dark default.
        assert!(may_darken(&scope("@media (prefers-color-scheme: light) { body { color: #000 } }", "")));
        // A `<link media>` sheet gated as a whole.
        assert!(may_darken(&scope("body { background: #111 }", "(prefers-color-scheme: dark)")));
        // Switched on in place already, the condition still counts.
        assert!(may_darken(&scope("@media (prefers-color-scheme) { body { filter: invert(1) } }", "")));
    }

    #[test]
    fn text_at_half_opacity_is_raised_as_painted() {
        // nbconvert's prompts: grey text at `opacity: 0.5` on a dark cell.
        let (grey, page) = (Rgba::rgb(130, 130, 130), Rgba::rgb(24, 24, 24));
        assert_eq!(raised(grey, page, false), None, "opaque, the grey passes");
        let up = raised_through(grey, page, false, 0.5).expect("at half opacity it doesn't");
        let painted = Rgba { a: 0.5, ..up }.over(page).rounded();
        assert!(contrast(painted, page) >= 4.5, "{up:?} painted {painted:?}: {}", contrast(painted, page));
        assert!(up.r == up.g && up.g == up.b, "grey stays grey: {up:?}");
        // Nothing can pass at 10%: the lightest colour in its hue, and nothing at all when invisible.
        assert_eq!(raised_through(grey, page, false, 0.1), Some(Rgba::rgb(255, 255, 255)));
        assert_eq!(raised_through(grey, page, false, 0.0), None);
    }

    fn any_rgba() -> impl Strategy<Value = Rgba> {
        (0u8..=255, 0u8..=255, 0u8..=255, 0.2f32..=1.0).prop_map(|(r, g, b, a)| Rgba { a, ..Rgba::rgb(r, g, b) })
    }

    proptest! {
        #[test]
        fn every_raised_pair_meets_aa(fg in any_rgba(), bg in any_rgba(), large in any::<bool>()) {
            let bg = Rgba { a: 1.0, ..bg };
            let painted = if fg.a < 1.0 { fg.over(bg) } else { fg };
            let need = if large { 3.0 } else { 4.5 };
            match raised(fg, bg, large) {
                Some(up) => prop_assert!(contrast(up, bg) >= need, "{:?} on {:?} → {:?}: {}", fg, bg, up, contrast(up, bg)),
                None => prop_assert!(contrast(painted, bg) >= need, "{:?} on {:?}", fg, bg),
            }
        }

        #[test]
        fn raised_translucent_text_passes_where_it_can(fg in any_rgba(), bg in any_rgba(), large in any::<bool>(), opacity in 0.45f32..=1.0) {
            // On a mid grey even white or black at 45% can't pass; wherever the extreme itself
            // passes, the raised colour must too.
            let bg = Rgba { a: 1.0, ..bg };
            let need = if large { 3.0 } else { 4.5 };
            let blend = |c: Rgba| Rgba { a: opacity, ..c }.over(bg).rounded();
            let reachable = contrast(blend(Rgba::rgb(255, 255, 255)), bg) >= need + 0.1 || contrast(blend(Rgba::rgb(0, 0, 0)), bg) >= need + 0.1;
            if let Some(up) = raised_through(fg, bg, large, opacity) {
                if reachable {
                    prop_assert!(contrast(blend(up), bg) >= need, "{:?} on {:?} at {} → {:?}: {}", fg, bg, opacity, up, contrast(blend(up), bg));
                }
            }
        }
    }
}
