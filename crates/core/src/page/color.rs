//! Parses every colour syntax Chromium's getComputedStyle returns and converts it to sRGB.

/// A colour in gamma-encoded sRGB (components may fall outside 0..1 for wide-gamut input).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rgba {
    pub r: f64,
    pub g: f64,
    pub b: f64,
    pub a: f64,
}

type M3 = [[f64; 3]; 3];

const P3_TO_XYZ: M3 = [
    [0.486_570_948_648_216_2, 0.265_667_693_169_093_06, 0.198_217_285_234_362_5],
    [0.228_974_564_069_748_8, 0.691_738_521_836_506_4, 0.079_286_914_093_745],
    [0.0, 0.045_113_381_858_902_64, 1.043_944_368_900_976],
];
const A98_TO_XYZ: M3 = [
    [0.576_669_042_910_130_5, 0.185_558_237_906_546_3, 0.188_228_646_234_994_7],
    [0.297_344_975_250_536_05, 0.627_363_566_255_466_1, 0.075_291_458_493_997_8],
    [0.027_031_361_386_412_34, 0.070_688_852_535_827_23, 0.991_337_536_837_638_8],
];
const PROPHOTO_TO_XYZ_D50: M3 = [
    [0.797_760_489_672_302_7, 0.135_185_837_175_740_31, 0.031_349_349_581_524_8],
    [0.288_071_128_229_293_4, 0.711_843_217_810_101_4, 0.000_085_653_960_605_259_02],
    [0.0, 0.0, 0.825_104_602_510_460_1],
];
const REC2020_TO_XYZ: M3 = [
    [0.636_958_048_301_291_4, 0.144_616_903_586_208_32, 0.168_880_975_164_172_1],
    [0.262_700_212_011_267_1, 0.677_998_071_518_870_8, 0.059_301_716_469_861_96],
    [0.0, 0.028_072_693_049_087_428, 1.060_985_057_710_791],
];
const XYZ_TO_SRGB: M3 = [
    [3.240_969_941_904_522_6, -1.537_383_177_570_094, -0.498_610_760_293_003_4],
    [-0.969_243_636_280_879_6, 1.875_967_501_507_720_2, 0.041_555_057_407_175_59],
    [0.055_630_079_696_993_66, -0.203_976_958_888_976_52, 1.056_971_514_242_878_6],
];
const D50_TO_D65: M3 = [
    [0.955_473_452_704_218_2, -0.023_098_536_874_261_423, 0.063_259_308_661_021_7],
    [-0.028_369_706_963_208_136, 1.009_995_458_005_822_6, 0.021_041_398_966_943_008],
    [0.012_314_001_688_319_899, -0.020_507_696_433_477_912, 1.330_365_936_608_075_3],
];
const D50_WHITE: [f64; 3] = [0.3457 / 0.3585, 1.0, (1.0 - 0.3457 - 0.3585) / 0.3585];

fn mul(m: &M3, v: [f64; 3]) -> [f64; 3] {
    [0, 1, 2].map(|i| m[i][0] * v[0] + m[i][1] * v[1] + m[i][2] * v[2])
}

fn srgb_encode(v: f64) -> f64 {
    let a = v.abs();
    let e = if a <= 0.003_130_8 { 12.92 * a } else { 1.055 * a.powf(1.0 / 2.4) - 0.055 };
    e.copysign(v)
}

fn srgb_decode(v: f64) -> f64 {
    let a = v.abs();
    let d = if a <= 0.040_45 { a / 12.92 } else { ((a + 0.055) / 1.055).powf(2.4) };
    d.copysign(v)
}

fn from_linear(rgb: [f64; 3], a: f64) -> Rgba {
    Rgba { r: srgb_encode(rgb[0]), g: srgb_encode(rgb[1]), b: srgb_encode(rgb[2]), a }
}

fn from_xyz_d65(xyz: [f64; 3], a: f64) -> Rgba {
    from_linear(mul(&XYZ_TO_SRGB, xyz), a)
}

fn from_xyz_d50(xyz: [f64; 3], a: f64) -> Rgba {
    from_xyz_d65(mul(&D50_TO_D65, xyz), a)
}

