//! Core's text logic on what pages really hold: a character from each of the 17 planes, NUL,
//! CRLF, a BOM, bidi marks, joined emoji, and U+FFFD where a lone surrogate half was (the form a
//! JS string with one takes in Rust). Cutting counts characters and never splits one.

use dusk_core::browser_agent::tools::read_text::{answer, chunk, CHUNK};
use dusk_core::page::elements::{clean_text, describe};
use dusk_core::page::snapshot::text_snapshot;
use dusk_core::protocol::page::PageText;

fn planes() -> String {
    (0..17u32).map(|p| char::from_u32(if p == 0 { 0xe9 } else { p * 0x10000 + 0x41 }).unwrap().to_string()).collect::<Vec<_>>().join(" ")
}

const BROKEN: &str = "lone \u{fffd} high, nul \u{0} here,\r\nnext line \u{feff} bom \u{202e} rtl \u{202c} e\u{301} 👩‍👩‍👧 end";

#[test]
fn clean_text_keeps_every_plane_and_cuts_at_characters_not_bytes() {
    let p = planes();
    assert_eq!(clean_text(&p, 1000), p);
    let cut = clean_text(&p, 10);
    assert_eq!(cut.chars().count(), 10, "{cut}");
    assert!(cut.ends_with('…'));
    assert!(p.starts_with(cut.trim_end_matches('…').trim_end()));
}

#[test]
fn clean_text_folds_crlf_into_spaces_and_keeps_nul_and_replacement_characters() {
    let t = clean_text(BROKEN, 1000);
    assert!(!t.contains('\r') && !t.contains('\n'), "{t:?}");
    assert!(t.contains("here, next line"), "{t:?}");
    assert!(t.contains('\u{0}') && t.contains('\u{fffd}') && t.contains("👩‍👩‍👧"), "{t:?}");
    // Every cut is a prefix of the whole, on character boundaries; a word that fills `max` exactly
    // is kept whole before the ellipsis.
    for max in 0..t.chars().count() + 2 {
        let cut = clean_text(BROKEN, max);
        assert!(cut.chars().count() <= max + 1, "max {max}: {cut:?}");
        assert!(t.starts_with(cut.trim_end_matches('…')), "max {max}: {cut:?}");
    }
}

#[test]
fn describe_quotes_strange_text_whole() {
    assert_eq!(describe("textarea", "", "\u{fffd}\u{0}"), "textarea \"\u{fffd}\u{0}\"");
}

#[test]
fn read_text_chunks_of_four_byte_characters_join_back_to_the_whole() {
    // Past one chunk of characters from the astral planes, with no line or word break to end on.
    let text: String = planes().replace(' ', "").repeat(CHUNK / 17 + 40);
    let (first, end) = chunk(&text, 0);
    assert_eq!(first.chars().count(), CHUNK);
    let (rest, stop) = chunk(&text, end);
    assert_eq!(stop, text.chars().count());
    assert_eq!(format!("{first}{rest}"), text);
    let a = answer("The value of [3] textarea", &text, 0, 0, Some(3));
    assert!(a.contains(&format!("characters 1–3,000 of {}", grouped(text.chars().count()))), "{}", &a[..120]);
}

fn grouped(n: usize) -> String {
    let s = n.to_string();
    let (head, tail) = s.split_at(s.len() - 3);
    format!("{head},{tail}")
}

#[test]
fn read_text_of_a_megabyte_value_says_its_length_and_ends_at_a_line() {
    let line = format!("{}abcdefghi\n", "0123456789".repeat(9));
    let text = format!("{}the last line", line.repeat(10_485));
    let a = answer("The value of [7] textarea", &text, 0, 0, Some(7));
    assert!(a.starts_with("The value of [7] textarea, characters 1–3,000 of 1,048,513; more: read_text {\"index\": 7, \"offset\": 3000}"), "{}", &a[..160]);
    let last = answer("The value of [7] textarea", &text, text.chars().count() - 13, 0, Some(7));
    assert!(last.contains("(the end)") && last.contains("the last line"), "{last}");
}

#[test]
fn a_snapshot_of_strange_text_holds_it() {
    let page = PageText {
        title: "Strange \u{fffd}".into(),
        text: format!("{}\n{BROKEN}", planes()),
        headings: vec![],
        hidden: 0,
        whole_chars: None,
        boxes: vec![],
        blocks: vec![],
    };
    let snap = text_snapshot(&page, 2000);
    let all = serde_json::to_string(&snap).unwrap();
    assert!(all.contains(&planes()), "{all}");
    assert!(all.contains("👩‍👩‍👧") && all.contains("\\u0000"), "{all}");
}

#[test]
fn crlf_and_a_lone_cr_are_typed_as_one_line_break() {
    use dusk_core::page::keys::as_typed;
    assert_eq!(as_typed("a\r\nb\rc\nd\r\n\r\ne"), "a\nb\nc\nd\n\ne");
    assert_eq!(as_typed(&planes()), planes());
    assert_eq!(as_typed(BROKEN), BROKEN.replace("\r\n", "\n"));
    assert!(matches!(as_typed("no carriage return \u{0}"), std::borrow::Cow::Borrowed(_)));
}
