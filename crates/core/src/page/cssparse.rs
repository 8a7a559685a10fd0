//! Splits a style sheet into top-level rules and a rule body into declarations, so the content
//! script can tell which of the CSS it applied the browser dropped.

/// Splits CSS into top-level rules (`sel { … }` or `@x …;`), skipping comments, respecting strings and nesting.
pub fn split_rules(css: &str) -> Vec<String> {
    let mut rules = Vec::new();
    let mut current = String::new();
    let mut depth = 0u32;
    let mut chars = css.chars().peekable();
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        if let Some(q) = quote {
            current.push(c);
            if c == '\\' {
                current.extend(chars.next());
            } else if c == q {
                quote = None;
            }
            continue;
        }
        if c == '/' && chars.peek() == Some(&'*') {
            chars.next();
            let mut prev = ' ';
            for d in chars.by_ref() {
                if prev == '*' && d == '/' {
                    break;
                }
                prev = d;
            }
            continue;
        }
        current.push(c);
        match c {
            '"' | '\'' => quote = Some(c),
            '{' => depth += 1,
            '}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    rules.push(current.trim().to_string());
                    current.clear();
                }
            }
            ';' if depth == 0 => {
                rules.push(current.trim().to_string());
                current.clear();
            }
            _ => {}
        }
    }
    if !current.trim().is_empty() {
        rules.push(current.trim().to_string());
    }
    rules
}

/// A style rule's selector and its declarations as (property, value without !important).
pub fn style_rule(rule: &str) -> Option<(String, Vec<(String, String)>)> {
    if rule.starts_with('@') {
        return None;
    }
    let open = rule.find('{')?;
    let body = rule[open + 1..].strip_suffix('}')?;
    if body.contains('{') {
        return None;
    }
    let decls = split_declarations(body)
        .into_iter()
        .filter_map(|d| {
            let (p, v) = d.split_once(':')?;
            let v = v.trim();
            let v = v.strip_suffix("!important").or_else(|| v.strip_suffix("! important")).unwrap_or(v);
            Some((p.trim().to_string(), v.trim().to_string()))
        })
        .collect();
    Some((rule[..open].trim().to_string(), decls))
}

fn split_declarations(body: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let (mut quote, mut parens) = (None, 0u32);
    for c in body.chars() {
        match (quote, c) {
            (Some(q), _) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '(') => parens += 1,
            (None, ')') => parens = parens.saturating_sub(1),
            (None, ';') if parens == 0 => {
                out.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    out.push(current);
    out.into_iter().map(|d| d.trim().to_string()).filter(|d| !d.is_empty()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_top_level_rules() {
        let css = "/* c { } */ a { color: red; } @media (x) { b { c: d } } @import 'x;y'; p{}";
        let rules = split_rules(css);
        assert_eq!(rules, vec!["a { color: red; }", "@media (x) { b { c: d } }", "@import 'x;y';", "p{}"]);
    }

    #[test]
    fn reads_declarations() {
        let (sel, decls) = style_rule("a, b { color: red !important; background: url('a;b'); }").unwrap();
        assert_eq!(sel, "a, b");
        assert_eq!(decls, vec![("color".into(), "red".into()), ("background".into(), "url('a;b')".into())]);
        assert!(style_rule("@media x { a { } }").is_none());
    }
}