fn lab_to_xyz_d50(l: f64, a: f64, b: f64) -> [f64; 3] {
    const K: f64 = 24389.0 / 27.0;
    const E: f64 = 216.0 / 24389.0;
    let f1 = (l + 16.0) / 116.0;
    let f0 = a / 500.0 + f1;
    let f2 = f1 - b / 200.0;
    let x = if f0.powi(3) > E { f0.powi(3) } else { (116.0 * f0 - 16.0) / K };
    let y = if l > K * E { f1.powi(3) } else { l / K };
    let z = if f2.powi(3) > E { f2.powi(3) } else { (116.0 * f2 - 16.0) / K };
    [x * D50_WHITE[0], y * D50_WHITE[1], z * D50_WHITE[2]]
}

fn oklab_to_rgba(l: f64, a: f64, b: f64, alpha: f64) -> Rgba {
    let l_ = (l + 0.396_337_777_4 * a + 0.215_803_757_3 * b).powi(3);
    let m_ = (l - 0.105_561_345_8 * a - 0.063_854_172_8 * b).powi(3);
    let s_ = (l - 0.089_484_177_5 * a - 1.291_485_548 * b).powi(3);
    from_linear(
        [
            4.076_741_662_1 * l_ - 3.307_711_591_3 * m_ + 0.230_969_929_2 * s_,
            -1.268_438_004_6 * l_ + 2.609_757_401_1 * m_ - 0.341_319_396_5 * s_,
            -0.004_196_086_3 * l_ - 0.703_418_614_7 * m_ + 1.707_614_701 * s_,
        ],
        alpha,
    )
}

fn hsl_to_rgba(h: f64, s: f64, l: f64, a: f64) -> Rgba {
    let f = |n: f64| {
        let k = super::hue::wrap(n + h / 30.0, 12.0);
        l - s * l.min(1.0 - l) * (k - 3.0).min(9.0 - k).clamp(-1.0, 1.0)
    };
    Rgba { r: f(0.0), g: f(8.0), b: f(4.0), a }
}

/// One numeric component: a number, a percentage (scaled so 100% = `pct`), an angle, or `none`.
fn component(token: &str, pct: f64) -> Option<f64> {
    let t = token.trim();
    if t.eq_ignore_ascii_case("none") {
        return Some(0.0);
    }
    if let Some(p) = t.strip_suffix('%') {
        return super::number::parse_number(p).map(|v| v / 100.0 * pct);
    }
    for (unit, to_deg) in [("deg", 1.0), ("grad", 0.9), ("rad", 180.0 / std::f64::consts::PI), ("turn", 360.0)] {
        if let Some(n) = t.strip_suffix(unit) {
            return super::number::parse_number(n).map(|v| v * to_deg);
        }
    }
    super::number::parse_number(t).filter(|v| v.is_finite())
}

/// Splits `a b c / alpha` or `a, b, c, alpha` into three components and an optional alpha.
fn split_args(body: &str) -> Option<([&str; 3], Option<&str>)> {
    let (main, alpha) = match body.split_once('/') {
        Some((m, a)) => (m, Some(a.trim())),
        None => (body, None),
    };
    let parts: Vec<&str> = main.split(|c: char| c == ',' || c.is_whitespace()).filter(|p| !p.is_empty()).collect();
    match (parts.as_slice(), alpha) {
        ([a, b, c], alpha) => Some(([a, b, c], alpha)),
        ([a, b, c, d], None) => Some(([a, b, c], Some(d))),
        _ => None,
    }
}

fn parse_hex(hex: &str) -> Option<Rgba> {
    let digits: Vec<f64> = hex.chars().map(|c| c.to_digit(16).map(f64::from)).collect::<Option<_>>()?;
    let (vals, scale): (Vec<f64>, f64) = match digits.len() {
        3 | 4 => (digits.iter().map(|d| d * 17.0).collect(), 255.0),
        6 | 8 => (digits.chunks(2).map(|p| p[0] * 16.0 + p[1]).collect(), 255.0),
        _ => return None,
    };
    Some(Rgba { r: vals[0] / scale, g: vals[1] / scale, b: vals[2] / scale, a: vals.get(3).map_or(1.0, |a| a / scale) })
}

