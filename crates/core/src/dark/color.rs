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
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// `srgb_to_linear` of each whole channel value (a test checks the table against it).
#[rustfmt::skip]
const SRGB_TO_LINEAR: [f32; 256] = [
    0.0, 0.000303526984, 0.000607053967, 0.000910580951, 0.00121410793, 0.00151763492, 0.0018211619, 0.00212468888,
    0.00242821587, 0.00273174285, 0.00303526984, 0.00334653576, 0.00367650732, 0.00402471702, 0.00439144204, 0.00477695348,
    0.0051815167, 0.00560539162, 0.00604883302, 0.00651209079, 0.00699541019, 0.00749903204, 0.00802319299, 0.00856812562,
    0.0091340587, 0.00972121732, 0.010329823, 0.010960094, 0.0116122452, 0.0122864884, 0.0129830323, 0.013702083,
    0.0144438436, 0.0152085144, 0.0159962934, 0.0168073758, 0.0176419545, 0.0185002201, 0.019382361, 0.0202885631,
    0.0212190104, 0.0221738848, 0.0231533662, 0.0241576324, 0.0251868596, 0.0262412219, 0.0273208916, 0.0284260395,
    0.0295568344, 0.0307134437, 0.0318960331, 0.0331047666, 0.0343398068, 0.0356013149, 0.0368894504, 0.0382043716,
    0.0395462353, 0.0409151969, 0.0423114106, 0.0437350293, 0.0451862044, 0.0466650863, 0.0481718242, 0.049706566,
    0.0512694584, 0.052860647, 0.0544802764, 0.05612849, 0.0578054302, 0.0595112382, 0.0612460542, 0.0630100177,
    0.0648032667, 0.0666259386, 0.0684781698, 0.0703600957, 0.0722718507, 0.0742135684, 0.0761853815, 0.0781874218,
    0.0802198203, 0.0822827071, 0.0843762115, 0.086500462, 0.0886555863, 0.0908417112, 0.0930589628, 0.0953074666,
    0.0975873471, 0.0998987282, 0.102241733, 0.104616484, 0.107023103, 0.109461711, 0.111932428, 0.114435374,
    0.116970668, 0.119538428, 0.122138772, 0.124771818, 0.12743768, 0.130136477, 0.132868322, 0.13563333,
    0.138431615, 0.141263291, 0.144128471, 0.147027266, 0.14995979, 0.152926152, 0.155926464, 0.158960835,
    0.162029376, 0.165132195, 0.1682694, 0.171441101, 0.174647404, 0.177888416, 0.181164244, 0.184474995,
    0.187820772, 0.191201683, 0.19461783, 0.19806932, 0.201556254, 0.205078736, 0.20863687, 0.212230757,
    0.2158605, 0.2195262, 0.223227957, 0.226965874, 0.230740049, 0.234550582, 0.238397574, 0.242281122,
    0.246201327, 0.250158285, 0.254152094, 0.258182853, 0.262250658, 0.266355605, 0.270497791, 0.274677312,
    0.278894263, 0.28314874, 0.287440838, 0.29177065, 0.296138271, 0.300543794, 0.304987314, 0.309468923,
    0.313988713, 0.318546778, 0.323143209, 0.327778098, 0.332451536, 0.337163615, 0.341914425, 0.346704056,
    0.3515326, 0.356400144, 0.36130678, 0.366252596, 0.37123768, 0.376262123, 0.381326011, 0.386429434,
    0.391572478, 0.396755231, 0.40197778, 0.407240212, 0.412542613, 0.417885071, 0.42326767, 0.428690497,
    0.434153636, 0.439657174, 0.445201195, 0.450785783, 0.456411023, 0.462077, 0.467783796, 0.473531496,
    0.479320183, 0.48514994, 0.49102085, 0.496932995, 0.502886458, 0.508881321, 0.514917665, 0.520995573,
    0.527115126, 0.533276404, 0.539479489, 0.545724461, 0.552011402, 0.55834039, 0.564711506, 0.571124829,
    0.57758044, 0.584078418, 0.590618841, 0.597201788, 0.603827339, 0.610495571, 0.617206562, 0.623960392,
    0.630757136, 0.637596874, 0.644479682, 0.651405637, 0.658374817, 0.665387298, 0.672443157, 0.67954247,
    0.686685312, 0.693871761, 0.701101892, 0.70837578, 0.715693501, 0.723055129, 0.73046074, 0.737910409,
    0.74540421, 0.752942217, 0.760524505, 0.768151147, 0.775822218, 0.783537792, 0.79129794, 0.799102738,
    0.806952258, 0.814846572, 0.822785754, 0.830769877, 0.838799012, 0.846873232, 0.854992608, 0.863157213,
    0.871367119, 0.879622397, 0.887923118, 0.896269353, 0.904661174, 0.913098652, 0.921581856, 0.930110858,
    0.938685728, 0.947306537, 0.955973353, 0.964686248, 0.97344529, 0.98225055, 0.991102097, 1.0,
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
