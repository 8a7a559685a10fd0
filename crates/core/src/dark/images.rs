//! Light raster backgrounds: a theme maps colours, and an image has none to map, so a
//! light `background-image: url(…)` stayed light under light text (doxygen's menu bar, `tab_b.png`,
//! a 1×36 px gradient). The content layer decodes each background image the theme meets once,
//! off the switch's path, and hands its pixels here. A light, opaque strip (one pixel thick, as
//! tools draw gradients) is a surface: it is redrawn with every pixel mapped into the background
//! band, as an SVG of the same size, so tiling and positioning stay the page's. Any other image
//! (a photo, an icon, a pattern) is content and stays as drawn.

use super::color::Rgba;
use super::map::{map, Role};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

/// A strip at most this long is redrawn; a longer one is sampled down to it.
const MAX_LENGTH: u32 = 256;
/// Mean luminance from which a strip is light (text on it is drawn light by the theme).
const LIGHT: f32 = 0.35;

/// A decoded strip: one pixel thick, its pixels along its length.
#[derive(Debug, Clone, PartialEq)]
pub struct Strip {
    pub vertical: bool,
    pub pixels: Vec<Rgba>,
}

/// The images a theme build may use: each URL (as the page's CSS writes it) with its strip if it is
/// a light one (None: analysed, left as drawn), and the URLs met that aren't known yet.
#[derive(Debug, Clone, Default)]
pub struct Images {
    pub known: BTreeMap<String, Option<Strip>>,
    pub wanted: BTreeSet<String>,
}

thread_local! {
    static CURRENT: RefCell<Option<Images>> = const { RefCell::new(None) };
}

/// Runs `f` (a theme build) with `images` known; the URLs it met that weren't are added to `images.wanted`.
pub fn with_images<R>(images: &mut Images, f: impl FnOnce() -> R) -> R {
    let before = CURRENT.with(|c| c.replace(Some(std::mem::take(images))));
    let out = f();
    *images = CURRENT.with(|c| std::mem::replace(&mut *c.borrow_mut(), before)).unwrap_or_default();
    out
}

/// The `url()` argument without quotes or spaces.
fn unquote(arg: &str) -> &str {
    arg.trim().trim_matches(|c| c == '"' || c == '\'').trim()
}

/// Whether a URL may name a raster image (not an SVG, which draws with its own colours).
fn raster(url: &str) -> bool {
    let lower = url.to_ascii_lowercase();
    !url.is_empty() && !lower.starts_with("data:image/svg") && !lower.split(['?', '#']).next().unwrap_or("").ends_with(".svg")
}

/// The replacement for `url(<arg>)` in a background, as a whole `url(…)`; None leaves it as
/// written. An unknown raster URL is noted for the content layer to decode.
pub(super) fn replace(arg: &str) -> Option<String> {
    let url = unquote(arg);
    if !raster(url) {
        return None;
    }
    CURRENT.with(|c| {
        let mut slot = c.borrow_mut();
        let images = slot.as_mut()?;
        match images.known.get(url) {
            Some(Some(strip)) => Some(strip_svg(strip)),
            Some(None) => None,
            None => {
                images.wanted.insert(url.to_string());
                None
            }
        }
    })
}

/// Whether an image token of a `background` shorthand is replaced (so the image list is themed).
pub(super) fn replaced(token: &str) -> bool {
    let lower = token.to_ascii_lowercase();
    lower.starts_with("url(") && token.ends_with(')') && replace(&token[4..token.len() - 1]).is_some()
}

/// The strip to redraw from an image's RGBA pixels (`width`×`height`, row by row): one pixel
/// thick, opaque and light; None for any other image.
pub fn light_strip(width: u32, height: u32, rgba: &[u8]) -> Option<Strip> {
    let n = (width as usize) * (height as usize);
    if width == 0 || height == 0 || width.min(height) > 1 || rgba.len() < n * 4 {
        return None;
    }
    let vertical = width == 1;
    let pixels: Vec<Rgba> = rgba.chunks_exact(4).take(n).map(|p| Rgba { r: p[0] as f32, g: p[1] as f32, b: p[2] as f32, a: p[3] as f32 / 255.0 }).collect();
    // A translucent strip (a shadow, a sheen over the page's colour) isn't a surface of its own.
    if pixels.iter().any(|p| p.a < 0.98) {
        return None;
    }
    let mean = pixels.iter().map(Rgba::luminance).sum::<f32>() / n as f32;
    if mean < LIGHT {
        return None;
    }
    let step = (n as f32 / MAX_LENGTH as f32).max(1.0);
    let sampled = if step > 1.0 { (0..MAX_LENGTH).map(|i| pixels[((i as f32 * step) as usize).min(n - 1)]).collect() } else { pixels };
    Some(Strip { vertical, pixels: sampled.into_iter().map(|p| Rgba { a: 1.0, ..p }).collect() })
}

