//! Splits colour-bearing shorthands (`border`, `background`, `outline`…) into their colour
//! longhands, so an override never re-sets widths, styles, images or positions: mirrored after
//! the page's sheets, a whole shorthand would beat the page's own later longhands and move things.

use super::color;

/// The colour longhands of a shorthand declaration, with the page's (unmapped) values.
/// `Some(vec![])` means the shorthand holds no colour; None means it is not a shorthand we
/// split, or its parts can't be told apart (a lone `var()`), so the caller keeps it whole.
pub fn colour_longhands(name: &str, value: &str) -> Option<Vec<(String, String)>> {
    let bare = name.strip_prefix("-webkit-").unwrap_or(name);
    match bare {
        "background" => background(value),
        "border"
        | "border-top"
        | "border-right"
        | "border-bottom"
        | "border-left"
        | "border-block"
        | "border-inline"
        | "border-block-start"
        | "border-block-end"
        | "border-inline-start"
        | "border-inline-end"
        | "outline"
        | "column-rule"
        | "text-decoration"
        | "text-stroke"
        | "text-emphasis" => {
            let colour = colour_token(&tokens(value))?;
            Some(colour.map(|c| vec![(format!("{name}-color"), c.to_string())]).unwrap_or_default())
        }
        _ => None,
    }
}

#[derive(Debug, PartialEq)]
enum Kind {
    Colour,
    Image,
    Other,
    Unknown,
}

/// Which token is the colour: Some(None) when there is none, None when it can't be told.
fn colour_token<'a>(tokens: &[&'a str]) -> Option<Option<&'a str>> {
    let kinds: Vec<Kind> = tokens.iter().map(|t| kind(t)).collect();
    let of = |k: Kind| tokens.iter().zip(&kinds).filter(move |(_, x)| **x == k).map(|(t, _)| *t);
    let colours: Vec<&str> = of(Kind::Colour).collect();
    let unknown: Vec<&str> = of(Kind::Unknown).collect();
    match (colours.as_slice(), unknown.as_slice()) {
        ([c], []) => Some(Some(c)),
        ([], []) => Some(None),
        // `1px solid var(--line)`: the one part that isn't a width or style is the colour.
        ([], [u]) if tokens.len() > 1 => Some(Some(u)),
        _ => None,
    }
}

fn background(value: &str) -> Option<Vec<(String, String)>> {
    let layers = split_top(value, b',');
    let mut images = Vec::new();
    let mut colour = None;
    for (i, layer) in layers.iter().enumerate() {
        let toks = tokens(layer);
        let image = toks.iter().find(|t| kind(t) == Kind::Image).copied();
        images.push(image.unwrap_or("none"));
        let rest: Vec<&str> = toks.into_iter().filter(|t| kind(t) != Kind::Image).collect();
        if i + 1 == layers.len() {
            colour = colour_token(&rest)?;
        } else if rest.iter().any(|t| kind(t) != Kind::Other) {
            return None;
        }
    }
    let mut out = Vec::new();
    if let Some(c) = colour {
        out.push(("background-color".to_string(), c.to_string()));
    }
    // Only gradients carry colours among images, and light strips the theme redraws
    // (`images`); other url() images stay as the page set them.
    if images.iter().any(|i| i.contains("gradient(") || super::images::replaced(i)) {
        out.push(("background-image".to_string(), images.join(", ")));
    }
    Some(out)
}

fn kind(token: &str) -> Kind {
    let lower = token.to_ascii_lowercase();
    if let Some(open) = lower.find('(') {
        return match &lower[..open] {
            "url" | "image-set" | "-webkit-image-set" | "element" | "cross-fade" | "image" => Kind::Image,
            f if f.ends_with("gradient") => Kind::Image,
            "rgb" | "rgba" | "hsl" | "hsla" | "hwb" | "lab" | "lch" | "oklab" | "oklch" | "color" | "color-mix" | "light-dark" => Kind::Colour,
            "calc" | "min" | "max" | "clamp" => Kind::Other,
            _ => Kind::Unknown,
        };
    }
    if lower == "none" {
        return Kind::Other;
    }
    if color::parse(&lower).is_some() || lower == "currentcolor" {
        return Kind::Colour;
    }
    let numeric = lower.bytes().next().is_some_and(|b| b.is_ascii_digit() || b == b'.' || b == b'+' || b == b'-');
    if numeric && !lower.starts_with("--") || lower == "/" || KEYWORDS.contains(&lower.as_str()) {
        return Kind::Other;
    }
    Kind::Unknown
}

