//! Rewrites a declaration's value for a role: every colour in it is mapped, every `var(--x)`
//! points at the role's remapped twin `--dusk-<role>-x` (falling back to the original).

use super::color::{self, Rgba};
use super::map::{map, Role};

/// Which role a property's colours play; None for properties without colours.
pub fn role_of(property: &str) -> Option<Role> {
    let p = property.strip_prefix("-webkit-").unwrap_or(property);
    Some(match p {
        "background" | "background-color" | "background-image" | "box-shadow" | "text-shadow" => Role::Bg,
        "color"
        | "fill"
        | "stroke"
        | "caret-color"
        | "text-decoration"
        | "text-decoration-color"
        | "text-fill-color"
        | "text-stroke-color"
        | "text-emphasis-color"
        | "stop-color"
        | "flood-color"
        | "accent-color" => Role::Fg,
        "outline" | "outline-color" | "column-rule" | "column-rule-color" | "scrollbar-color" => Role::Border,
        _ if p.starts_with("border")
            && !p.contains("radius")
            && !p.contains("width")
            && !p.contains("style")
            && !p.contains("image")
            && !p.contains("spacing")
            && !p.contains("collapse") =>
        {
            Role::Border
        }
        _ => return None,
    })
}

/// The twin custom property holding `--name` remapped for `role`.
pub fn twin(name: &str, role: Role) -> String {
    format!("--dusk-{}-{}", role.tag(), name.trim_start_matches("--"))
}

/// The value with its colours mapped and var() references pointed at twins; None if unchanged.
pub fn rewrite(value: &str, role: Role) -> Option<String> {
    let mut out = String::with_capacity(value.len() + 16);
    let changed = rewrite_into(value, role, &mut out);
    changed.then_some(out)
}

/// Maps a legacy attribute colour (`bgcolor="ffffff"` also counts, as browsers accept it).
pub fn map_attribute(value: &str, role: Role) -> Option<Rgba> {
    let v = value.trim();
    let c =
        color::parse(v).or_else(|| (matches!(v.len(), 3 | 6) && v.bytes().all(|b| b.is_ascii_hexdigit())).then(|| color::parse(&format!("#{v}"))).flatten())?;
    Some(map(c, role))
}

fn rewrite_into(value: &str, role: Role, out: &mut String) -> bool {
    let s = value.as_bytes();
    let mut changed = false;
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        if c == b'"' || c == b'\'' {
            let end = super::css::string_end(s, i);
            out.push_str(&value[i..end]);
            i = end;
        } else if c == b'#' && (i == 0 || !is_ident(s[i - 1])) {
            let end = i + 1 + s[i + 1..].iter().take_while(|b| is_ident(**b)).count();
            match color::parse(&value[i..end]) {
                Some(col) => {
                    out.push_str(&map(col, role).to_css());
                    changed = true;
                }
                None => out.push_str(&value[i..end]),
            }
            i = end;
        } else if is_ident_start(c) && (i == 0 || !is_ident(s[i - 1])) {
            let end = i + s[i..].iter().take_while(|b| is_ident(**b)).count();
            let word = &value[i..end];
            if s.get(end) == Some(&b'(') {
                let close = matching_paren(s, end);
                let inner = &value[end + 1..close.min(s.len())];
                let tail = if close < s.len() { ")" } else { "" };
                match word.to_ascii_lowercase().as_str() {
                    // light-dark(): the root's scheme is forced dark, so the site's own dark colour applies.
                    // A light raster strip behind the page's text is redrawn in the background band.
                    "url" if role == Role::Bg && !tail.is_empty() => match super::images::replace(inner) {
                        Some(dark) => {
                            out.push_str(&dark);
                            changed = true;
                        }
                        None => out.push_str(&value[i..close_end(close, s.len())]),
                    },
                    "url" | "image-set" | "-webkit-image-set" | "attr" | "env" | "light-dark" => out.push_str(&value[i..close_end(close, s.len())]),
                    "rgb" | "rgba" | "hsl" | "hsla" => match color::parse(&value[i..close_end(close, s.len())]) {
                        Some(col) => {
                            out.push_str(&map(col, role).to_css());
                            changed = true;
                        }
                        None => out.push_str(&value[i..close_end(close, s.len())]),
                    },
                    "var" => {
                        rewrite_var(inner, role, out);
                        out.push_str(tail);
                        changed = true;
                    }
                    _ => {
                        out.push_str(word);
                        out.push('(');
                        changed |= rewrite_into(inner, role, out);
                        out.push_str(tail);
                    }
                }
                i = close_end(close, s.len());
            } else {
                match (word.eq_ignore_ascii_case("transparent"), color::parse(word)) {
                    (false, Some(col)) => {
                        out.push_str(&map(col, role).to_css());
                        changed = true;
                    }
                    _ => out.push_str(word),
                }
                i = end;
            }
        } else {
            let next = i + value[i..].chars().next().map_or(1, char::len_utf8);
            out.push_str(&value[i..next]);
            i = next;
        }
    }
    changed
}

