//! Near-JSON made JSON: fences and prose stripped, trailing commas, single quotes, Python
//! literals, raw newlines in strings and double encoding fixed.

use super::scan::{balanced_spans, fenced_blocks};
use serde_json::Value;

/// Parses near-JSON: strips fences and prose, then fixes trailing commas, single-quoted strings,
/// Python literals, raw newlines in strings and double encoding.
pub fn repair_json(s: &str) -> Option<Value> {
    let s = s.trim();
    let unfenced = fenced_blocks(s).into_iter().next().map(|b| b.body.trim()).filter(|_| s.starts_with("```")).unwrap_or(s);
    let mut candidates: Vec<&str> = vec![unfenced];
    candidates.extend(balanced_spans(unfenced).into_iter().map(|(a, b)| &unfenced[a..b]));
    for c in candidates {
        if let Ok(v) = serde_json::from_str::<Value>(c) {
            return Some(decode_nested(v));
        }
        if let Ok(v) = serde_json::from_str::<Value>(&fix(c)) {
            return Some(decode_nested(v));
        }
    }
    None
}

fn decode_nested(v: Value) -> Value {
    match v {
        Value::String(s) if s.trim_start().starts_with(['{', '[']) => {
            match serde_json::from_str::<Value>(&s).ok().or_else(|| serde_json::from_str(&fix(&s)).ok()) {
                Some(inner) => inner,
                None => Value::String(s),
            }
        }
        v => v,
    }
}

/// One pass over near-JSON, rewriting only what is outside double-quoted strings.
fn fix(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    let push_raw = |out: &mut String, ch: char| match ch {
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        c => out.push(c),
    };
    while i < chars.len() {
        let c = chars[i];
        match c {
            '"' => {
                out.push('"');
                i += 1;
                while i < chars.len() {
                    let ch = chars[i];
                    if ch == '\\' && i + 1 < chars.len() {
                        out.push(ch);
                        out.push(chars[i + 1]);
                        i += 2;
                        continue;
                    }
                    i += 1;
                    if ch == '"' {
                        out.push('"');
                        break;
                    }
                    push_raw(&mut out, ch);
                }
            }
            '\'' => {
                out.push('"');
                i += 1;
                while i < chars.len() {
                    let ch = chars[i];
                    if ch == '\\' && i + 1 < chars.len() {
                        if chars[i + 1] == '\'' {
                            out.push('\'');
                        } else {
                            out.push(ch);
                            out.push(chars[i + 1]);
                        }
                        i += 2;
                        continue;
                    }
                    i += 1;
                    match ch {
                        '\'' => {
                            out.push('"');
                            break;
                        }
                        '"' => out.push_str("\\\""),
                        _ => push_raw(&mut out, ch),
                    }
                }
            }
            ',' => {
                let next = chars[i + 1..].iter().find(|c| !c.is_whitespace());
                if !matches!(next, Some('}') | Some(']')) {
                    out.push(',');
                }
                i += 1;
            }
            c if c.is_ascii_alphabetic() => {
                let start = i;
                while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
                let word: String = chars[start..i].iter().collect();
                out.push_str(match word.as_str() {
                    "True" => "true",
                    "False" => "false",
                    "None" => "null",
                    w => w,
                });
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn repairs_quotes_and_trailing_commas() {
        assert_eq!(repair_json("{'a': 'don\\'t', 'b': [1, 2,],}"), Some(json!({"a": "don't", "b": [1, 2]})));
    }
}