/// Every non-colour keyword the split shorthands take.
const KEYWORDS: &[&str] = &[
    "thin",
    "medium",
    "thick",
    "hidden",
    "dotted",
    "dashed",
    "solid",
    "double",
    "groove",
    "ridge",
    "inset",
    "outset",
    "auto",
    "underline",
    "overline",
    "line-through",
    "blink",
    "wavy",
    "from-font",
    "spelling-error",
    "grammar-error",
    "repeat",
    "repeat-x",
    "repeat-y",
    "no-repeat",
    "space",
    "round",
    "scroll",
    "fixed",
    "local",
    "top",
    "bottom",
    "left",
    "right",
    "center",
    "cover",
    "contain",
    "border-box",
    "padding-box",
    "content-box",
    "text",
    "filled",
    "open",
    "dot",
    "circle",
    "double-circle",
    "triangle",
    "sesame",
    "inherit",
    "initial",
    "unset",
    "revert",
    "revert-layer",
];

/// Top-level whitespace-separated parts, keeping functions and strings whole.
fn tokens(value: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for piece in split_top(value, b' ') {
        out.extend(piece.split(['\t', '\n', '\r']).map(str::trim).filter(|t| !t.is_empty()));
    }
    out
}

/// Splits on `sep` outside parentheses and strings.
fn split_top(value: &str, sep: u8) -> Vec<&str> {
    let s = value.as_bytes();
    let (mut depth, mut start, mut i, mut out) = (0i32, 0, 0, Vec::new());
    while i < s.len() {
        match s[i] {
            b'(' => depth += 1,
            b')' => depth -= 1,
            b'"' | b'\'' => {
                i = super::css::string_end(s, i);
                continue;
            }
            c if c == sep && depth <= 0 => {
                out.push(value[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    out.push(value[start..].trim());
    out.retain(|p| !p.is_empty());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(name: &str, value: &str) -> Option<Vec<(String, String)>> {
        colour_longhands(name, value)
    }

    #[test]
    fn borders_keep_only_their_colour() {
        assert_eq!(split("border-bottom", "1px solid #ccc"), Some(vec![("border-bottom-color".into(), "#ccc".into())]));
        assert_eq!(split("border", "rgb(0, 0, 0) dashed thin"), Some(vec![("border-color".into(), "rgb(0, 0, 0)".into())]));
        assert_eq!(split("outline", "2px solid var(--focus)"), Some(vec![("outline-color".into(), "var(--focus)".into())]));
        assert_eq!(split("border", "0"), Some(vec![]));
        assert_eq!(split("border", "var(--border)"), None);
        assert_eq!(split("border", "var(--w) solid var(--c)"), None);
        assert_eq!(split("text-decoration", "underline dotted red"), Some(vec![("text-decoration-color".into(), "red".into())]));
    }

    #[test]
    fn background_gives_its_colour_and_only_gradient_images() {
        assert_eq!(split("background", "#fff url(\"a b.png\") no-repeat 0 0 / 10px"), Some(vec![("background-color".into(), "#fff".into())]));
        assert_eq!(
            split("background", "linear-gradient(#fff, #eee), url(x.png) white"),
            Some(vec![("background-color".into(), "white".into()), ("background-image".into(), "linear-gradient(#fff, #eee), url(x.png)".into()),])
        );
        assert_eq!(split("background", "none"), Some(vec![]));
        assert_eq!(split("background", "var(--bg)"), None);
        assert_eq!(split("background", "url(x.png), var(--a) red"), None);
    }

    #[test]
    fn other_properties_are_not_split() {
        assert_eq!(split("background-color", "#fff"), None);
        assert_eq!(split("box-shadow", "0 0 1px #000"), None);
    }
}
