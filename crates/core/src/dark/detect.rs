//! Decides whether a page is already dark, from the computed colours of its root elements.

use super::color::{parse, Rgba};

/// Below this background luminance (about #595959) a page counts as dark already.
const DARK_BG_Y: f32 = 0.1;

/// The page's own background: body's if it paints one, else html's, else the white canvas.
pub fn page_background(html_bg: &str, body_bg: &str) -> Rgba {
    let white = Rgba::rgb(255, 255, 255);
    let html = parse(html_bg).filter(|c| c.a > 0.0).map_or(white, |c| c.over(white));
    match parse(body_bg).filter(|c| c.a > 0.0) {
        Some(body) => body.over(html),
        None => html,
    }
}

/// A dark background with text lighter than it: the page needs no theme.
pub fn is_already_dark(html_bg: &str, body_bg: &str, body_color: &str) -> bool {
    let bg = page_background(html_bg, body_bg);
    let fg = parse(body_color).map_or(Rgba::rgb(0, 0, 0), |c| c.over(bg));
    bg.luminance() < DARK_BG_Y && fg.luminance() > bg.luminance()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn light_and_dark_pages() {
        assert!(!is_already_dark("rgba(0, 0, 0, 0)", "rgba(0, 0, 0, 0)", "rgb(0, 0, 0)"));
        assert!(is_already_dark("rgb(18, 18, 18)", "rgba(0, 0, 0, 0)", "rgb(230, 230, 230)"));
        assert!(is_already_dark("rgba(0, 0, 0, 0)", "rgb(13, 17, 23)", "rgb(201, 209, 217)"));
        assert!(!is_already_dark("rgb(0, 0, 0)", "rgb(255, 255, 255)", "rgb(0, 0, 0)"));
        assert!(!is_already_dark("junk", "", ""));
    }
}
