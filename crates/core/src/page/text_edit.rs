//! Text editing as a person does it: where typed text goes in a field's value (after a line the
//! model names, over a piece of text it names), and where a click on a field puts the caret.
//! Offsets are UTF-16 code units, as the page's selection counts them.

use crate::protocol::actions::TypeAt;

/// UTF-16 length of `s`.
fn units(s: &str) -> u32 {
    s.encode_utf16().count() as u32
}

/// The UTF-16 range of `value` that `text` replaces for `at`, and the text to put there: after
/// a line, on a line of its own; over a piece of text, in its place (the first, when it occurs
/// more than once). Err says what was not found, so the model can name it better.
pub fn edit_range(value: &str, at: &TypeAt, text: &str) -> Result<(u32, u32, String), String> {
    match at {
        TypeAt::AfterLine(line) => {
            let want = line.trim();
            if want.is_empty() {
                return Err("after_line is empty: give the text of the line to put it after".into());
            }
            // An exact line wins over one that only holds the words.
            let (mut exact, mut holds, mut start) = (None, None, 0);
            for l in value.split('\n') {
                let end = start + l.len();
                if exact.is_none() && l.trim() == want {
                    exact = Some(end);
                }
                if holds.is_none() && l.contains(want) {
                    holds = Some(end);
                }
                start = end + 1;
            }
            let end = exact.or(holds).ok_or_else(|| format!("no line of the field reads \"{want}\""))?;
            let at = units(&value[..end]);
            Ok((at, at, format!("\n{}", text.strip_suffix('\n').unwrap_or(text))))
        }
        TypeAt::Replace(piece) => {
            if piece.is_empty() {
                return Err("replace is empty: give the text to replace".into());
            }
            let start = value.find(piece.as_str()).ok_or_else(|| format!("the field does not hold \"{piece}\""))?;
            let from = units(&value[..start]);
            Ok((from, from + units(piece), text.to_string()))
        }
    }
}

/// The visual lines a wrapping field lays `value` out in, as char ranges `[start, end)`: each hard
/// line broken after spaces so no line is wider than `width` (a word wider than that alone is
/// broken where it overflows), as `white-space: pre-wrap` does.
pub fn wrapped_lines(value: &str, width: f64, measure: impl Fn(&str) -> f64) -> Vec<(usize, usize)> {
    let chars: Vec<char> = value.chars().collect();
    let mut out = Vec::new();
    let mut start = 0;
    while start <= chars.len() {
        let hard_end = chars[start..].iter().position(|&c| c == '\n').map_or(chars.len(), |p| start + p);
        let mut line = start;
        while line < hard_end {
            let mut end = line;
            let mut last_break = None;
            while end < hard_end {
                let w = measure(&chars[line..=end].iter().collect::<String>());
                if w > width && end > line && chars[end] != ' ' {
                    break;
                }
                if chars[end] == ' ' {
                    last_break = Some(end + 1);
                }
                end += 1;
            }
            let end = if end < hard_end { last_break.filter(|&b| b > line).unwrap_or(end) } else { end };
            out.push((line, end));
            line = end;
        }
        if hard_end == start {
            out.push((start, start));
        }
        start = hard_end + 1;
    }
    out
}

/// The char offset a click at (`x`, `y`) inside a field's text box puts the caret at: the visual
/// line under `y`, then the place between two characters nearest `x`.
pub fn caret_at(value: &str, multi_line: bool, width: f64, line_height: f64, x: f64, y: f64, measure: impl Fn(&str) -> f64) -> usize {
    let chars: Vec<char> = value.chars().collect();
    let (a, b) = if multi_line {
        let lines = wrapped_lines(value, width, &measure);
        let row = if line_height > 0.0 { (y / line_height).floor().max(0.0) as usize } else { 0 };
        lines.get(row.min(lines.len().saturating_sub(1))).copied().unwrap_or((0, chars.len()))
    } else {
        (0, chars.len())
    };
    // A wrapped line's last space belongs to it but the caret goes before it.
    let b = if b > a && chars.get(b - 1) == Some(&' ') && b < chars.len() { b - 1 } else { b };
    let mut best = (a, f64::INFINITY);
    for i in a..=b {
        let w = measure(&chars[a..i].iter().collect::<String>());
        let d = (w - x).abs();
        if d < best.1 {
            best = (i, d);
        } else if w > x {
            break;
        }
    }
    best.0
}

