//! CSS colour parsing and serialising, plus the WCAG 2.1 contrast maths.

/// An sRGB colour: channels 0..=255 (kept as f32 so mapping never rounds twice), alpha 0..=1.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rgba {
    pub r: f32,
    pub g: f32,
    pub b: f32,
    pub a: f32,
}

fn srgb_to_linear(c: f32) -> f32 {
    let c = (c / 255.0).clamp(0.0, 1.0);
    if c <= 0.04045 {
        c / 12.92
    } else {
        // f64's pow, which page::color links anyway: f32's `powf` is another 1.6 KB of the dark layer.
        f64::from((c + 0.055) / 1.055).powf(2.4) as f32
    }
}

/// `srgb_to_linear` of each whole channel value (a test checks the table against it).
#[rustfmt::skip]
const SRGB_TO_LINEAR: [f32; 256] = [
    0.0, 0.000303527, 0.000607054, 0.000910581, 0.001214108, 0.001517635, 0.001821162, 0.0021246888,
    0.002428216, 0.0027317428, 0.00303527, 0.0033465358, 0.0036765074, 0.004024717, 0.004391442, 0.0047769533,
    0.0051815165, 0.0056053917, 0.006048833, 0.0065120906, 0.00699541, 0.007499032, 0.008023193, 0.008568126,
    0.009134059, 0.009721218, 0.010329823, 0.010960094, 0.011612245, 0.012286488, 0.0129830325, 0.013702083,
    0.014443844, 0.015208514, 0.015996294, 0.016807375, 0.017641954, 0.01850022, 0.019382361, 0.020288562,
    0.02121901, 0.022173885, 0.023153367, 0.024157632, 0.02518686, 0.026241222, 0.027320892, 0.02842604,
    0.029556835, 0.030713445, 0.031896032, 0.033104766, 0.034339808, 0.035601314, 0.03688945, 0.038204372,
    0.039546236, 0.0409152, 0.04231141, 0.04373503, 0.045186203, 0.046665087, 0.048171826, 0.049706567,
    0.051269457, 0.052860647, 0.054480277, 0.05612849, 0.05780543, 0.059511237, 0.061246052, 0.063010015,
    0.064803265, 0.06662594, 0.06847817, 0.070360094, 0.07227185, 0.07421357, 0.07618538, 0.07818742,
    0.08021982, 0.08228271, 0.08437621, 0.08650046, 0.08865558, 0.09084171, 0.093058966, 0.09530747,
    0.09758735, 0.099898726, 0.10224173, 0.104616486, 0.107023105, 0.10946171, 0.11193243, 0.114435375,
    0.116970666, 0.11953843, 0.122138776, 0.12477182, 0.12743768, 0.13013647, 0.13286832, 0.13563333,
    0.13843161, 0.14126329, 0.14412847, 0.14702727, 0.14995979, 0.15292615, 0.15592647, 0.15896083,
    0.16202937, 0.1651322, 0.1682694, 0.17144111, 0.1746474, 0.17788842, 0.18116425, 0.18447499,
    0.18782078, 0.19120169, 0.19461784, 0.19806932, 0.20155625, 0.20507874, 0.20863687, 0.21223076,
    0.2158605, 0.2195262, 0.22322796, 0.22696587, 0.23074006, 0.23455058, 0.23839757, 0.24228112,
    0.24620132, 0.25015828, 0.2541521, 0.25818285, 0.26225066, 0.2663556, 0.2704978, 0.2746773,
    0.27889428, 0.28314874, 0.28744084, 0.29177064, 0.29613826, 0.30054379, 0.3049873, 0.30946892,
    0.31398872, 0.31854677, 0.3231432, 0.3277781, 0.33245152, 0.33716363, 0.34191442, 0.34670407,
    0.3515326, 0.35640013, 0.3613068, 0.3662526, 0.3712377, 0.37626213, 0.38132602, 0.38642943,
    0.39157248, 0.39675522, 0.40197778, 0.4072402, 0.4125426, 0.41788507, 0.42326766, 0.4286905,
    0.43415365, 0.43965718, 0.4452012, 0.4507858, 0.45641103, 0.462077, 0.4677838, 0.47353148,
    0.47932017, 0.48514995, 0.49102086, 0.49693298, 0.5028865, 0.50888133, 0.5149177, 0.52099556,
    0.5271151, 0.5332764, 0.5394795, 0.54572445, 0.55201143, 0.5583404, 0.5647115, 0.57112485,
    0.57758045, 0.58407843, 0.59061885, 0.59720176, 0.60382736, 0.61049557, 0.6172066, 0.6239604,
    0.63075715, 0.63759685, 0.6444797, 0.65140563, 0.65837485, 0.6653873, 0.67244315, 0.6795425,
    0.6866853, 0.69387174, 0.7011019, 0.70837575, 0.7156935, 0.7230551, 0.73046076, 0.7379104,
    0.7454042, 0.7529422, 0.7605245, 0.76815116, 0.7758222, 0.7835378, 0.7912979, 0.7991027,
    0.80695224, 0.8148466, 0.82278574, 0.8307699, 0.838799, 0.8468732, 0.8549926, 0.8631572,
    0.8713671, 0.8796224, 0.8879231, 0.8962694, 0.9046612, 0.91309863, 0.92158186, 0.9301109,
    0.9386857, 0.9473065, 0.9559733, 0.9646863, 0.9734453, 0.9822506, 0.9911021, 1.0,
];

impl Rgba {
    pub const fn rgb(r: u8, g: u8, b: u8) -> Rgba {
        Rgba { r: r as f32, g: g as f32, b: b as f32, a: 1.0 }
    }

    /// WCAG 2.1 relative luminance of the opaque colour.
    pub fn luminance(&self) -> f32 {
        // Whole channels (nearly all of them) come from a table: powf is slow once compiled to JS.
        let lin = |c: f32| if c.fract() == 0.0 && (0.0..=255.0).contains(&c) { SRGB_TO_LINEAR[c as usize] } else { srgb_to_linear(c) };
        0.2126 * lin(self.r) + 0.7152 * lin(self.g) + 0.0722 * lin(self.b)
    }

    /// This colour painted over an opaque `below` (alpha compositing in sRGB, as browsers do).
    pub fn over(&self, below: Rgba) -> Rgba {
        let a = self.a.clamp(0.0, 1.0);
        Rgba { r: self.r * a + below.r * (1.0 - a), g: self.g * a + below.g * (1.0 - a), b: self.b * a + below.b * (1.0 - a), a: 1.0 }
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
    let v = crate::page::number::parse_number(s)? as f32;
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
    #[test]
    fn the_linear_table_matches_the_formula() {
        for (i, v) in super::SRGB_TO_LINEAR.iter().enumerate() {
            assert!((v - super::srgb_to_linear(i as f32)).abs() < 1e-6, "{i}");
        }
    }

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
