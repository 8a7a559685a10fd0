//! Maps one colour to its dark-theme counterpart by the role it plays. Every background lands in
//! a dark band and every text colour in a light band, chosen so any text on any background of
//! the theme has at least AA contrast (4.5:1), whatever pair the cascade ends up combining.

pub use super::band::Role;
use super::band::{clamp_luminance, BG_MAX_Y, FG_MIN_Y};
use super::color::Rgba;

/// Up to this luminance a background counts as dark already (#3a3a3a is about 0.042).
const DARK_BG_Y: f32 = 0.042;

/// Lightness kept by a background that is dark already (#333 becomes #292929).
const DARK_BG_DEEPEN: f32 = 0.8;
/// Highest luminance any text keeps: pure white glares on a dark page (#e7e7e7 is about 0.80).
pub const FG_MAX_Y: f32 = 0.80;
/// Highest luminance coloured text is lifted to: links and accents stay vivid but below the
/// body text, and their glyphs don't glare (about where Dark Reader's blues and greens sit).
pub const FG_CHROMA_MAX_Y: f32 = 0.32;
/// Saturation from which text counts as coloured.
const CHROMA_MIN_S: f32 = 0.25;

/// The page background white turns into.
pub fn base_bg() -> Rgba {
    map(Rgba::rgb(255, 255, 255), Role::Bg)
}

/// The text colour black turns into.
pub fn base_fg() -> Rgba {
    map(Rgba::rgb(0, 0, 0), Role::Fg)
}

pub fn map(c: Rgba, role: Role) -> Rgba {
    let mapped = match role {
        Role::Bg => map_bg(c),
        Role::Fg => map_fg(c),
        Role::Border => map_border(c),
    };
    super::adjust::current().apply(mapped, role)
}

fn map_bg(c: Rgba) -> Rgba {
    let (h, s, l) = c.to_hsl();
    // Already-dark backgrounds (dark headers, code blocks) keep their hue, a shade deeper so a
    // #333 sidebar doesn't outshine the page; light ones invert.
    let l = if c.luminance() <= DARK_BG_Y { l * DARK_BG_DEEPEN } else { 0.09 + 0.13 * (1.0 - l) };
    let s = s.min(0.6);
    clamp_luminance(h, s, l, c.a, |y| y <= BG_MAX_Y - 0.002, false)
}

fn map_fg(c: Rgba) -> Rgba {
    if c.a < 0.05 {
        return c;
    }
    // Translucent text is flattened over white first: the theme must not depend on what lies below.
    let c = if c.a < 1.0 { c.over(Rgba::rgb(255, 255, 255)) } else { c };
    let (h, s, l) = c.to_hsl();
    if c.luminance() >= FG_MIN_Y {
        // Text light already (a dark sidebar's, a header's) is drawn into the band below the glare
        // cap, order kept: white lands on the cap, #ccc a shade under the body text.
        let y = FG_MIN_Y + 0.01 + (c.luminance() - FG_MIN_Y) * (FG_MAX_Y - FG_MIN_Y - 0.01) / (1.0 - FG_MIN_Y);
        return with_luminance(h, s, l, y);
    }
    // Black lands on #ccc, not white: softer on the eyes, still 11:1 on the base background.
    let lifted = clamp_luminance(h, s, 0.55 + 0.25 * (1.0 - l), 1.0, |y| y >= FG_MIN_Y + 0.01, true);
    if s >= CHROMA_MIN_S && lifted.luminance() > FG_CHROMA_MAX_Y {
        let (h, s, l) = lifted.to_hsl();
        return clamp_luminance(h, s, l, 1.0, |y| y <= FG_CHROMA_MAX_Y, false);
    }
    lifted
}

fn map_border(c: Rgba) -> Rgba {
    let (h, s, l) = c.to_hsl();
    Rgba::from_hsl(h, s.min(0.5), 0.22 + 0.3 * (1.0 - l), c.a).rounded()
}