/// UTF-16 offset of char offset `n` in `value`.
pub fn utf16_offset(value: &str, n: usize) -> u32 {
    value.chars().take(n).map(|c| c.len_utf16() as u32).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_goes_after_the_line_the_model_names() {
        let v = "First paragraph.\nSecond paragraph.\nTeh last line.";
        let at = TypeAt::AfterLine("Second paragraph.".into());
        let (s, e, t) = edit_range(v, &at, "See also: [[start]]").unwrap();
        assert_eq!((s, e), (34, 34));
        let out = format!("{}{t}{}", &v[..s as usize], &v[e as usize..]);
        assert_eq!(out, "First paragraph.\nSecond paragraph.\nSee also: [[start]]\nTeh last line.");
        let (s, _, _) = edit_range(v, &TypeAt::AfterLine("  Teh last line. ".into()), "x").unwrap();
        assert_eq!(s as usize, v.len(), "after the last line: at the end");
        let (s, _, _) = edit_range(v, &TypeAt::AfterLine("Second".into()), "x").unwrap();
        assert_eq!(s, 34, "a line that holds the words, when none reads them whole");
        let (s, _, _) = edit_range("Second x\nSecond", &TypeAt::AfterLine("Second".into()), "x").unwrap();
        assert_eq!(s, 15, "a line that reads them whole wins");
        assert_eq!(edit_range(v, &TypeAt::AfterLine("Third".into()), "x").unwrap_err(), "no line of the field reads \"Third\"");
    }

    #[test]
    fn text_replaces_the_piece_the_model_names() {
        let v = "Teh cat, teh dog";
        assert_eq!(edit_range(v, &TypeAt::Replace("Teh".into()), "The").unwrap(), (0, 3, "The".into()));
        assert_eq!(edit_range(v, &TypeAt::Replace("teh".into()), "the").unwrap(), (9, 12, "the".into()), "case counts");
        assert_eq!(edit_range("é😀 ab", &TypeAt::Replace("ab".into()), "x").unwrap(), (4, 6, "x".into()), "UTF-16 offsets");
        assert!(edit_range(v, &TypeAt::Replace("bird".into()), "x").unwrap_err().contains("does not hold \"bird\""));
        assert!(edit_range(v, &TypeAt::Replace(String::new()), "x").is_err());
    }

    #[test]
    fn a_click_puts_the_caret_between_the_characters_under_it() {
        let mono = |s: &str| s.chars().count() as f64 * 10.0;
        assert_eq!(caret_at("0123456789", false, 500.0, 20.0, 52.0, 5.0, mono), 5);
        assert_eq!(caret_at("0123456789", false, 500.0, 20.0, 999.0, 5.0, mono), 10, "past the end: at the end");
        let v = "ab cd ef\nxyz";
        assert_eq!(wrapped_lines(v, 60.0, mono), [(0, 6), (6, 8), (9, 12)], "wrapped after a space");
        assert_eq!(caret_at(v, true, 60.0, 20.0, 11.0, 25.0, mono), 7, "second visual line");
        assert_eq!(caret_at(v, true, 60.0, 20.0, 21.0, 45.0, mono), 11, "third line: the hard line after the break");
        assert_eq!(caret_at(v, true, 60.0, 20.0, 55.0, 5.0, mono), 5, "before a wrapped line's last space");
        assert_eq!(caret_at(v, true, 60.0, 20.0, 5.0, 500.0, mono), 9, "below the text: its last line");
        assert_eq!(wrapped_lines("abcdefgh", 30.0, mono), [(0, 3), (3, 6), (6, 8)], "a long word breaks where it overflows");
        assert_eq!(wrapped_lines("a\n\nb", 100.0, mono), [(0, 1), (2, 2), (3, 4)], "an empty line is a line");
        assert_eq!(utf16_offset("é😀a", 2), 3);
    }
}
