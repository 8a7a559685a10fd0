//! Where a reply's JSON sits: its fenced blocks, and balanced `{…}`/`[…]` spans outside them.

pub(super) struct Block<'a> {
    pub start: usize,
    pub end: usize,
    pub lang: &'a str,
    pub body: &'a str,
}

/// Finds ``` fenced blocks; an unclosed last block runs to the end (models often stop early).
pub(super) fn fenced_blocks(s: &str) -> Vec<Block<'_>> {
    let mut out = vec![];
    let mut pos = 0;
    while let Some(open) = s[pos..].find("```").map(|i| pos + i) {
        let after = open + 3;
        let line_end = s[after..].find('\n').map(|i| after + i).unwrap_or(s.len());
        let lang = s[after..line_end].trim();
        let body_start = (line_end + 1).min(s.len());
        let (body_end, end) = match s[body_start..].find("```") {
            Some(i) => (body_start + i, body_start + i + 3),
            None => (s.len(), s.len()),
        };
        out.push(Block { start: open, end, lang, body: &s[body_start..body_end] });
        pos = end;
    }
    out
}

pub(super) fn remove_spans(s: &str, spans: &[(usize, usize)]) -> String {
    let mut out = String::new();
    let mut pos = 0;
    for &(a, b) in spans {
        out.push_str(&s[pos..a]);
        pos = b;
    }
    out.push_str(&s[pos..]);
    out.trim().to_string()
}

/// Byte spans of top-level balanced `{...}` / `[...]` regions, quote-aware.
pub(super) fn balanced_spans(s: &str) -> Vec<(usize, usize)> {
    let mut out = vec![];
    let mut start = None;
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (i, c) in s.char_indices() {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' if start.is_some() => quote = Some(c),
            '{' | '[' => {
                if depth == 0 {
                    start = Some(i);
                }
                depth += 1;
            }
            '}' | ']' if depth > 0 => {
                depth -= 1;
                if let (0, Some(a)) = (depth, start) {
                    out.push((a, i + 1));
                    start = None;
                    if out.len() >= 8 {
                        break;
                    }
                }
            }
            _ => {}
        }
    }
    out
}
