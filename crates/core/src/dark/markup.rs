//! Rules for colours the markup carries rather than the stylesheets: legacy presentational
//! attributes (`bgcolor`, `<font color>`, SVG `fill`/`stroke`) and `<picture>` sources for the
//! dark scheme.

use super::map::Role;
use super::theme::{escape, raw_paint, rewrite_media, wrap, Attr};
use super::value::map_attribute;
use serde::{Deserialize, Serialize};

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

/// An attribute's colour as a declaration value: only what a colour can hold.
fn escape_value(s: &str) -> String {
    s.chars().filter(|c| c.is_ascii_alphanumeric() || "#(),.% -".contains(*c)).collect()
}

/// A picture's dark-scheme source is what its image shows: the page's media can't be changed, so
/// the image's content is replaced by that source's first candidate (same box, same layout).
pub(super) fn emit_scheme_sources(sources: &[SchemeSource], out: &mut String) {
    for s in sources {
        let (query, dark) = rewrite_media(&s.media);
        let Some(url) = s.srcset.split(',').next().and_then(|c| c.split_whitespace().next()).filter(|u| !u.is_empty()) else { continue };
        if !dark {
            continue;
        }
        let rule = format!("picture>source[srcset=\"{}\"][media=\"{}\"]~img{{content:url(\"{}\")}}", escape(&s.srcset), escape(&s.media), escape(url));
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
        assert!(out.contains("picture>source[srcset=\"chart-dark.png 1x, chart-dark@2x.png 2x\"][media=\"(prefers-color-scheme: dark)\"]~img{content:url(\"chart-dark.png\")}"), "{out}");
        assert!(out.contains("@media (min-width:0px) and (min-width: 800px){picture>source[srcset=\"wide-dark.png\"]"), "{out}");
        assert!(!out.contains("light.png"), "{out}");
    }
}
