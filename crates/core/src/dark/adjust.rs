//! Dark Reader's four adjustments (brightness, contrast, sepia, grayscale), applied to each colour
//! the theme maps rather than as a CSS `filter` on the page: images and video keep their own
//! colours, and text is put back above the AA floor after every adjustment (see docs/dark-mode.md).

use super::band::{clamp_luminance, Role, BG_MAX_Y, FG_MIN_Y};
use super::color::Rgba;
use serde::{Deserialize, Serialize};
use std::cell::Cell;
use std::collections::BTreeMap;

/// chrome.storage.local key: the adjustment every site uses unless it has its own.
pub const GLOBAL_KEY: &str = "dark_adjust";
/// chrome.storage.local key: hostname → that site's own adjustment.
pub const SITES_KEY: &str = "dark_adjust_sites";

/// Brightness and contrast in percent (50..=150, 100 = unchanged); sepia and grayscale 0..=100.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Adjust {
    pub brightness: u8,
    pub contrast: u8,
    pub sepia: u8,
    pub grayscale: u8,
}

const NEUTRAL: Adjust = Adjust { brightness: 100, contrast: 100, sepia: 0, grayscale: 0 };

impl Default for Adjust {
    fn default() -> Self {
        NEUTRAL
    }
}

/// The range each control offers, as Dark Reader's popup does.
pub const PERCENT_RANGE: (u8, u8) = (50, 150);
pub const AMOUNT_RANGE: (u8, u8) = (0, 100);

impl Adjust {
    /// Every value inside its control's range (a stored or imported value may be anything).
    pub fn clamped(self) -> Adjust {
        let p = |v: u8| v.clamp(PERCENT_RANGE.0, PERCENT_RANGE.1);
        let a = |v: u8| v.clamp(AMOUNT_RANGE.0, AMOUNT_RANGE.1);
        Adjust { brightness: p(self.brightness), contrast: p(self.contrast), sepia: a(self.sepia), grayscale: a(self.grayscale) }
    }

    pub fn is_neutral(&self) -> bool {
        *self == Adjust::default()
    }

    /// `c` (already mapped for `role`) adjusted, then held in its role's band: backgrounds stay
    /// at or below `BG_MAX_Y` and text at or above `FG_MIN_Y`, so every pair keeps ≥ 4.5:1.
    pub fn apply(&self, c: Rgba, role: Role) -> Rgba {
        if self.is_neutral() || (role == Role::Fg && c.a < 0.05) {
            return c;
        }
        let adjusted = self.matrix(c);
        let (h, s, l) = adjusted.to_hsl();
        match role {
            Role::Bg => clamp_luminance(h, s, l, c.a, |y| y <= BG_MAX_Y - 0.002, false),
            Role::Fg => clamp_luminance(h, s, l, c.a, |y| y >= FG_MIN_Y + 0.01, true),
            Role::Border => adjusted.rounded(),
        }
    }

    /// Dark Reader's filter matrix on one colour, in its order: brightness, contrast, grayscale, sepia.
    fn matrix(&self, c: Rgba) -> Rgba {
        let (mut r, mut g, mut b) = (c.r / 255.0, c.g / 255.0, c.b / 255.0);
        // Each step clamps, as CSS filter functions do (dark-fallback.css does the same maths).
        let unit = |x: f32| x.clamp(0.0, 1.0);
        let k = self.brightness as f32 / 100.0;
        (r, g, b) = (unit(r * k), unit(g * k), unit(b * k));
        let k = self.contrast as f32 / 100.0;
        let t = (1.0 - k) / 2.0;
        (r, g, b) = (unit(r * k + t), unit(g * k + t), unit(b * k + t));
        let v = 1.0 - self.grayscale as f32 / 100.0;
        (r, g, b) = (
            (0.2126 + 0.7874 * v) * r + (0.7152 - 0.7152 * v) * g + (0.0722 - 0.0722 * v) * b,
            (0.2126 - 0.2126 * v) * r + (0.7152 + 0.2848 * v) * g + (0.0722 - 0.0722 * v) * b,
            (0.2126 - 0.2126 * v) * r + (0.7152 - 0.7152 * v) * g + (0.0722 + 0.9278 * v) * b,
        );
        (r, g, b) = (unit(r), unit(g), unit(b));
        let v = 1.0 - self.sepia as f32 / 100.0;
        (r, g, b) = (
            (0.393 + 0.607 * v) * r + (0.769 - 0.769 * v) * g + (0.189 - 0.189 * v) * b,
            (0.349 - 0.349 * v) * r + (0.686 + 0.314 * v) * g + (0.168 - 0.168 * v) * b,
            (0.272 - 0.272 * v) * r + (0.534 - 0.534 * v) * g + (0.131 + 0.869 * v) * b,
        );
        let ch = |x: f32| (x * 255.0).clamp(0.0, 255.0);
        Rgba { r: ch(r), g: ch(g), b: ch(b), a: c.a }
    }
}

