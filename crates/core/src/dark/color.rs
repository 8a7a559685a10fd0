//! CSS colour parsing and serialising, plus the WCAG 2.1 contrast maths.

/// An sRGB colour: channels 0..=255 (kept as f32 so mapping never rounds twice), alpha 0..=1.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rgba {
    pub r: f32,
    pub g: f32,
    pub b: f32,
    pub a: f32,
}

impl Rgba {
    pub const fn rgb(r: u8, g: u8, b: u8) -> Rgba {
        Rgba { r: r as f32, g: g as f32, b: b as f32, a: 1.0 }
    }

    /// WCAG 2.1 relative luminance of the opaque colour.
    pub fn luminance(&self) -> f32 {
        fn lin(c: f32) -> f32 {
            let c = (c / 255.0).clamp(0.0, 1.0);
            if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
        }
        0.2126 * lin(self.r) + 0.7152 * lin(self.g) + 0.0722 * lin(self.b)
    }

    /// This colour painted over an opaque `below` (alpha compositing in sRGB, as browsers do).
    pub fn over(&self, below: Rgba) -> Rgba {
        let a = self.a.clamp(0.0, 1.0);
        Rgba {
            r: self.r * a + below.r * (1.0 - a),
            g: self.g * a + below.g * (1.0 - a),
            b: self.b * a + below.b * (1.0 - a),
            a: 1.0,
        }
    }

    /// Hue in degrees, saturation and lightness in 0..=1.
    pub fn to_hsl(&self) -> (f32, f32, f32) {
        let (r, g, b) = (self.r / 255.0, self.g / 255.0, self.b / 255.0);
        let max = r.max(g).max(b);
        let min = r.min(g).min(b);
        let l = (max + min) / 2.0;
        let d = max - min;
        if d < 1e-6 {
            return (0.0, 0.0, l);
        }
        let s = if l > 0.5 { d / (2.0 - max - min) } else { d / (max + min) };
        let h = if max == r {
            (g - b) / d + if g < b { 6.0 } else { 0.0 }
        } else if max == g {
            (b - r) / d + 2.0
        } else {
            (r - g) / d + 4.0
        };
        (h * 60.0, s, l)
    }

    pub fn from_hsl(h: f32, s: f32, l: f32, a: f32) -> Rgba {
        let (s, l) = (s.clamp(0.0, 1.0), l.clamp(0.0, 1.0));
        let c = (1.0 - (2.0 * l - 1.0).abs()) * s;
        let hp = (h.rem_euclid(360.0)) / 60.0;
        let x = c * (1.0 - (hp % 2.0 - 1.0).abs());
        let (r, g, b) = match hp as u32 {
            0 => (c, x, 0.0),
            1 => (x, c, 0.0),
            2 => (0.0, c, x),
            3 => (0.0, x, c),
            4 => (x, 0.0, c),
            _ => (c, 0.0, x),
        };
        let m = l - c / 2.0;
        Rgba { r: (r + m) * 255.0, g: (g + m) * 255.0, b: (b + m) * 255.0, a: a.clamp(0.0, 1.0) }
    }

    /// Rounded to what a browser actually paints, so contrast is checked on real values.
    pub fn rounded(&self) -> Rgba {
        Rgba { r: self.r.round().clamp(0.0, 255.0), g: self.g.round().clamp(0.0, 255.0), b: self.b.round().clamp(0.0, 255.0), a: self.a }
    }

    /// `#rrggbb`, or `rgba(r, g, b, a)` when translucent.
    pub fn to_css(&self) -> String {
        let c = self.rounded();
        if c.a >= 0.999 {
            format!("#{:02x}{:02x}{:02x}", c.r as u8, c.g as u8, c.b as u8)
        } else {
            let a = (c.a * 1000.0).round() / 1000.0;
            format!("rgba({}, {}, {}, {})", c.r as u8, c.g as u8, c.b as u8, a)
        }
    }
}

/// WCAG contrast ratio between two opaque colours, 1..=21.
pub fn contrast(a: Rgba, b: Rgba) -> f32 {
    let (la, lb) = (a.luminance(), b.luminance());
    let (hi, lo) = if la > lb { (la, lb) } else { (lb, la) };
    (hi + 0.05) / (lo + 0.05)
}

/// Parses one CSS colour: hex, rgb[a](), hsl[a]() (legacy and space syntax) or a named colour.
/// `currentcolor`, system colours and unknown functions are not colours we can map: None.
pub fn parse(input: &str) -> Option<Rgba> {
    let s = input.trim();
    if let Some(hex) = s.strip_prefix('#') {
        return parse_hex(hex);
    }
    let lower = s.to_ascii_lowercase();
    if let Some(open) = lower.find('(') {
        if !lower.ends_with(')') {
            return None;
        }
        let name = &lower[..open];
        let args = &lower[open + 1..lower.len() - 1];
        return match name {
            "rgb" | "rgba" => parse_rgb(args),
            "hsl" | "hsla" => parse_hsl(args),
            _ => None,
        };
    }
    if lower == "transparent" {
        return Some(Rgba { r: 0.0, g: 0.0, b: 0.0, a: 0.0 });
    }
    super::named::lookup(&lower).map(|v| Rgba::rgb((v >> 16) as u8, (v >> 8) as u8, v as u8))
}