fn named(name: &str) -> Option<Rgba> {
    let hex = match name {
        "transparent" => return Some(Rgba { r: 0.0, g: 0.0, b: 0.0, a: 0.0 }),
        "black" => "000",
        "white" => "fff",
        "red" => "f00",
        "green" => "008000",
        "blue" => "00f",
        "yellow" => "ff0",
        "gray" | "grey" => "808080",
        "silver" => "c0c0c0",
        "orange" => "ffa500",
        "purple" => "800080",
        "navy" => "000080",
        "canvas" => "fff",
        "canvastext" => "000",
        _ => return None,
    };
    parse_hex(hex)
}

/// Parses a CSS colour as Chromium serialises computed values, plus hex and common names.
pub fn parse_color(input: &str) -> Option<Rgba> {
    let s = input.trim().to_ascii_lowercase();
    if let Some(hex) = s.strip_prefix('#') {
        return parse_hex(hex);
    }
    let (func, rest) = s.split_once('(')?;
    let func = func.trim();
    let body = rest.strip_suffix(')')?.trim();
    if func == "color" {
        let (space, args) = body.split_once(char::is_whitespace)?;
        return parse_color_fn(space, args);
    }
    let (c, alpha) = split_args(body)?;
    let a = match alpha {
        Some(a) => component(a, 1.0)?.clamp(0.0, 1.0),
        None => 1.0,
    };
    Some(match func {
        "rgb" | "rgba" => Rgba { r: component(c[0], 255.0)? / 255.0, g: component(c[1], 255.0)? / 255.0, b: component(c[2], 255.0)? / 255.0, a },
        "hsl" | "hsla" => hsl_to_rgba(component(c[0], 1.0)?, component(c[1], 1.0)?.max(0.0) / hsl_scale(c[1]), component(c[2], 1.0)? / hsl_scale(c[2]), a),
        "hwb" => {
            let (w, bl) = (component(c[1], 1.0)? / hsl_scale(c[1]), component(c[2], 1.0)? / hsl_scale(c[2]));
            let (w, bl) = if w + bl >= 1.0 { (w / (w + bl), bl / (w + bl)) } else { (w, bl) };
            let base = hsl_to_rgba(component(c[0], 1.0)?, 1.0, 0.5, a);
            let f = |v: f64| v * (1.0 - w - bl) + w;
            Rgba { r: f(base.r), g: f(base.g), b: f(base.b), a }
        }
        "lab" => from_xyz_d50(lab_to_xyz_d50(component(c[0], 100.0)?, component(c[1], 125.0)?, component(c[2], 125.0)?), a),
        "lch" => {
            let (l, ch, (cos, sin)) = (component(c[0], 100.0)?, component(c[1], 150.0)?, super::hue::cos_sin_deg(component(c[2], 1.0)?));
            from_xyz_d50(lab_to_xyz_d50(l, ch * cos, ch * sin), a)
        }
        "oklab" => oklab_to_rgba(component(c[0], 1.0)?, component(c[1], 0.4)?, component(c[2], 0.4)?, a),
        "oklch" => {
            let (l, ch, (cos, sin)) = (component(c[0], 1.0)?, component(c[1], 0.4)?, super::hue::cos_sin_deg(component(c[2], 1.0)?));
            oklab_to_rgba(l, ch * cos, ch * sin, a)
        }
        _ => return None,
    })
}

/// hsl()'s legacy syntax gives percentages; the modern one may give bare numbers out of 100.
fn hsl_scale(token: &str) -> f64 {
    if token.trim().ends_with('%') {
        1.0
    } else {
        100.0
    }
}

