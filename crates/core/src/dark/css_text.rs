//! Pieces of the override sheet's text that the theme builder and the markup rules both write:
//! quoted strings, blocks, media rewritten for the dark scheme, and the raw paint properties.

use super::shapes::{RAW_FILL, RAW_STROKE};

/// Turns `prefers-color-scheme: dark` on and `light` off; reports whether a dark test was seen.
pub(super) fn rewrite_media(query: &str) -> (String, bool) {
    let lower = query.to_ascii_lowercase();
    let compact: String = lower.chars().filter(|c| !c.is_whitespace()).collect();
    // `(prefers-color-scheme)` is a dark condition the page layer switched on in place (`own::scheme_on`).
    let dark = compact.contains("prefers-color-scheme:dark") || compact.contains("(prefers-color-scheme)");
    if !compact.contains("prefers-color-scheme") {
        return (query.to_string(), false);
    }
    let mut out = String::new();
    let mut rest = lower.as_str();
    while let Some(start) = rest.find('(') {
        let Some(len) = rest[start..].find(')') else { break };
        let feature: String = rest[start..start + len + 1].chars().filter(|c| !c.is_whitespace()).collect();
        out.push_str(&rest[..start]);
        out.push_str(match feature.as_str() {
            "(prefers-color-scheme:dark)" | "(prefers-color-scheme)" => "(min-width:0px)",
            "(prefers-color-scheme:light)" => "(max-width:-1px)",
            _ => &rest[start..start + len + 1],
        });
        rest = &rest[start + len + 1..];
    }
    out.push_str(rest);
    (out, dark)
}

/// The custom property holding the page's own value of an SVG paint property.
pub(super) fn raw_paint(property: &str) -> Option<&'static str> {
    match property {
        "fill" => Some(RAW_FILL),
        "stroke" => Some(RAW_STROKE),
        _ => None,
    }
}

pub(super) fn wrap(prelude: &str, inner: &str, out: &mut String) {
    if !inner.is_empty() {
        out.push_str(prelude);
        out.push('{');
        out.push_str(inner);
        out.push('}');
    }
}

/// Escapes text for a double-quoted CSS string.
pub(super) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => out.push_str(&format!("\\{:x} ", c as u32)),
            c => out.push(c),
        }
    }
    out
}
