//! Rules for colours the markup carries rather than the stylesheets: legacy presentational
//! attributes (`bgcolor`, `<font color>`, SVG `fill`/`stroke`) and `<picture>` sources for the
//! dark scheme.

use super::css_text::{escape, raw_paint, rewrite_media, wrap};
use super::map::Role;
use super::value::map_attribute;
use serde::{Deserialize, Serialize};

/// A legacy presentational attribute seen in the page, e.g. `bgcolor="#ffffff"`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Attr {
    pub name: String,
    pub value: String,
}

/// A `<source srcset media>` in a `<picture>`, whose media names a colour scheme.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct SchemeSource {
    pub srcset: String,
    pub media: String,
}

/// Presentational attributes lose to any author rule, so these overrides need no !important.
pub(super) fn emit_attrs(attrs: &[Attr], out: &mut String) {
    for a in attrs {
        let (selector, property, role) = match a.name.as_str() {
            "bgcolor" => ("", "background-color", Role::Bg),
            "color" => ("font", "color", Role::Fg),
            "text" => ("body", "color", Role::Fg),
            "fill" => ("", "fill", Role::Fg),
            "stroke" => ("", "stroke", Role::Fg),
            _ => continue,
        };
        let Some(c) = map_attribute(&a.value, role) else { continue };
        match raw_paint(property) {
            // An SVG paint attribute loses to every author rule, as it does in the page.
            Some(raw) => {
                out.push_str(&format!(":where([{}=\"{}\" i]){{{property}:{};{raw}:{}}}", a.name, escape(&a.value), c.to_css(), escape_value(&a.value)))
            }
            None => out.push_str(&format!("{selector}[{}=\"{}\" i]{{{property}:{}}}", a.name, escape(&a.value), c.to_css())),
        }
    }
}

/// A srcset's candidates as (URL, descriptor), as HTML splits them: a URL runs to the next
/// whitespace (so a data: URL keeps its commas), a descriptor to the next comma.
fn srcset_candidates(srcset: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let mut rest = srcset;
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == ',');
        if rest.is_empty() {
            return out;
        }
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let (url, after) = rest.split_at(end);
        if url.ends_with(',') {
            out.push((url.trim_end_matches(','), ""));
            rest = after;
            continue;
        }
        let end = after.find(',').unwrap_or(after.len());
        out.push((url, after[..end].trim()));
        rest = &after[end..];
    }
}

/// What an image shows for `srcset`: one `url()`, or an `image-set()` of its density candidates.
/// Width candidates need the layout's `sizes`, which CSS can't read, so the first one stands.
fn srcset_image(srcset: &str) -> Option<String> {
    let candidates = srcset_candidates(srcset);
    let url = |u: &str| format!("url(\"{}\")", escape(u));
    let densities: Option<Vec<String>> = candidates
        .iter()
        .map(|(u, d)| match *d {
            "" => Some(format!("{} 1x", url(u))),
            d if d.ends_with('x') && crate::page::number::parse_number(&d[..d.len() - 1]).is_some_and(|x| x > 0.0) => Some(format!("{} {d}", url(u))),
            _ => None,
        })
        .collect();
    match densities {
        Some(set) if set.len() > 1 => Some(format!("image-set({})", set.join(","))),
        _ => candidates.first().map(|(u, _)| url(u)),
    }
}

/// An attribute's colour as a declaration value: only what a colour can hold.
fn escape_value(s: &str) -> String {
    s.chars().filter(|c| c.is_ascii_alphanumeric() || "#(),.% -".contains(*c)).collect()
}

/// A picture's dark-scheme source is what its image shows: the page's media can't be changed, so
/// the image's content is replaced by that source (same box, same layout): every density
/// candidate as an `image-set()`, so a 2x screen still gets the 2x image.
pub(super) fn emit_scheme_sources(sources: &[SchemeSource], out: &mut String) {
    for s in sources {
        let (query, dark) = rewrite_media(&s.media);
        let Some(image) = srcset_image(&s.srcset) else { continue };
        if !dark {
            continue;
        }
        let rule = format!("picture>source[srcset=\"{}\"][media=\"{}\"]~img{{content:{image}}}", escape(&s.srcset), escape(&s.media));
        match query.trim() {
            "(min-width:0px)" => out.push_str(&rule),
            q => wrap(&format!("@media {q}"), &rule, out),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::dark::theme::{build, Attr, Scope};
    use crate::dark::SchemeSource;

    #[test]
    fn legacy_attributes() {
        let scopes = [Scope {
            attrs: vec![Attr { name: "bgcolor".into(), value: "#FFFFFF".into() }, Attr { name: "color".into(), value: "navy".into() }],
            ..Default::default()
        }];
        let out = build(&scopes).remove(0);
        assert!(out.contains("[bgcolor=\"#FFFFFF\" i]{background-color:#"), "{out}");
        assert!(out.contains("font[color=\"navy\" i]{color:#"), "{out}");
    }

    #[test]
    fn svg_paint_attributes_lose_to_author_rules_and_keep_the_pages_value() {
        let scopes = [Scope { attrs: vec![Attr { name: "fill".into(), value: "#FFF".into() }], ..Default::default() }];
        let out = build(&scopes).remove(0);
        assert!(out.contains(":where([fill=\"#FFF\" i]){fill:#") && out.contains(";--dusk-fill:#FFF}"), "{out}");
    }

    #[test]
    fn a_pictures_dark_scheme_source_is_shown() {
        let scopes = [Scope {
            scheme_sources: vec![
                SchemeSource { srcset: "chart-dark.png 1x, chart-dark@2x.png 2x".into(), media: "(prefers-color-scheme: dark)".into() },
                SchemeSource { srcset: "wide-dark.png".into(), media: "(prefers-color-scheme: dark) and (min-width: 800px)".into() },
                SchemeSource { srcset: "light.png".into(), media: "(prefers-color-scheme: light)".into() },
            ],
            ..Default::default()
        }];
        let out = build(&scopes).remove(0);
        assert!(
            out.contains("picture>source[srcset=\"chart-dark.png 1x, chart-dark@2x.png 2x\"][media=\"(prefers-color-scheme: dark)\"]~img{content:image-set(url(\"chart-dark.png\") 1x,url(\"chart-dark@2x.png\") 2x)}"),
            "{out}"
        );
        assert!(out.contains("@media (min-width:0px) and (min-width: 800px){picture>source[srcset=\"wide-dark.png\"]"), "{out}");
        assert!(!out.contains("light.png"), "{out}");
    }

    #[test]
    fn srcset_candidates_split_as_html_does() {
        use super::{srcset_candidates, srcset_image};
        assert_eq!(srcset_candidates(" a.png 1x,b.png 2x , c.png"), vec![("a.png", "1x"), ("b.png", "2x"), ("c.png", "")]);
        assert_eq!(srcset_candidates("data:image/svg+xml,<svg/> 1x, d.png 2x"), vec![("data:image/svg+xml,<svg/>", "1x"), ("d.png", "2x")]);
        assert_eq!(srcset_candidates("a.png, b.png 2x"), vec![("a.png", ""), ("b.png", "2x")]);
        assert_eq!(srcset_image("s.png 480w, m.png 800w").as_deref(), Some("url(\"s.png\")"), "width candidates: the first");
        assert_eq!(srcset_image("only.png").as_deref(), Some("url(\"only.png\")"));
        assert_eq!(srcset_image("  ,  "), None);
    }
}