/// The stored adjustments: one for every site, and the sites' own, which win.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Adjustments {
    pub global: Adjust,
    pub sites: BTreeMap<String, Adjust>,
}

impl Adjustments {
    /// Reads the stored values; anything malformed counts as unset, anything out of range is clamped.
    pub fn from_stored(global: Option<serde_json::Value>, sites: Option<serde_json::Value>) -> Adjustments {
        let global = global.and_then(|v| crate::protocol::from_value::<Adjust>(v).ok()).unwrap_or_default().clamped();
        let sites: BTreeMap<String, Adjust> = sites.and_then(|v| crate::protocol::from_value(v).ok()).unwrap_or_default();
        // Inserted one by one: a collect into the map sorts first, with a sort compiled for it.
        let mut lowered = BTreeMap::new();
        for (h, a) in sites {
            lowered.insert(h.to_ascii_lowercase(), a.clamped());
        }
        Adjustments { global, sites: lowered }
    }

    /// The site's own adjustment, else the global one.
    pub fn for_host(&self, host: &str) -> Adjust {
        self.sites.get(&host.to_ascii_lowercase()).copied().unwrap_or(self.global)
    }

    pub fn has_own(&self, host: &str) -> bool {
        self.sites.contains_key(&host.to_ascii_lowercase())
    }

    /// Sets (Some) or forgets (None) a site's own adjustment.
    pub fn set_site(&mut self, host: &str, adjust: Option<Adjust>) {
        let host = host.to_ascii_lowercase();
        match adjust {
            Some(a) => self.sites.insert(host, a.clamped()),
            None => self.sites.remove(&host),
        };
    }
}

/// The pre-paint fallback sheet every dark site gets.
pub const FALLBACK_CSS: &str = "dark-fallback.css";

/// The registered CSS files that paint the pre-paint fallback with `adjust`: the fallback sheet,
/// then one file per dimension that moves its three greys (build.sh writes `fallback/<name>-<n>.css`
/// for every 5 %, each setting `--dusk-<name>`; grayscale leaves greys as they are).
pub fn fallback_files(adjust: Adjust) -> Vec<String> {
    let a = adjust.clamped();
    let mut files = vec![FALLBACK_CSS.to_string()];
    for (name, value, neutral) in [("brightness", a.brightness, 100), ("contrast", a.contrast, 100), ("sepia", a.sepia, 0)] {
        let step = (value as u32 + 2) / 5 * 5;
        if step != neutral {
            files.push(format!("fallback/{name}-{step}.css"));
        }
    }
    files
}

thread_local! {
    /// The adjustment of the theme being built; neutral outside `with_adjust`.
    static CURRENT: Cell<Adjust> = const { Cell::new(NEUTRAL) };
}

/// Runs `f` (a theme build) with every mapped colour adjusted by `adjust`. A scoped setting keeps
/// the theme builder's signatures as they are: the adjustment is the last step of `map`.
pub fn with_adjust<R>(adjust: Adjust, f: impl FnOnce() -> R) -> R {
    let before = CURRENT.with(|c| c.replace(adjust.clamped()));
    let out = f();
    CURRENT.with(|c| c.set(before));
    out
}

