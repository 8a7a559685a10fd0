//! The bands every mapped colour is held in, by the role it plays: backgrounds at most `BG_MAX_Y`,
//! text at least `FG_MIN_Y`, so any text on any background keeps AA. Mapping and the user's
//! adjustments both land colours here.

use super::color::Rgba;

/// What a colour is used for, which decides where it lands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// Backgrounds, gradients and shadows.
    Bg,
    /// Text, SVG fill/stroke, caret and decoration colours.
    Fg,
    /// Borders, outlines and rules.
    Border,
}

impl Role {
    pub const ALL: [Role; 3] = [Role::Bg, Role::Fg, Role::Border];

    pub fn tag(self) -> &'static str {
        match self {
            Role::Bg => "bg",
            Role::Fg => "fg",
            Role::Border => "bd",
        }
    }
}

/// Highest luminance a background may have (#2c2c2c is about 0.025): low enough that links and
/// accents may sit as low as Dark Reader's and still pass AA on every background of the theme.
pub const BG_MAX_Y: f32 = 0.025;
/// Lowest luminance text may have; (0.30 + 0.05) / (0.025 + 0.05) = 4.67 ≥ 4.5 with rounding margin.
pub const FG_MIN_Y: f32 = 0.30;

/// Moves lightness (up or down) until the rounded colour's luminance satisfies `ok`.
pub(super) fn clamp_luminance(h: f32, s: f32, l: f32, a: f32, ok: impl Fn(f32) -> bool, up: bool) -> Rgba {
    let first = Rgba::from_hsl(h, s, l, a).rounded();
    if ok(first.luminance()) {
        return first;
    }
    // Bisect between l and the extreme that surely satisfies (white or black).
    let (mut bad, mut good) = (l, if up { 1.0 } else { 0.0 });
    for _ in 0..20 {
        let mid = (bad + good) / 2.0;
        if ok(Rgba::from_hsl(h, s, mid, a).rounded().luminance()) {
            good = mid
        } else {
            bad = mid
        }
    }
    Rgba::from_hsl(h, s, good, a).rounded()
}
