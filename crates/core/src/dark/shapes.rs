//! The role of an SVG shape's paint by its size. An icon-sized shape is drawn like text and keeps
//! following the text colour; a bigger one (a logo's disc, a chart's area, a map) is a surface,
//! so its fill lands in the background band, and shapes drawn on top of each other keep the
//! contrast they had (up to 3:1), so a logo's glyph stays legible on its disc.

use super::color::{contrast, Rgba};
use super::map::{base_bg, map, Role, FG_CHROMA_MAX_Y};

/// The largest box, in CSS px both ways, still drawn as an icon.
pub const ICON_MAX: f64 = 64.0;
/// A shape covering more than this share of the viewport is a surface, whatever its shape.
const VIEWPORT_SHARE: f64 = 0.02;
/// The contrast stacked shapes keep, when they had at least that much.
const STACKED_MIN: f32 = 3.0;
/// Share of a shape's box another one must cover to count as drawn beneath it.
const BENEATH_SHARE: f64 = 0.5;

/// Custom properties the theme sets beside every `fill`/`stroke`, holding the page's own value.
pub const RAW_FILL: &str = "--dusk-fill";
pub const RAW_STROKE: &str = "--dusk-stroke";
/// Attributes holding the colour a surface shape is painted with (see `sheet_css`).
pub const FILL_ATTR: &str = "data-dusk-fill";
pub const STROKE_ATTR: &str = "data-dusk-stroke";

/// Fits in an icon's box.
pub fn is_icon(w: f64, h: f64) -> bool {
    w <= ICON_MAX && h <= ICON_MAX
}

/// Painted like a surface: bigger than an icon both ways, or a noticeable share of the viewport.
pub fn is_surface(w: f64, h: f64, viewport_w: f64, viewport_h: f64) -> bool {
    (w > ICON_MAX && h > ICON_MAX) || w * h > VIEWPORT_SHARE * viewport_w * viewport_h
}

/// One painted SVG shape, in document (painting) order.
#[derive(Debug, Clone, PartialEq)]
pub struct Shape {
    /// Which outermost `<svg>` it is drawn in: only shapes of one drawing stack.
    pub group: u32,
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
    /// The page's own colours (None: no paint, a gradient, or the text colour).
    pub fill: Option<Rgba>,
    pub stroke: Option<Rgba>,
}

/// The colours to force on a shape; None leaves the theme's (text-like) mapping.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Paint {
    pub fill: Option<Rgba>,
    pub stroke: Option<Rgba>,
}

/// Decides every shape's paint; `viewport` is the window's inner size in CSS px.
pub fn paint(shapes: &[Shape], viewport: (f64, f64)) -> Vec<Paint> {
    // (page's fill, fill as painted) of each shape so far, for the shapes drawn on top of it.
    let mut painted: Vec<Option<(Rgba, Rgba)>> = Vec::with_capacity(shapes.len());
    let mut out = Vec::with_capacity(shapes.len());
    for (i, s) in shapes.iter().enumerate() {
        let surface = is_surface(s.w, s.h, viewport.0, viewport.1);
        let beneath = (0..i).rev().find_map(|j| painted[j].filter(|_| shapes[j].group == s.group && covers(&shapes[j], s)));
        let mut p = Paint::default();
        let fill = s.fill.map(|raw| {
            if !surface {
                return (raw, map(raw, Role::Fg));
            }
            let chosen = match beneath {
                // A surface with nothing of its own drawing beneath lies on the page: it goes dark.
                None => map(raw, Role::Bg),
                Some(under) => choose(raw, under, &[Role::Bg, Role::Fg]),
            };
            p.fill = Some(chosen);
            (raw, chosen)
        });
        if let (true, Some(raw)) = (surface, s.stroke) {
            // A line must stay visible on what it is drawn over: its own fill, a shape, the page.
            let under = fill.or(beneath).unwrap_or((Rgba::rgb(255, 255, 255), base_bg()));
            p.stroke = Some(choose(raw, under, &[Role::Bg, Role::Border, Role::Fg]));
        }
        painted.push(fill);
        out.push(p);
    }
    out
}