/// The adjustment of the theme being built, applied by `map::map`.
pub(super) fn current() -> Adjust {
    CURRENT.with(Cell::get)
}

/// What a slider reads against its default, as Dark Reader's do: `None` at the default (the UI
/// says "Off"), else the difference with its sign, "+10" or "−20" (a true minus sign).
pub fn slider_reading(value: u8, neutral: u8) -> Option<String> {
    let delta = i16::from(value) - i16::from(neutral);
    match delta {
        0 => None,
        d if d > 0 => Some(format!("+{d}")),
        d => Some(format!("\u{2212}{}", -d)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dark::color::contrast;
    use crate::dark::map::{base_bg, base_fg, map};
    use proptest::prelude::*;
    use serde_json::json;

    #[test]
    fn neutral_changes_nothing_and_brightness_moves_both_ways() {
        let (bg, fg) = (base_bg(), base_fg());
        assert_eq!(Adjust::default().apply(bg, Role::Bg), bg);
        let bright = Adjust { brightness: 150, ..Default::default() };
        let dim = Adjust { brightness: 50, ..Default::default() };
        assert!(bright.apply(bg, Role::Bg).luminance() > bg.luminance());
        assert!(dim.apply(bg, Role::Bg).luminance() < bg.luminance());
        assert!(bright.apply(fg, Role::Fg).luminance() > fg.luminance());
    }

    #[test]
    fn sepia_warms_and_grayscale_drains_colour() {
        let sepia = Adjust { sepia: 100, ..Default::default() }.apply(base_fg(), Role::Fg);
        assert!(sepia.r > sepia.b + 20.0, "{sepia:?}");
        let blue = map(Rgba::rgb(0, 0, 238), Role::Fg);
        let grey = Adjust { grayscale: 100, ..Default::default() }.apply(blue, Role::Fg);
        assert!((grey.r - grey.b).abs() <= 2.0 && grey.to_hsl().1 < 0.05, "{grey:?}");
    }

    #[test]
    fn low_contrast_stops_at_the_aa_floor() {
        let low = Adjust { contrast: 50, brightness: 50, ..Default::default() };
        let (bg, fg) = (low.apply(base_bg(), Role::Bg), low.apply(base_fg(), Role::Fg));
        assert!(contrast(fg, bg) >= 4.5, "{fg:?} on {bg:?}");
        assert!(contrast(fg, bg) < contrast(base_fg(), base_bg()), "it does lower the contrast");
    }

    #[test]
    fn stored_values_are_clamped_and_a_site_beats_global() {
        let mut a = Adjustments::from_stored(Some(json!({"brightness": 250, "sepia": 10})), Some(json!({"A.example": {"contrast": 10}})));
        assert_eq!(a.global, Adjust { brightness: 150, sepia: 10, ..Default::default() });
        assert_eq!(a.for_host("a.example"), Adjust { contrast: 50, ..Default::default() });
        assert_eq!(a.for_host("b.example"), a.global);
        a.set_site("a.example", None);
        assert_eq!(a.for_host("a.example"), a.global);
        assert_eq!(Adjustments::from_stored(Some(json!("junk")), Some(json!([1]))), Adjustments::default());
    }

    #[test]
    fn the_theme_builder_uses_the_scoped_adjustment_and_forgets_it_after() {
        let sheet = || crate::dark::build(&[crate::dark::Scope::default()]).remove(0);
        let plain = sheet();
        let warm = with_adjust(Adjust { sepia: 80, ..Default::default() }, sheet);
        assert_ne!(plain, warm);
        assert_eq!(sheet(), plain);
    }

    #[test]
    fn fallback_files_name_only_the_dimensions_that_move_a_grey() {
        assert_eq!(fallback_files(Adjust::default()), vec![FALLBACK_CSS.to_string()]);
        let a = Adjust { brightness: 123, contrast: 100, sepia: 40, grayscale: 100 };
        assert_eq!(fallback_files(a), vec![FALLBACK_CSS.to_string(), "fallback/brightness-125.css".into(), "fallback/sepia-40.css".into()]);
    }

    /// What dark-fallback.css computes for a grey `g` (0..=255) before its clamps, as CSS would.
    fn fallback_grey(g: f32, a: Adjust) -> Rgba {
        let (b, c, s) = (a.brightness as f32 / 100.0, a.contrast as f32 / 100.0, a.sepia as f32 / 100.0);
        let x = (((g / 255.0 * b).min(1.0) - 0.5) * c + 0.5).clamp(0.0, 1.0);
        Rgba {
            r: (255.0 * x * (1.0 + 0.351 * s)).clamp(0.0, 255.0),
            g: (255.0 * x * (1.0 + 0.203 * s)).clamp(0.0, 255.0),
            b: (255.0 * x * (1.0 - 0.063 * s)).clamp(0.0, 255.0),
            a: 1.0,
        }
        .rounded()
    }

    #[test]
    fn the_fallback_css_maths_is_the_adjustments_on_its_greys() {
        // The CSS's closed form of the matrix on a grey matches `matrix` (clamps aside).
        for a in [
            Adjust { brightness: 150, sepia: 60, ..Default::default() },
            Adjust { brightness: 70, contrast: 130, sepia: 100, ..Default::default() },
            Adjust { brightness: 150, contrast: 60, sepia: 30, ..Default::default() },
        ] {
            for g in [23.0, 204.0, 77.0] {
                let grey = Rgba { r: g, g, b: g, a: 1.0 };
                let m = a.matrix(grey).rounded();
                let css = fallback_grey(g, a);
                assert!((m.r - css.r).abs() <= 1.0 && (m.g - css.g).abs() <= 1.0 && (m.b - css.b).abs() <= 1.0, "{a:?} {g}: {m:?} vs {css:?}");
            }
        }
        let css = include_str!("../../../../extension/dark-fallback.css");
        for needle in [
            "min(1, calc(23 / 255",
            "min(1, calc(204 / 255",
            "min(1, calc(77 / 255",
            "0.351",
            "0.203",
            "0.063",
            "--dusk-brightness, 100",
            "--dusk-contrast, 100",
            "--dusk-sepia, 0",
        ] {
            assert!(css.contains(needle), "dark-fallback.css lacks {needle}");
        }
    }

    fn any_adjust() -> impl Strategy<Value = Adjust> {
        (50u8..=150, 50u8..=150, 0u8..=100, 0u8..=100).prop_map(|(brightness, contrast, sepia, grayscale)| Adjust { brightness, contrast, sepia, grayscale })
    }

    fn any_rgb() -> impl Strategy<Value = Rgba> {
        (0u8..=255, 0u8..=255, 0u8..=255).prop_map(|(r, g, b)| Rgba::rgb(r, g, b))
    }

    proptest! {
        #[test]
        fn any_text_on_any_background_meets_aa_at_every_setting(adj in any_adjust(), fg in any_rgb(), bg in any_rgb(), bg2 in any_rgb(), a in 0.0f32..1.0) {
            let (fg, bg, layered) = with_adjust(adj, || {
                let bg = map(bg, Role::Bg);
                (map(fg, Role::Fg), bg, map(Rgba { a, ..bg2 }, Role::Bg).over(bg))
            });
            prop_assert!(contrast(fg, bg) >= 4.5, "{:?}: {:?} on {:?}", adj, fg, bg);
            prop_assert!(contrast(fg, layered) >= 4.5, "{:?}: {:?} on {:?}", adj, fg, layered);
        }
    }

    #[test]
    fn a_slider_reads_off_at_its_default_and_a_signed_difference_elsewhere() {
        assert_eq!(slider_reading(NEUTRAL.brightness, NEUTRAL.brightness), None);
        assert_eq!(slider_reading(110, NEUTRAL.brightness).as_deref(), Some("+10"));
        assert_eq!(slider_reading(80, NEUTRAL.contrast).as_deref(), Some("\u{2212}20"));
        assert_eq!(slider_reading(0, NEUTRAL.sepia), None);
        assert_eq!(slider_reading(40, NEUTRAL.sepia).as_deref(), Some("+40"));
    }
}
