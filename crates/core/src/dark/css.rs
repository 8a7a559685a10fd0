//! A small, forgiving CSS parser for the text Chrome serialises from CSSOM (and inline styles).
//! It never fails: anything it can't make sense of is skipped.

/// One `name: value [!important]` declaration.
#[derive(Debug, Clone, PartialEq)]
pub struct Decl {
    /// Lower-cased, except custom properties, whose names are case-sensitive.
    pub name: String,
    pub value: String,
    pub important: bool,
}

/// A block with a prelude: a style rule (selector) or an at-rule (`@media …`), possibly nested.
#[derive(Debug, Clone, PartialEq)]
pub struct Rule {
    pub prelude: String,
    pub decls: Vec<Decl>,
    pub children: Vec<Rule>,
}

impl Rule {
    pub fn is_at_rule(&self) -> bool {
        self.prelude.starts_with('@')
    }

    /// The at-rule's lower-case name without `@`, e.g. "media".
    pub fn at_name(&self) -> String {
        self.prelude[1..].split(|c: char| c.is_whitespace() || c == '(').next().unwrap_or("").to_ascii_lowercase()
    }
}

/// Parses a stylesheet's text into its rules.
pub fn parse_sheet(text: &str) -> Vec<Rule> {
    let mut rules = Vec::new();
    for_each_rule(text, |r| rules.push(r));
    rules
}

/// Parses a sheet one top-level rule at a time, handing each to `f`: a big sheet's rules are
/// never all held at once.
pub fn for_each_rule(text: &str, mut f: impl FnMut(Rule)) {
    let mut p = Parser { s: text.as_bytes(), text, pos: 0 };
    p.block(true, &mut f);
}

/// Parses the body of a declaration block, such as a `style` attribute.
pub fn parse_decls(text: &str) -> Vec<Decl> {
    let mut p = Parser { s: text.as_bytes(), text, pos: 0 };
    p.block(false, &mut |_| {})
}

struct Parser<'a> {
    s: &'a [u8],
    text: &'a str,
    pos: usize,
}

impl Parser<'_> {
    /// Reads declarations until the closing `}` (consumed) or the end, handing each rule to `rules`.
    fn block(&mut self, top: bool, rules: &mut dyn FnMut(Rule)) -> Vec<Decl> {
        let mut decls = Vec::new();
        loop {
            self.skip_space();
            if self.pos >= self.s.len() {
                return decls;
            }
            if self.s[self.pos] == b'}' {
                self.pos += 1;
                if top {
                    continue;
                }
                return decls;
            }
            let start = self.pos;
            let end = self.scan_to_delimiter();
            let piece = self.text[start..end].trim();
            match self.s.get(end) {
                Some(b'{') => {
                    self.pos = end + 1;
                    let mut children = Vec::new();
                    let decls = self.block(false, &mut |r| children.push(r));
                    rules(Rule { prelude: piece.to_string(), decls, children });
                }
                Some(b';') => {
                    self.pos = end + 1;
                    if !top {
                        decls.extend(decl(piece));
                    }
                }
                _ => {
                    self.pos = end;
                    if !top {
                        decls.extend(decl(piece));
                    }
                }
            }
        }
    }

    fn skip_space(&mut self) {
        while self.pos < self.s.len() {
            if self.s[self.pos].is_ascii_whitespace() {
                self.pos += 1;
            } else if self.s[self.pos..].starts_with(b"/*") {
                self.pos = self.comment_end(self.pos);
            } else {
                break;
            }
        }
    }

    fn comment_end(&self, at: usize) -> usize {
        self.text[at + 2..].find("*/").map(|i| at + 2 + i + 2).unwrap_or(self.s.len())
    }

    /// Position of the next `{`, `;` or `}` outside strings, comments and parentheses.
    fn scan_to_delimiter(&self) -> usize {
        let (mut i, mut depth) = (self.pos, 0usize);
        while i < self.s.len() {
            match self.s[i] {
                b'"' | b'\'' => i = string_end(self.s, i),
                b'/' if self.s.get(i + 1) == Some(&b'*') => i = self.comment_end(i),
                b'\\' => i += 2,
                b'(' | b'[' => {
                    depth += 1;
                    i += 1;
                }
                b')' | b']' => {
                    depth = depth.saturating_sub(1);
                    i += 1;
                }
                b'{' | b';' | b'}' if depth == 0 => return i,
                _ => i += 1,
            }
        }
        self.s.len()
    }
}

/// Index just past the string literal starting at `at`.
pub(crate) fn string_end(s: &[u8], at: usize) -> usize {
    let quote = s[at];
    let mut i = at + 1;
    while i < s.len() {
        match s[i] {
            b'\\' => i += 2,
            c if c == quote => return i + 1,
            b'\n' => return i,
            _ => i += 1,
        }
    }
    s.len()
}

fn decl(piece: &str) -> Option<Decl> {
    let (name, value) = piece.split_once(':')?;
    let name = name.trim();
    if name.is_empty() || name.contains(char::is_whitespace) {
        return None;
    }
    let mut value = value.trim();
    let mut important = false;
    if let Some(bang) = value.rfind('!') {
        if value[bang + 1..].trim().eq_ignore_ascii_case("important") {
            important = true;
            value = value[..bang].trim_end();
        }
    }
    let name = if name.starts_with("--") { name.to_string() } else { name.to_ascii_lowercase() };
    Some(Decl { name, value: value.to_string(), important })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_rules_media_and_nesting() {
        let css = "/* c */ a { color: red; background: url(\"x;}.png\") #fff !important }\n\
                   @media (prefers-color-scheme: dark) { body { color: #eee } }\n\
                   @import url(x.css);\n\
                   .card { color: blue; & .t { color: green; } }";
        let rules = parse_sheet(css);
        assert_eq!(rules.len(), 3);
        assert_eq!(rules[0].prelude, "a");
        assert_eq!(rules[0].decls[1], Decl { name: "background".into(), value: "url(\"x;}.png\") #fff".into(), important: true });
        assert_eq!(rules[1].at_name(), "media");
        assert_eq!(rules[1].children[0].decls[0].value, "#eee");
        assert_eq!(rules[2].children[0].prelude, "& .t");
    }

    #[test]
    fn inline_styles_keep_custom_property_case() {
        let d = parse_decls("--Accent: #f00; COLOR: var(--Accent) ! important;; junk");
        assert_eq!(d[0].name, "--Accent");
        assert_eq!(d[1], Decl { name: "color".into(), value: "var(--Accent)".into(), important: true });
        assert_eq!(d.len(), 2);
    }

    #[test]
    fn garbage_never_panics() {
        for s in ["{{{", "}}}", "a{b:c", "\"unterminated", "/* open", "a{;;:}", "@media{", "é{ü:ö}", "\\"] {
            let _ = parse_sheet(s);
            let _ = parse_decls(s);
        }
    }
}
