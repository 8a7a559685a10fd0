//! Maps key names (as agents write them) to KeyboardEvent key, code and legacy keyCode.

use crate::protocol::actions::Modifiers;

#[derive(Debug, Clone, PartialEq)]
pub struct KeySpec {
    pub key: String,
    pub code: String,
    pub key_code: u32,
    /// The character the key types, if any.
    pub text: Option<char>,
}

const NAMED: [(&str, &str, u32); 20] = [
    ("Enter", "Enter", 13),
    ("Tab", "Tab", 9),
    ("Escape", "Escape", 27),
    ("Backspace", "Backspace", 8),
    ("Delete", "Delete", 46),
    ("ArrowUp", "ArrowUp", 38),
    ("ArrowDown", "ArrowDown", 40),
    ("ArrowLeft", "ArrowLeft", 37),
    ("ArrowRight", "ArrowRight", 39),
    ("Home", "Home", 36),
    ("End", "End", 35),
    ("PageUp", "PageUp", 33),
    ("PageDown", "PageDown", 34),
    ("Insert", "Insert", 45),
    ("Shift", "ShiftLeft", 16),
    ("Control", "ControlLeft", 17),
    ("Alt", "AltLeft", 18),
    ("Meta", "MetaLeft", 91),
    ("CapsLock", "CapsLock", 20),
    ("ContextMenu", "ContextMenu", 93),
];

fn alias(name: &str) -> &str {
    match name.to_ascii_lowercase().as_str() {
        "return" => "Enter",
        "esc" => "Escape",
        "up" => "ArrowUp",
        "down" => "ArrowDown",
        "left" => "ArrowLeft",
        "right" => "ArrowRight",
        "del" => "Delete",
        "space" | "spacebar" => " ",
        "ctrl" | "control" => "Control",
        "cmd" | "command" | "meta" | "super" => "Meta",
        "option" | "alt" => "Alt",
        "pgup" => "PageUp",
        "pgdn" => "PageDown",
        _ => name,
    }
}

/// Resolves one key name; unknown multi-character names are refused.
pub fn key_spec(name: &str) -> Option<KeySpec> {
    let name = alias(name);
    if let Some((key, code, key_code)) = NAMED.iter().find(|(k, _, _)| k.eq_ignore_ascii_case(name)) {
        return Some(KeySpec { key: key.to_string(), code: code.to_string(), key_code: *key_code, text: None });
    }
    if let Some(n) = name.strip_prefix(['F', 'f']).and_then(|n| n.parse::<u32>().ok()).filter(|n| (1..=12).contains(n)) {
        return Some(KeySpec { key: format!("F{n}"), code: format!("F{n}"), key_code: 111 + n, text: None });
    }
    let mut chars = name.chars();
    let (Some(c), None) = (chars.next(), chars.next()) else { return None };
    let (code, key_code) = match c {
        'a'..='z' | 'A'..='Z' => (format!("Key{}", c.to_ascii_uppercase()), c.to_ascii_uppercase() as u32),
        '0'..='9' => (format!("Digit{c}"), c as u32),
        ' ' => ("Space".into(), 32),
        '-' => ("Minus".into(), 189),
        '=' => ("Equal".into(), 187),
        ',' => ("Comma".into(), 188),
        '.' => ("Period".into(), 190),
        '/' => ("Slash".into(), 191),
        ';' => ("Semicolon".into(), 186),
        '\'' => ("Quote".into(), 222),
        _ => (String::new(), 0),
    };
    Some(KeySpec { key: c.to_string(), code, key_code, text: Some(c) })
}

/// The text as a keyboard types it: CRLF and a lone CR are one Enter, a line feed. Typed one
/// character at a time, CRLF would be two line breaks (a field keeps a CR as a line break too).
pub fn as_typed(text: &str) -> std::borrow::Cow<'_, str> {
    if text.contains('\r') {
        text.replace("\r\n", "\n").replace('\r', "\n").into()
    } else {
        text.into()
    }
}

/// Parses "Ctrl+Shift+A" into the final key and the modifiers held with it.
pub fn parse_combo(combo: &str, mut modifiers: Modifiers) -> Option<(KeySpec, Modifiers)> {
    let parts: Vec<&str> = if combo == "+" { vec!["+"] } else { combo.split('+').map(str::trim).collect() };
    let (last, held) = parts.split_last()?;
    for m in held {
        match alias(m) {
            "Control" => modifiers.ctrl = true,
            "Alt" => modifiers.alt = true,
            "Meta" => modifiers.meta = true,
            s if s.eq_ignore_ascii_case("shift") => modifiers.shift = true,
            _ => return None,
        }
    }
    let spec = if *last == "+" { KeySpec { key: "+".into(), code: "Equal".into(), key_code: 187, text: Some('+') } } else { key_spec(last)? };
    Some((spec, modifiers))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_named_and_printable_keys() {
        assert_eq!(key_spec("enter").map(|k| (k.key, k.key_code)), Some(("Enter".into(), 13)));
        assert_eq!(key_spec("Down").map(|k| k.code), Some("ArrowDown".into()));
        assert_eq!(key_spec("a").map(|k| (k.code, k.key_code, k.text)), Some(("KeyA".into(), 65, Some('a'))));
        assert_eq!(key_spec("F5").map(|k| k.key_code), Some(116));
        assert_eq!(key_spec("space").map(|k| k.key), Some(" ".into()));
        assert_eq!(key_spec("Bogus"), None);
    }

    #[test]
    fn parses_combos() {
        let (k, m) = parse_combo("Ctrl+Shift+a", Modifiers::default()).unwrap();
        assert_eq!(k.key, "a");
        assert!(m.ctrl && m.shift && !m.alt);
        assert_eq!(parse_combo("+", Modifiers::default()).map(|(k, _)| k.key), Some("+".into()));
        assert!(parse_combo("Hyper+a", Modifiers::default()).is_none());
    }
}