/// The colour of hue `h` and saturation `s` whose rounded luminance lands next to `y`.
fn with_luminance(h: f32, s: f32, l: f32, y: f32) -> Rgba {
    if Rgba::from_hsl(h, s, l, 1.0).rounded().luminance() > y {
        clamp_luminance(h, s, l, 1.0, |v| v <= y, false)
    } else {
        clamp_luminance(h, s, l, 1.0, |v| v >= y, true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dark::color::contrast;
    use proptest::prelude::*;

    #[test]
    fn white_page_black_text_becomes_dark_page_light_text() {
        assert!(base_bg().luminance() < 0.012, "{:?}", base_bg());
        assert!(base_fg().luminance() > 0.55, "{:?}", base_fg());
        assert!(contrast(base_bg(), base_fg()) > 10.0);
    }

    #[test]
    fn the_pre_paint_fallback_css_uses_the_same_colours() {
        let css = include_str!("../../../../extension/dark-fallback.css");
        assert!(css.contains(&format!("background-color: {} !important", base_bg().to_css())), "{:?}", base_bg().to_css());
        assert!(css.contains(&format!("color: {} !important", base_fg().to_css())), "{:?}", base_fg().to_css());
    }

    #[test]
    fn coloured_text_is_lifted_less_than_grey() {
        // Node's link green, python's link blue: readable, and no brighter than they need be.
        for c in [Rgba::rgb(67, 133, 61), Rgba::rgb(0, 0, 238), Rgba::rgb(170, 0, 0)] {
            let y = map(c, Role::Fg).luminance();
            assert!((FG_MIN_Y..=FG_CHROMA_MAX_Y).contains(&y), "{c:?} → {y}");
        }
        assert!(base_fg().luminance() > FG_CHROMA_MAX_Y, "grey text is lifted to the body-text shade");
        // Already-light text keeps its hue and its order, drawn under the glare cap.
        let (green, grey) = (map(Rgba::rgb(144, 238, 144), Role::Fg), map(Rgba::rgb(204, 204, 204), Role::Fg));
        assert!((green.to_hsl().0 - 120.0).abs() < 3.0 && green.luminance() < Rgba::rgb(144, 238, 144).luminance(), "{green:?}");
        assert!(grey.luminance() < 0.54 && grey.luminance() > map(Rgba::rgb(150, 150, 150), Role::Fg).luminance(), "{grey:?}");
        let white = map(Rgba::rgb(255, 255, 255), Role::Fg);
        assert!((0.75..=FG_MAX_Y).contains(&white.luminance()), "{white:?}");
    }

    #[test]
    fn dark_backgrounds_keep_their_hue_a_shade_deeper() {
        assert_eq!(map(Rgba::rgb(51, 51, 51), Role::Bg), Rgba::rgb(41, 41, 41));
        let navy = map(Rgba::rgb(20, 30, 60), Role::Bg);
        assert!(navy.luminance() < Rgba::rgb(20, 30, 60).luminance() && (navy.to_hsl().0 - 225.0).abs() < 3.0, "{navy:?}");
        assert_eq!(map(Rgba::rgb(0, 0, 0), Role::Bg), Rgba::rgb(0, 0, 0));
    }

    #[test]
    fn hue_is_kept() {
        let blue = map(Rgba::rgb(0, 0, 238), Role::Fg);
        let (h, _, _) = blue.to_hsl();
        assert!((h - 240.0).abs() < 6.0, "{blue:?}");
        let pale_yellow = map(Rgba::rgb(255, 255, 204), Role::Bg);
        let (h, _, _) = pale_yellow.to_hsl();
        assert!((h - 60.0).abs() < 8.0, "{pale_yellow:?}");
    }

    #[test]
    fn translucent_text_becomes_opaque_and_invisible_text_stays_invisible() {
        assert_eq!(map(Rgba { a: 0.6, ..Rgba::rgb(0, 0, 0) }, Role::Fg).a, 1.0);
        assert_eq!(map(Rgba { a: 0.0, ..Rgba::rgb(0, 0, 0) }, Role::Fg).a, 0.0);
    }

    fn any_rgb() -> impl Strategy<Value = Rgba> {
        (0u8..=255, 0u8..=255, 0u8..=255).prop_map(|(r, g, b)| Rgba::rgb(r, g, b))
    }

    proptest! {
        #[test]
        fn any_text_on_any_background_meets_aa(fg in any_rgb(), bg in any_rgb(), bg2 in any_rgb(), a in 0.0f32..1.0) {
            let bg = map(bg, Role::Bg);
            // A translucent background layered on another themed background stays in the band too.
            let layered = map(Rgba { a, ..bg2 }, Role::Bg).over(bg);
            let fg = map(fg, Role::Fg);
            prop_assert!(contrast(fg, bg) >= 4.5, "{:?} on {:?}: {}", fg, bg, contrast(fg, bg));
            prop_assert!(contrast(fg, layered) >= 4.5, "{:?} on {:?}", fg, layered);
        }
    }
}