/// The strip with every pixel in the background band, as an SVG `url()` of its size (a sampled
/// strip is stretched back to its length): one rect per run of equal colour.
pub fn strip_svg(strip: &Strip) -> String {
    let len = strip.pixels.len();
    let (w, h) = if strip.vertical { (1, len) } else { (len, 1) };
    let mut rects = String::new();
    let mut start = 0;
    let mapped: Vec<String> = strip.pixels.iter().map(|p| map(*p, Role::Bg).to_css()).collect();
    for i in 1..=len {
        if i == len || mapped[i] != mapped[start] {
            let (x, y, rw, rh) = if strip.vertical { (0, start, 1, i - start) } else { (start, 0, i - start, 1) };
            rects.push_str(&format!("<rect x='{x}' y='{y}' width='{rw}' height='{rh}' fill='{}'/>", mapped[start].replace('#', "%23")));
            start = i;
        }
    }
    format!(
        "url(\"data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='{w}' height='{h}' preserveAspectRatio='none'%3E{}%3C/svg%3E\")",
        rects.replace('<', "%3C").replace('>', "%3E")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dark::band::BG_MAX_Y;

    /// doxygen's `tab_b.png`: 1×36, #fafbfc at the top down to #dfe5f1.
    fn tab_b() -> Vec<u8> {
        (0..36u32).flat_map(|y| [250 - (y * 27 / 35) as u8, 251 - (y * 22 / 35) as u8, 252 - (y * 11 / 35) as u8, 255]).collect()
    }

    #[test]
    fn a_light_gradient_strip_is_redrawn_dark_at_its_size() {
        let strip = light_strip(1, 36, &tab_b()).expect("a light opaque 1×36 strip");
        assert!(strip.vertical && strip.pixels.len() == 36);
        let svg = strip_svg(&strip);
        assert!(svg.starts_with("url(\"data:image/svg+xml,") && svg.contains("width='1' height='36'"), "{svg}");
        // Every colour drawn lies in the background band, and the gradient keeps some steps.
        let fills: Vec<&str> = svg.split("fill='%23").skip(1).map(|s| &s[..6]).collect();
        assert!(fills.len() > 3, "{svg}");
        for f in &fills {
            let c = crate::dark::color::parse(&format!("#{f}")).unwrap();
            assert!(c.luminance() <= BG_MAX_Y + 1e-4, "{f} is dark");
        }
        assert!(!svg.contains('#') && !svg.contains('<'), "escaped for a url(): {svg}");
    }

    #[test]
    fn other_images_stay_as_drawn() {
        // A 2-D image (an icon, a photo), a dark strip, a translucent one.
        assert_eq!(light_strip(24, 22, &[255; 24 * 22 * 4]), None);
        assert_eq!(light_strip(1, 4, &[20, 20, 20, 255].repeat(4)), None);
        assert_eq!(light_strip(1, 4, &[255, 255, 255, 100].repeat(4)), None);
        assert_eq!(light_strip(1, 4, &[255; 8]), None, "too few bytes");
        // A long strip is sampled down.
        assert_eq!(light_strip(2000, 1, &[240, 240, 240, 255].repeat(2000)).map(|s| (s.vertical, s.pixels.len())), Some((false, MAX_LENGTH as usize)));
    }

    #[test]
    fn the_build_uses_what_is_known_and_asks_for_the_rest() {
        let mut images = Images::default();
        images.known.insert("tab_b.png".into(), light_strip(1, 36, &tab_b()));
        images.known.insert("photo.jpg".into(), None);
        let out = with_images(&mut images, || {
            (replace("'tab_b.png'").is_some(), replace("photo.jpg"), replace("\"new.png\""), replace("icon.svg"), replace("data:image/svg+xml,x"))
        });
        assert_eq!(out, (true, None, None, None, None));
        assert_eq!(images.wanted.iter().collect::<Vec<_>>(), ["new.png"]);
        assert_eq!(images.known.len(), 2, "handed back");
        // Outside a build nothing is replaced or asked for.
        assert_eq!(replace("tab_b.png"), None);
    }

    #[test]
    fn the_theme_redraws_a_known_strip_where_the_page_draws_it() {
        use crate::dark::{build, Scope, Sheet};
        let css = ".sm-dox { background-image: url(\"tab_b.png\"); } .navpath ul { background: url(tab_b.png) repeat-x #fff; } .photo { background-image: url(p.jpg); }";
        let scope = Scope { sheets: vec![Sheet { css: css.into(), media: String::new() }], ..Scope::default() };
        let mut images = Images::default();
        let first = with_images(&mut images, || build(std::slice::from_ref(&scope)));
        assert!(!first[0].contains("data:image/svg"), "nothing known yet");
        assert_eq!(images.wanted.iter().collect::<Vec<_>>(), ["p.jpg", "tab_b.png"]);
        images.known.insert("tab_b.png".into(), light_strip(1, 36, &tab_b()));
        images.known.insert("p.jpg".into(), None);
        let theme = with_images(&mut images, || build(&[scope]))[0].clone();
        assert!(theme.contains(".sm-dox{background-image:url(\"data:image/svg+xml,"), "{theme}");
        assert!(theme.contains(".navpath ul{background-color:#") && theme.contains(";background-image:url(\"data:image/svg+xml,"), "{theme}");
        assert!(!theme.contains(".photo"), "a photo stays as drawn: {theme}");
    }
}