/// The first role (in order of preference) whose colour keeps 3:1 with what lies beneath, where
/// the page had that much (subtle layers stay subtle); failing all, the one with the most contrast.
fn choose(raw: Rgba, (under_raw, under): (Rgba, Rgba), roles: &[Role]) -> Rgba {
    let white = Rgba::rgb(255, 255, 255);
    let need = if contrast(raw.over(white), under_raw.over(white)) >= STACKED_MIN { STACKED_MIN } else { 1.0 };
    let candidates: Vec<Rgba> = roles.iter().map(|r| map(raw, *r)).collect();
    let seen = |c: &Rgba| contrast(c.over(under), under);
    // A surface is no line of text: one that turns light is kept below glare (still ≥ 7:1 on the band).
    let candidates: Vec<Rgba> = candidates.into_iter().map(|c| dimmed(c, FG_CHROMA_MAX_Y)).collect();
    candidates.iter().find(|c| seen(c) >= need).copied().unwrap_or_else(|| candidates.iter().copied().max_by(|a, b| seen(a).total_cmp(&seen(b))).unwrap_or(raw))
}

/// `c` with its luminance scaled down to at most `max_y` (in linear light, so hue is kept).
fn dimmed(c: Rgba, max_y: f32) -> Rgba {
    let y = c.luminance();
    if y <= max_y {
        return c;
    }
    let f = (max_y - 0.004) / y;
    let to_linear = |v: f32| {
        let v = v / 255.0;
        if v <= 0.04045 {
            v / 12.92
        } else {
            f64::from((v + 0.055) / 1.055).powf(2.4) as f32
        }
    };
    // f64's pow (dark::color's): f32's `powf` would be a second pow in the dark layer.
    let to_srgb = |v: f32| 255.0 * if v <= 0.0031308 { v * 12.92 } else { 1.055 * f64::from(v).powf(1.0 / 2.4) as f32 - 0.055 };
    Rgba { r: to_srgb(to_linear(c.r) * f), g: to_srgb(to_linear(c.g) * f), b: to_srgb(to_linear(c.b) * f), a: c.a }.rounded()
}

/// `below`'s box covers at least half of `top`'s.
fn covers(below: &Shape, top: &Shape) -> bool {
    let w = (below.x + below.w).min(top.x + top.w) - below.x.max(top.x);
    let h = (below.y + below.h).min(top.y + top.h) - below.y.max(top.y);
    w > 0.0 && h > 0.0 && w * h >= BENEATH_SHARE * top.w * top.h
}

/// The rules that paint marked shapes: one per colour in use. A layer's `!important` outranks
/// every unlayered declaration, the theme's mirrored `!important` rules and inline styles included.
pub fn sheet_css<'a>(fills: impl IntoIterator<Item = &'a str>, strokes: impl IntoIterator<Item = &'a str>) -> String {
    let mut out = String::new();
    for (attr, property, values) in [(FILL_ATTR, "fill", fills.into_iter().collect::<Vec<_>>()), (STROKE_ATTR, "stroke", strokes.into_iter().collect())] {
        for v in values {
            out.push_str(&format!("[{attr}=\"{v}\"]{{{property}:{v}!important}}"));
        }
    }
    if out.is_empty() {
        return out;
    }
    format!("@layer dusk-shapes{{{out}}}")
}

#[cfg(test)]
mod tests {
    use super::*;

    const VIEW: (f64, f64) = (1280.0, 900.0);
    const NAVY: Rgba = Rgba { r: 5.0, g: 41.0, b: 98.0, a: 1.0 };
    const WHITE: Rgba = Rgba { r: 255.0, g: 255.0, b: 255.0, a: 1.0 };

    fn shape(group: u32, (x, y, w, h): (f64, f64, f64, f64), fill: Option<Rgba>, stroke: Option<Rgba>) -> Shape {
        Shape { group, x, y, w, h, fill, stroke }
    }

    #[test]
    fn sizes() {
        assert!(is_icon(24.0, 24.0) && is_icon(64.0, 64.0) && !is_icon(65.0, 20.0));
        assert!(!is_surface(24.0, 24.0, VIEW.0, VIEW.1));
        assert!(is_surface(65.0, 65.0, VIEW.0, VIEW.1));
        // A thin full-width band is no icon either: 1000 × 30 is 2.6% of the viewport.
        assert!(is_surface(1000.0, 30.0, VIEW.0, VIEW.1));
        assert!(!is_surface(300.0, 20.0, VIEW.0, VIEW.1));
    }