fn parse_color_fn(space: &str, args: &str) -> Option<Rgba> {
    let (c, alpha) = split_args(args)?;
    let a = match alpha {
        Some(a) => component(a, 1.0)?.clamp(0.0, 1.0),
        None => 1.0,
    };
    let v = [component(c[0], 1.0)?, component(c[1], 1.0)?, component(c[2], 1.0)?];
    Some(match space {
        "srgb" => Rgba { r: v[0], g: v[1], b: v[2], a },
        "srgb-linear" => from_linear(v, a),
        "display-p3" => from_xyz_d65(mul(&P3_TO_XYZ, v.map(srgb_decode)), a),
        "a98-rgb" => from_xyz_d65(mul(&A98_TO_XYZ, v.map(|x| x.abs().powf(563.0 / 256.0).copysign(x))), a),
        "prophoto-rgb" => {
            let lin = v.map(|x| if x.abs() <= 16.0 / 512.0 { x / 16.0 } else { x.abs().powf(1.8).copysign(x) });
            from_xyz_d50(mul(&PROPHOTO_TO_XYZ_D50, lin), a)
        }
        "rec2020" => {
            const AL: f64 = 1.099_296_826_809_44;
            const BE: f64 = 0.018_053_968_510_807;
            let lin = v.map(|x| if x.abs() < BE * 4.5 { x / 4.5 } else { ((x.abs() + AL - 1.0) / AL).powf(1.0 / 0.45).copysign(x) });
            from_xyz_d65(mul(&REC2020_TO_XYZ, lin), a)
        }
        "xyz" | "xyz-d65" => from_xyz_d65(v, a),
        "xyz-d50" => from_xyz_d50(v, a),
        _ => return None,
    })
}

impl Rgba {
    /// Parses, falling back to named colours for bare keywords.
    pub fn parse(input: &str) -> Option<Rgba> {
        parse_color(input).or_else(|| named(&input.trim().to_ascii_lowercase()))
    }

    fn clamped(&self) -> [f64; 3] {
        [self.r, self.g, self.b].map(|v| if v.is_finite() { v.clamp(0.0, 1.0) } else { 0.0 })
    }

    /// `#rrggbb`, or `#rrggbbaa` when not opaque; out-of-gamut components are clamped.
    pub fn to_hex(&self) -> String {
        let [r, g, b] = self.clamped().map(|v| (v * 255.0).round() as u8);
        if self.a >= 0.999 {
            format!("#{r:02x}{g:02x}{b:02x}")
        } else {
            format!("#{r:02x}{g:02x}{b:02x}{:02x}", (self.a.clamp(0.0, 1.0) * 255.0).round() as u8)
        }
    }

    /// WCAG 2 relative luminance.
    pub fn luminance(&self) -> f64 {
        let [r, g, b] = self.clamped().map(srgb_decode);
        0.2126 * r + 0.7152 * g + 0.0722 * b
    }

    /// OKLab coordinates, for perceptual distances.
    pub fn oklab(&self) -> [f64; 3] {
        let [r, g, b] = self.clamped().map(srgb_decode);
        // powf, which the sRGB curve links anyway, rather than cbrt (2 KB more): the sums are ≥ 0.
        let l = (0.412_221_470_8 * r + 0.536_328_860_3 * g + 0.051_445_992_9 * b).powf(1.0 / 3.0);
        let m = (0.211_903_498_2 * r + 0.680_699_545_1 * g + 0.107_396_956_6 * b).powf(1.0 / 3.0);
        let s = (0.088_302_461_9 * r + 0.281_718_837_6 * g + 0.629_978_700_5 * b).powf(1.0 / 3.0);
        [
            0.210_454_255_3 * l + 0.793_617_785 * m - 0.004_072_046_8 * s,
            1.977_998_495_1 * l - 2.428_592_205 * m + 0.450_593_709_9 * s,
            0.025_904_037_1 * l + 0.782_771_766_2 * m - 0.808_675_766 * s,
        ]
    }

    /// Chroma in OKLab: near 0 for greys, higher for saturated colours.
    pub fn chroma(&self) -> f64 {
        let [_, a, b] = self.oklab();
        (a * a + b * b).sqrt()
    }

    /// Euclidean distance in OKLab, alpha included.
    pub fn distance(&self, other: &Rgba) -> f64 {
        let (p, q) = (self.oklab(), other.oklab());
        let d: f64 = (0..3).map(|i| (p[i] - q[i]).powi(2)).sum::<f64>() + (self.a - other.a).powi(2) * 0.1;
        d.sqrt()
    }

    /// This colour painted over an opaque `below`.
    pub fn over(&self, below: &Rgba) -> Rgba {
        let [r, g, b] = self.clamped();
        let [br, bg, bb] = below.clamped();
        let a = self.a.clamp(0.0, 1.0);
        Rgba { r: r * a + br * (1.0 - a), g: g * a + bg * (1.0 - a), b: b * a + bb * (1.0 - a), a: 1.0 }
    }
}