/// `var(--x, fb)` becomes `var(--dusk-role-x, var(--x, fb'))`.
fn rewrite_var(inner: &str, role: Role, out: &mut String) {
    let (name, fallback) = match inner.split_once(',') {
        Some((n, f)) => (n.trim(), Some(f)),
        None => (inner.trim(), None),
    };
    out.push_str("var(");
    out.push_str(&twin(name, role));
    out.push_str(", var(");
    out.push_str(name);
    if let Some(f) = fallback {
        out.push(',');
        rewrite_into(f, role, out);
    }
    out.push(')');
}

fn close_end(close: usize, len: usize) -> usize {
    (close + 1).min(len)
}

/// Index of the `)` matching the `(` at `open`, or the end of input.
fn matching_paren(s: &[u8], open: usize) -> usize {
    let (mut depth, mut i) = (0usize, open);
    while i < s.len() {
        match s[i] {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            b'"' | b'\'' => {
                i = super::css::string_end(s, i);
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    s.len()
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'-' || b == b'_' || b >= 0x80
}

fn is_ident(b: u8) -> bool {
    is_ident_start(b) || b.is_ascii_digit()
}

/// Custom properties a value refers to with var().
pub fn var_refs(value: &str) -> Vec<&str> {
    let mut refs = Vec::new();
    let mut rest = value;
    while let Some(at) = rest.find("var(") {
        rest = &rest[at + 4..];
        let name = rest.trim_start();
        let len = name.bytes().take_while(|b| is_ident(*b)).count();
        if name.starts_with("--") && len > 2 {
            refs.push(&name[..len]);
        }
    }
    refs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_every_colour_in_a_shorthand() {
        let v = rewrite("url(a#fff.png) no-repeat #fff", Role::Bg).unwrap();
        assert!(v.starts_with("url(a#fff.png) no-repeat #"), "{v}");
        assert_ne!(v, "url(a#fff.png) no-repeat #fff");
        let g = rewrite("linear-gradient(to right, white 0%, rgb(238, 238, 238) 100%)", Role::Bg).unwrap();
        assert!(g.starts_with("linear-gradient(to right, #") && !g.contains("white"), "{g}");
        assert_eq!(rewrite("1px solid", Role::Border), None);
        assert_eq!(rewrite("inherit", Role::Fg), None);
        assert_eq!(rewrite("transparent", Role::Bg), None);
    }

    #[test]
    fn var_points_at_the_role_twin_with_the_original_as_fallback() {
        assert_eq!(rewrite("var(--fg)", Role::Fg).unwrap(), "var(--dusk-fg-fg, var(--fg))");
        let v = rewrite("1px solid var(--line, #000)", Role::Border).unwrap();
        assert!(v.starts_with("1px solid var(--dusk-bd-line, var(--line, #"), "{v}");
        assert_eq!(var_refs("calc(var(--a) + var( --b, var(--c)))"), vec!["--a", "--b", "--c"]);
    }

    #[test]
    fn roles_by_property() {
        assert_eq!(role_of("border-top-color"), Some(Role::Border));
        assert_eq!(role_of("border-radius"), None);
        assert_eq!(role_of("-webkit-text-fill-color"), Some(Role::Fg));
        assert_eq!(role_of("font-family"), None);
    }

    #[test]
    fn legacy_attribute_colours() {
        assert!(map_attribute("ffffff", Role::Bg).is_some());
        assert!(map_attribute("#FFF", Role::Bg).is_some());
        assert!(map_attribute("nonsense", Role::Bg).is_none());
    }

    #[test]
    fn broken_values_never_panic() {
        for v in ["rgb(", "var(", "#", "url(", "\"", "a(b(c", "é#fffé", "var(--x,"] {
            let _ = rewrite(v, Role::Fg);
            let _ = var_refs(v);
        }
    }
}