    #[test]
    fn a_logo_disc_stays_dark_and_its_glyph_stays_legible() {
        let disc = shape(0, (0.0, 0.0, 1200.0, 1200.0), Some(NAVY), None);
        let glyph = shape(0, (300.0, 200.0, 600.0, 800.0), Some(WHITE), None);
        let out = paint(&[disc, glyph], VIEW);
        let (d, g) = (out[0].fill.unwrap(), out[1].fill.unwrap());
        assert!(d.luminance() < 0.05, "disc {d:?}");
        assert!(d.b > d.r, "the disc keeps its navy hue: {d:?}");
        assert!(contrast(g, d) >= 3.0, "glyph {g:?} on disc {d:?}");
        assert!(g.luminance() <= FG_CHROMA_MAX_Y, "a big glyph doesn't glare: {g:?}");
    }

    #[test]
    fn a_light_surface_turns_dark_and_a_dark_one_stays() {
        let light = shape(0, (0.0, 0.0, 800.0, 400.0), Some(WHITE), None);
        let dark = shape(1, (0.0, 500.0, 800.0, 400.0), Some(NAVY), None);
        let out = paint(&[light, dark], VIEW);
        assert!(out[0].fill.unwrap().luminance() < 0.05);
        assert!(out[1].fill.unwrap().luminance() <= NAVY.luminance());
    }

    #[test]
    fn icons_are_left_to_the_theme() {
        let out = paint(&[shape(0, (0.0, 0.0, 24.0, 24.0), Some(NAVY), Some(NAVY))], VIEW);
        assert_eq!(out[0], Paint::default());
    }

    #[test]
    fn a_dark_glyph_on_a_light_disc_flips_to_light() {
        let out = paint(&[shape(0, (0.0, 0.0, 500.0, 500.0), Some(WHITE), None), shape(0, (100.0, 100.0, 300.0, 300.0), Some(NAVY), None)], VIEW);
        let (d, g) = (out[0].fill.unwrap(), out[1].fill.unwrap());
        assert!(d.luminance() < 0.05 && contrast(g, d) >= 3.0, "{g:?} on {d:?}");
    }

    #[test]
    fn subtle_layers_stay_subtle() {
        // A chart's light band on its white plot: 1.2:1 on the page, so both simply go dark.
        let band = Rgba::rgb(235, 235, 235);
        let out = paint(&[shape(0, (0.0, 0.0, 800.0, 400.0), Some(WHITE), None), shape(0, (0.0, 100.0, 800.0, 100.0), Some(band), None)], VIEW);
        assert!(out[1].fill.unwrap().luminance() < 0.05, "{:?}", out[1]);
    }

    #[test]
    fn shapes_of_another_drawing_or_beside_are_not_beneath() {
        let disc = shape(0, (0.0, 0.0, 500.0, 500.0), Some(NAVY), None);
        let other_svg = shape(1, (100.0, 100.0, 300.0, 300.0), Some(WHITE), None);
        let beside = shape(0, (600.0, 0.0, 300.0, 300.0), Some(WHITE), None);
        let out = paint(&[disc, other_svg, beside], VIEW);
        assert!(out[1].fill.unwrap().luminance() < 0.05 && out[2].fill.unwrap().luminance() < 0.05, "{out:?}");
    }

    #[test]
    fn a_chart_line_stays_visible_on_the_page_and_on_its_plot() {
        let blue = Rgba::rgb(31, 119, 180);
        let bare = paint(&[shape(0, (0.0, 0.0, 600.0, 300.0), None, Some(blue))], VIEW);
        let s = bare[0].stroke.unwrap();
        assert!(contrast(s, base_bg()) >= 3.0, "{s:?}");
        let plotted = paint(&[shape(0, (0.0, 0.0, 700.0, 400.0), Some(WHITE), None), shape(0, (10.0, 10.0, 600.0, 300.0), None, Some(blue))], VIEW);
        assert!(contrast(plotted[1].stroke.unwrap(), plotted[0].fill.unwrap()) >= 3.0, "{plotted:?}");
        assert_eq!(plotted[1].fill, None, "an unfilled line keeps no fill");
    }

    #[test]
    fn the_sheet_has_one_layered_important_rule_per_colour() {
        let css = sheet_css(["#0a1530"], ["#333333"]);
        assert_eq!(css, "@layer dusk-shapes{[data-dusk-fill=\"#0a1530\"]{fill:#0a1530!important}[data-dusk-stroke=\"#333333\"]{stroke:#333333!important}}");
        assert_eq!(sheet_css([], []), "");
    }
}
