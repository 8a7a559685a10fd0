//! CSS from a model never touches a page unchecked: no `@import`, no `url()` but `data:`, no
//! `expression()`/`behavior`/`-moz-binding`, at most 100 KB. A generated theme can't load from,
//! or report to, a remote host.

/// The most CSS a theme may have.
pub const MAX_CSS_BYTES: usize = 100 * 1024;

#[derive(Debug, Clone, PartialEq)]
pub struct Sanitized {
    pub css: String,
    /// What was taken out, for the model and the progress.
    pub removed: Vec<String>,
}

/// Removes comments, then every forbidden statement or declaration.
pub fn sanitize(css: &str) -> Result<Sanitized, String> {
    if css.len() > MAX_CSS_BYTES {
        return Err(format!("the CSS is {} KB; a theme may have at most {} KB", css.len() / 1024, MAX_CSS_BYTES / 1024));
    }
    let text = strip_comments(css);
    let mut out = String::with_capacity(text.len());
    let mut removed = Vec::new();
    for piece in pieces(&text) {
        match forbidden(piece.text) {
            Some(why) if piece.removable => removed.push(format!("{why}: {}", short(piece.text))),
            _ => out.push_str(piece.text),
        }
    }
    Ok(Sanitized { css: out, removed })
}

fn short(s: &str) -> String {
    let t: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if t.chars().count() > 80 {
        format!("{}…", t.chars().take(80).collect::<String>())
    } else {
        t
    }
}

/// Why a statement or declaration may not reach the page, if it may not.
fn forbidden(piece: &str) -> Option<&'static str> {
    let lower = piece.to_ascii_lowercase();
    let t = lower.trim_start();
    if t.starts_with("@import") {
        return Some("@import removed");
    }
    if t.starts_with("behavior") || t.starts_with("-moz-binding") || lower.contains("expression(") || lower.contains("javascript:") {
        return Some("script in CSS removed");
    }
    if remote_reference(&lower) {
        return Some("remote url() removed");
    }
    None
}

/// Any `url(…)` or `image-set`/`src()` string that is not a `data:` URL.
fn remote_reference(lower: &str) -> bool {
    let mut rest = lower;
    while let Some(i) = rest.find("url(").or_else(|| rest.find("src(")) {
        let arg = rest[i + 4..].trim_start().trim_start_matches(['"', '\'']).trim_start();
        if !arg.starts_with("data:") {
            return true;
        }
        rest = &rest[i + 4..];
    }
    if lower.contains("image-set(") {
        let inner = &lower[lower.find("image-set(").unwrap_or(0)..];
        return inner.split(['"', '\'']).skip(1).step_by(2).any(|s| !s.trim().starts_with("data:"));
    }
    false
}

struct Piece<'a> {
    text: &'a str,
    /// A declaration or an at-statement: dropping it leaves the rest valid.
    removable: bool,
}

/// Splits CSS into declarations/statements (ending in `;`, or before `}`) and the structure around
/// them (selectors, braces), respecting strings and parentheses.
fn pieces(css: &str) -> Vec<Piece<'_>> {
    let bytes = css.as_bytes();
    let mut out = Vec::new();
    let (mut start, mut depth_paren, mut quote) = (0usize, 0i32, None::<u8>);
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if let Some(q) = quote {
            if c == b'\\' {
                i += 2;
                continue;
            }
            if c == q {
                quote = None;
            }
            i += 1;
            continue;
        }
        match c {
            b'"' | b'\'' => quote = Some(c),
            b'(' => depth_paren += 1,
            b')' => depth_paren = (depth_paren - 1).max(0),
            b';' if depth_paren == 0 => {
                out.push(Piece { text: &css[start..=i], removable: true });
                start = i + 1;
            }
            b'{' if depth_paren == 0 => {
                // A block opens: what came before is a selector or an at-rule prelude.
                let prelude = &css[start..=i];
                let at_import = prelude.trim_start().to_ascii_lowercase().starts_with("@import");
                out.push(Piece { text: prelude, removable: at_import });
                start = i + 1;
            }
            b'}' if depth_paren == 0 => {
                if start < i {
                    out.push(Piece { text: &css[start..i], removable: true });
                }
                out.push(Piece { text: &css[i..=i], removable: false });
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    if start < css.len() {
        out.push(Piece { text: &css[start..], removable: true });
    }
    out
}

fn strip_comments(css: &str) -> String {
    let mut out = String::with_capacity(css.len());
    let mut rest = css;
    while let Some(i) = rest.find("/*") {
        out.push_str(&rest[..i]);
        rest = match rest[i + 2..].find("*/") {
            Some(j) => &rest[i + 2 + j + 2..],
            None => "",
        };
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn imports_remote_urls_and_scripts_go_and_the_rest_stays() {
        let css = "@import url(https://evil.example/x.css);\n@import 'b.css';\nbody { color: #eee; background: url(https://evil.example/t.png) #111; }\n\
                   .logo { background-image: url( \"data:image/svg+xml,<svg/>\" ); filter: invert(1); }\n\
                   .x { width: expression(alert(1)); behavior: url(a.htc); -moz-binding: url(x.xml#y); }\n\
                   .y { background: image-set(\"https://a/b.png\" 1x); border-image: src(\"//cdn/x\"); }\n\
                   /* url(https://comment.example) */ a { color: #8af }";
        let s = sanitize(css).unwrap();
        assert!(!s.css.contains("evil") && !s.css.contains("@import") && !s.css.contains("expression"), "{}", s.css);
        assert!(!s.css.contains("behavior") && !s.css.contains("binding") && !s.css.contains("image-set") && !s.css.contains("//cdn"), "{}", s.css);
        assert!(
            s.css.contains("color: #eee") && s.css.contains("data:image/svg+xml") && s.css.contains("invert(1)") && s.css.contains("a { color: #8af }"),
            "{}",
            s.css
        );
        assert_eq!(s.removed.len(), 8, "{:?}", s.removed);
        assert!(s.removed[0].starts_with("@import removed"));
    }

    #[test]
    fn nested_blocks_and_strings_with_semicolons_survive() {
        let css = "@media (prefers-color-scheme: dark) { .a { content: \"x;y}\"; color: red } }\n.b{color:blue}";
        let s = sanitize(css).unwrap();
        assert_eq!(s.css, css);
        assert!(s.removed.is_empty());
        let s = sanitize("@media screen { .a { background: url(http://x/y.png) } .b { color: red } }").unwrap();
        assert_eq!(s.css.replace(' ', ""), "@mediascreen{.a{}.b{color:red}}");
    }

    #[test]
    fn too_big_is_refused() {
        assert!(sanitize(&"a{color:red}".repeat(10_000)).unwrap_err().contains("at most 100 KB"));
    }
}
