//! check_contrast: WCAG contrast of two CSS colours, in any syntax the page layer parses.

use crate::page::color::{contrast_ratio, Rgba};
use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Contrast {
    /// Rounded to two decimals.
    pub ratio: f64,
    /// Normal text: 4.5:1; AAA 7:1.
    pub aa: bool,
    pub aaa: bool,
    /// Large text (24 px, or 18.66 px bold) passes AA at 3:1.
    pub aa_large: bool,
}

/// A translucent background is taken over black, the colour a dark theme sits on; translucent
/// text over the background.
pub fn check_contrast(foreground: &str, background: &str) -> Result<Contrast, String> {
    let fg = Rgba::parse(foreground).ok_or_else(|| format!("`{foreground}` is not a CSS colour"))?;
    let bg = Rgba::parse(background).ok_or_else(|| format!("`{background}` is not a CSS colour"))?;
    let black = Rgba { r: 0.0, g: 0.0, b: 0.0, a: 1.0 };
    let bg = if bg.a < 1.0 { bg.over(&black) } else { bg };
    let fg = if fg.a < 1.0 { fg.over(&bg) } else { fg };
    let ratio = contrast_ratio(&fg, &bg);
    Ok(Contrast { ratio: (ratio * 100.0).round() / 100.0, aa: ratio >= 4.5, aaa: ratio >= 7.0, aa_large: ratio >= 3.0 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_css_colour_syntax() {
        let c = check_contrast("white", "#000").unwrap();
        assert_eq!((c.ratio, c.aa, c.aaa), (21.0, true, true));
        let c = check_contrast("rgb(119 119 119)", "hsl(0 0% 100%)").unwrap();
        assert!((c.ratio - 4.48).abs() < 0.01 && !c.aa && c.aa_large, "{c:?}");
        assert!(check_contrast("oklch(0.9 0.02 250)", "#1a1a1a").unwrap().aaa);
        assert!(check_contrast("#fff8", "#000").unwrap().ratio < 21.0);
        assert!(check_contrast("notacolour", "#000").unwrap_err().contains("not a CSS colour"));
    }
}