/// WCAG contrast ratio of two opaque colours, 1..21.
pub fn contrast_ratio(a: &Rgba, b: &Rgba) -> f64 {
    let (la, lb) = (a.luminance(), b.luminance());
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(s: &str) -> String {
        parse_color(s).map(|c| c.to_hex()).unwrap_or_else(|| format!("unparsed: {s}"))
    }

    #[test]
    fn parses_legacy_and_modern_rgb() {
        assert_eq!(hex("rgb(255, 0, 0)"), "#ff0000");
        assert_eq!(hex("rgba(0, 0, 255, 0.5)"), "#0000ff80");
        assert_eq!(hex("rgb(10 20 30 / 50%)"), "#0a141e80");
        assert_eq!(hex("rgb(100%, 50%, 0%)"), "#ff8000");
        assert_eq!(hex("rgba(0, 0, 0, 0)"), "#00000000");
        assert_eq!(hex("#abc"), "#aabbcc");
        assert_eq!(Rgba::parse("transparent").map(|c| c.a), Some(0.0));
    }

    #[test]
    fn parses_color_function_spaces() {
        assert_eq!(hex("color(srgb 1 0.5 0)"), "#ff8000");
        assert_eq!(hex("color(srgb 0 0 1 / 0.25)"), "#0000ff40");
        assert_eq!(hex("color(display-p3 1 1 1)"), "#ffffff");
        assert_eq!(hex("color(display-p3 0 0 0)"), "#000000");
        // p3 red is outside sRGB; it clamps to pure red.
        assert_eq!(hex("color(display-p3 1 0 0)"), "#ff0000");
        assert_eq!(hex("color(display-p3 0.5 0.5 0.5)"), "#808080");
        assert_eq!(hex("color(srgb-linear 0.2159 0.2159 0.2159)"), "#808080");
        assert_eq!(hex("color(xyz-d65 0.9505 1 1.089)"), "#ffffff");
        assert_eq!(hex("color(rec2020 1 1 1)"), "#ffffff");
        assert_eq!(hex("color(a98-rgb 0 0 0)"), "#000000");
        assert_eq!(hex("color(prophoto-rgb 1 1 1)"), "#ffffff");
    }

    #[test]
    fn parses_lab_family() {
        assert_eq!(hex("lab(100 0 0)"), "#ffffff");
        assert_eq!(hex("lab(0 0 0)"), "#000000");
        // sRGB red in CSS (D50) Lab.
        assert_eq!(hex("lab(54.2917 80.8125 69.8851)"), "#ff0000");
        assert_eq!(hex("lch(54.2917 106.839 40.8526)"), "#ff0000");
        assert_eq!(hex("oklab(1 0 0)"), "#ffffff");
        assert_eq!(hex("oklab(0.627955 0.224863 0.125846)"), "#ff0000");
        assert_eq!(hex("oklch(0.627955 0.257683 29.2339)"), "#ff0000");
        assert_eq!(hex("oklch(0.5 none none / 0.5)"), hex("oklab(0.5 0 0 / 0.5)"));
        assert_eq!(hex("oklch(62.7955% 0.257683 29.2339deg)"), "#ff0000");
    }

    #[test]
    fn parses_hsl_and_hwb() {
        assert_eq!(hex("hsl(120, 100%, 50%)"), "#00ff00");
        assert_eq!(hex("hsl(240deg 100% 50% / 0.5)"), "#0000ff80");
        assert_eq!(hex("hwb(0 0% 0%)"), "#ff0000");
        assert_eq!(hex("hwb(0 100% 100%)"), "#808080");
    }

    #[test]
    fn rejects_garbage_without_panicking() {
        for bad in ["", "rgb(", "rgb(1,2)", "color(foo 1 2 3)", "lab(a b c)", "#12345", "(((", "oklch(1 2 3 4 5)"] {
            assert!(parse_color(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn luminance_and_contrast() {
        let white = Rgba::parse("white").unwrap();
        let black = Rgba::parse("black").unwrap();
        assert!((contrast_ratio(&white, &black) - 21.0).abs() < 1e-6);
        assert!(white.distance(&black) > 0.9);
        let half = Rgba { r: 0.0, g: 0.0, b: 0.0, a: 0.5 }.over(&white);
        assert_eq!(half.to_hex(), "#808080");
    }
}