fn parse_hex(hex: &str) -> Option<Rgba> {
    if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let digit = |i: usize| u8::from_str_radix(hex.get(i..i + 1)?, 16).ok().map(|v| v * 17);
    let pair = |i: usize| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok();
    let (r, g, b, a) = match hex.len() {
        3 => (digit(0)?, digit(1)?, digit(2)?, 255),
        4 => (digit(0)?, digit(1)?, digit(2)?, digit(3)?),
        6 => (pair(0)?, pair(2)?, pair(4)?, 255),
        8 => (pair(0)?, pair(2)?, pair(4)?, pair(6)?),
        _ => return None,
    };
    Some(Rgba { r: r as f32, g: g as f32, b: b as f32, a: a as f32 / 255.0 })
}

/// Splits `a, b, c` or `a b c / d` into components; `var(...)` alpha reads as opaque.
fn components(args: &str) -> Option<(Vec<&str>, Option<&str>)> {
    let (main, alpha) = match args.split_once('/') {
        Some((m, a)) => (m, Some(a.trim())),
        None => (args, None),
    };
    let parts: Vec<&str> = main.split(|c: char| c == ',' || c.is_whitespace()).filter(|p| !p.is_empty()).collect();
    match (parts.len(), alpha) {
        (3, a) => Some((parts, a)),
        (4, None) => Some((parts[..3].to_vec(), Some(parts[3]))),
        _ => None,
    }
}

fn number(s: &str) -> Option<f32> {
    let v: f32 = s.parse().ok()?;
    v.is_finite().then_some(v)
}

fn channel(s: &str) -> Option<f32> {
    match s.strip_suffix('%') {
        Some(p) => number(p).map(|v| v * 2.55),
        None => number(s),
    }
    .map(|v| v.clamp(0.0, 255.0))
}

fn alpha(s: Option<&str>) -> Option<f32> {
    match s {
        None => Some(1.0),
        Some(a) if a.starts_with("var(") => Some(1.0),
        Some(a) => match a.strip_suffix('%') {
            Some(p) => number(p).map(|v| v / 100.0),
            None => number(a),
        }
        .map(|v| v.clamp(0.0, 1.0)),
    }
}

fn parse_rgb(args: &str) -> Option<Rgba> {
    let (c, a) = components(args)?;
    Some(Rgba { r: channel(c[0])?, g: channel(c[1])?, b: channel(c[2])?, a: alpha(a)? })
}

fn parse_hsl(args: &str) -> Option<Rgba> {
    let (c, a) = components(args)?;
    let h = number(c[0].trim_end_matches("deg"))?;
    let pct = |s: &str| number(s.trim_end_matches('%')).map(|v| v / 100.0);
    Some(Rgba::from_hsl(h, pct(c[1])?, pct(c[2])?, alpha(a)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_forms_chrome_serialises() {
        assert_eq!(parse("#fff"), Some(Rgba::rgb(255, 255, 255)));
        assert_eq!(parse("#00000080").map(|c| (c.a * 100.0).round()), Some(50.0));
        assert_eq!(parse("rgb(1, 2, 3)"), Some(Rgba::rgb(1, 2, 3)));
        assert_eq!(parse("rgba(1, 2, 3, 0.5)").map(|c| c.a), Some(0.5));
        assert_eq!(parse("rgb(1 2 3 / 25%)").map(|c| c.a), Some(0.25));
        assert_eq!(parse("rgb(17 24 39/var(--tw-text-opacity))").map(|c| c.a), Some(1.0));
        assert_eq!(parse("hsl(0, 100%, 50%)").map(|c| c.rounded()), Some(Rgba::rgb(255, 0, 0)));
        assert_eq!(parse("RebeccaPurple"), Some(Rgba::rgb(102, 51, 153)));
        assert_eq!(parse("transparent").map(|c| c.a), Some(0.0));
        for junk in ["", "#ggg", "#12", "rgb(", "rgb(1,2)", "currentcolor", "var(--x)", "oklch(1 0 0)", "rgb(nan, 1, 2)", "#ffé"] {
            assert_eq!(parse(junk), None, "{junk}");
        }
    }

    #[test]
    fn wcag_contrast_matches_known_values() {
        let (w, k) = (Rgba::rgb(255, 255, 255), Rgba::rgb(0, 0, 0));
        assert!((contrast(w, k) - 21.0).abs() < 0.01);
        assert!((contrast(Rgba::rgb(0x76, 0x76, 0x76), w) - 4.54).abs() < 0.02);
    }

    #[test]
    fn hsl_round_trips() {
        for c in [Rgba::rgb(12, 200, 99), Rgba::rgb(255, 255, 255), Rgba::rgb(30, 30, 90)] {
            let (h, s, l) = c.to_hsl();
            assert_eq!(Rgba::from_hsl(h, s, l, 1.0).rounded(), c);
        }
    }

    #[test]
    fn serialises_opaque_as_hex() {
        assert_eq!(Rgba::rgb(24, 26, 27).to_css(), "#181a1b");
        assert_eq!(Rgba { a: 0.5, ..Rgba::rgb(1, 2, 3) }.to_css(), "rgba(1, 2, 3, 0.5)");
    }
}
