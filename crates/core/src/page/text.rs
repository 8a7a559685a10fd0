//! Splits a page's rendered text into sections under its headings and cuts it to a token budget.

use crate::protocol::caps::SNAPSHOT_TOKENS;
#[cfg(test)]
use crate::protocol::page::PageHeading;
use crate::protocol::page::{PageText, TextSection, TextSnapshot};

/// The elements `page_text` reads as headings.
pub const HEADING_SELECTOR: &str = "h1,h2,h3,h4,h5,h6,[role=heading]";

/// A snapshot of a page read as one text: its sections under its headings in order, each cut to
/// a share of `budget` tokens (page::snapshot::text_snapshot reads a page measured as blocks).
pub fn whole_text_snapshot(page: &PageText, budget: u32) -> TextSnapshot {
    let headings: Vec<(u8, String)> = page.headings.iter().map(|h| (heading_level(&h.tag, h.aria_level.as_deref()), h.text.clone())).collect();
    let mut snap = fit_budget(&page.title, sectionize(&page.text, &headings), budget.clamp(50, SNAPSHOT_TOKENS));
    // A read cut at `snapshot_chars` holds less than the page.
    if let Some(whole) = page.whole_chars {
        snap.truncated = true;
        snap.total_tokens = snap.total_tokens.max(whole.div_ceil(4));
    }
    snap
}

/// How much of a page's text `page_text` reads for a snapshot of `budget` tokens: the budget's
/// worth, which still fills it; past that only the headings' lines follow (the outline).
pub fn snapshot_chars(budget: u32) -> u32 {
    budget.clamp(50, SNAPSHOT_TOKENS) * 4
}

/// Rough token count: about four characters per token for English prose.
pub fn estimate_tokens(s: &str) -> u32 {
    let chars = s.chars().count() as u32;
    chars.div_ceil(4)
}

fn norm(s: &str) -> String {
    let mut out = String::new();
    push_norm(s, &mut out);
    out
}

/// Appends `s` with its whitespace runs made single spaces and its ends trimmed.
fn push_norm(s: &str, out: &mut String) {
    // Most lines are plain ASCII already normal: one byte scan instead of decoding every char.
    let b = s.as_bytes();
    let plain = b.iter().all(|&c| (0x21..0x7f).contains(&c) || c == b' ');
    if plain && b.first() != Some(&b' ') && b.last() != Some(&b' ') && !s.contains("  ") {
        return out.push_str(s);
    }
    for (i, word) in s.split_whitespace().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(word);
    }
}

/// A heading's level: from its tag (`H2`), else its `aria-level`, else 2.
pub fn heading_level(tag: &str, aria_level: Option<&str>) -> u8 {
    let from_tag = tag.strip_prefix(['h', 'H']).and_then(|n| n.parse::<u8>().ok());
    from_tag.or_else(|| aria_level.and_then(|l| l.trim().parse().ok())).unwrap_or(2)
}

/// Splits rendered text (innerText lines) into sections at the lines that are the page's headings.
/// `headings` are (level, text) in document order; headings not rendered as their own line are skipped.
pub fn sectionize(text: &str, headings: &[(u8, String)]) -> Vec<TextSection> {
    let heads: Vec<(u8, String)> = headings.iter().map(|(l, t)| (*l, norm(t))).filter(|(_, t)| !t.is_empty()).collect();
    let mut sections = vec![TextSection::default()];
    let mut next = 0;
    let mut line = String::new();
    for raw in text.lines() {
        line.clear();
        push_norm(raw, &mut line);
        if line.is_empty() {
            continue;
        }
        let found = heads[next.min(heads.len())..].iter().take(8).position(|(_, t)| *t == line);
        if let Some(skip) = found {
            let (level, heading) = heads[next + skip].clone();
            next += skip + 1;
            sections.push(TextSection { heading: Some(heading), level, text: String::new() });
            continue;
        }
        if let Some(current) = sections.last_mut() {
            if !current.text.is_empty() {
                current.text.push('\n');
            }
            current.text.push_str(&line);
        }
    }
    if sections.first().is_some_and(|s| s.text.is_empty()) {
        sections.remove(0);
    }
    sections
}

/// Cuts `s` to about `tokens` tokens at a word boundary, marking the cut with "…".
pub fn cut_to_tokens(s: &str, tokens: u32) -> String {
    let max_chars = tokens as usize * 4;
    if s.chars().count() <= max_chars {
        return s.to_string();
    }
    let cut: String = s.chars().take(max_chars.saturating_sub(1)).collect();
    let end = cut.rfind(char::is_whitespace).filter(|&i| i > cut.len() / 2).unwrap_or(cut.len());
    format!("{}…", cut[..end].trim_end())
}

/// Fits sections into `budget` tokens: headings first, then text shared out so every section keeps some.
pub fn fit_budget(title: &str, sections: Vec<TextSection>, budget: u32) -> TextSnapshot {
    let head_cost = |s: &TextSection| s.heading.as_deref().map_or(0, estimate_tokens) + 1;
    let total: u32 = sections.iter().map(|s| head_cost(s) + estimate_tokens(&s.text)).sum();
    if total <= budget {
        return TextSnapshot { title: title.into(), sections, tokens: total, total_tokens: total, truncated: false, ..Default::default() };
    }
    // Keep as many sections' headings as a third of the budget allows, in document order.
    let mut kept = Vec::new();
    let mut heads = 0;
    for s in sections {
        let cost = head_cost(&s);
        if heads + cost > budget / 3 && !kept.is_empty() {
            break;
        }
        heads += cost;
        kept.push(s);
    }
    // Water-filling: small sections keep all their text, large ones share what is left equally.
    let needs: Vec<u32> = kept.iter().map(|s| estimate_tokens(&s.text)).collect();
    let mut order: Vec<usize> = (0..needs.len()).collect();
    order.sort_by_key(|&i| needs[i]);
    let mut left = budget.saturating_sub(heads);
    let mut grants = vec![0; needs.len()];
    for (n, &i) in order.iter().enumerate() {
        let fair = left / (order.len() - n) as u32;
        grants[i] = needs[i].min(fair);
        left -= grants[i];
    }
    let mut tokens = heads;
    for (s, grant) in kept.iter_mut().zip(grants) {
        s.text = cut_to_tokens(&s.text, grant);
        tokens += estimate_tokens(&s.text);
    }
    TextSnapshot { title: title.into(), sections: kept, tokens, total_tokens: total, truncated: true, ..Default::default() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_at_rendered_headings() {
        let text = "Intro line\nGuide\nFirst para\n\nSecond para\nInstall\nRun it";
        let heads = vec![(1, "Guide".to_string()), (2, "Hidden heading".to_string()), (2, " Install ".to_string())];
        let s = sectionize(text, &heads);
        assert_eq!(s.len(), 3);
        assert_eq!(s[0].heading, None);
        assert_eq!(s[0].text, "Intro line");
        assert_eq!(s[1].heading.as_deref(), Some("Guide"));
        assert_eq!(s[1].text, "First para\nSecond para");
        assert_eq!((s[2].level, s[2].text.as_str()), (2, "Run it"));
    }

    #[test]
    fn fits_a_budget_keeping_every_heading() {
        let long = "word ".repeat(400);
        let sections =
            (0..4).map(|i| TextSection { heading: Some(format!("Heading {i}")), level: 2, text: if i == 1 { "short".into() } else { long.clone() } }).collect();
        let snap = fit_budget("T", sections, 200);
        assert!(snap.truncated);
        assert_eq!(snap.sections.len(), 4);
        assert!(snap.tokens <= 200, "{}", snap.tokens);
        assert!(snap.total_tokens > 1000);
        assert_eq!(snap.sections[1].text, "short");
        assert!(snap.sections[3].text.ends_with('…') && snap.sections[3].text.len() > 40);
    }

    #[test]
    fn heading_levels_come_from_the_tag_then_aria_level() {
        assert_eq!(heading_level("H3", None), 3);
        assert_eq!(heading_level("DIV", Some("4")), 4);
        assert_eq!(heading_level("SPAN", Some("x")), 2);
        assert_eq!(heading_level("HEADER", None), 2);
    }

    #[test]
    fn whitespace_runs_become_one_space_on_plain_and_unicode_lines() {
        assert_eq!(norm("plain line, as most are"), "plain line, as most are");
        assert_eq!(norm("two  spaces"), "two spaces");
        assert_eq!(norm(" edges "), "edges");
        assert_eq!(norm("tab\there\u{a0}\u{a0}nbsp é"), "tab here nbsp é");
        assert_eq!(norm("   "), "");
    }

    #[test]
    fn a_snapshot_of_the_always_on_scripts_read_keeps_its_budget_within_the_caps() {
        let read = r#"{"title":"Guide","text":"Lead\nInstall\nRun it\nMore","headings":[
            {"tag":"H1","aria_level":null,"text":"Guide"},{"tag":"DIV","aria_level":"3","text":" Install "}]}"#;
        let page: PageText = serde_json::from_str(read).unwrap();
        let snap = whole_text_snapshot(&page, 0);
        assert_eq!(snap.title, "Guide");
        assert_eq!(snap.sections.len(), 2);
        assert_eq!((snap.sections[1].level, snap.sections[1].heading.as_deref()), (3, Some("Install")));
        assert_eq!(snap.sections[1].text, "Run it\nMore");
        let long = PageText { text: "word ".repeat(200_000), ..Default::default() };
        assert!(whole_text_snapshot(&long, u32::MAX).tokens <= SNAPSHOT_TOKENS);
    }

    #[test]
    fn a_page_read_to_the_snapshots_budget_still_fills_it_and_keeps_the_later_headings() {
        let budget = 500;
        let heads: Vec<PageHeading> = (0..40).map(|i| PageHeading { tag: "H2".into(), aria_level: None, text: format!("Part {i}") }).collect();
        let body: String = (0..40).map(|i| format!("Part {i}\n{}\n", "word ".repeat(100))).collect();
        // What content.js sends: the text up to snapshot_chars, then the lines of the headings after it.
        let cut = body[..snapshot_chars(budget) as usize].rfind('\n').unwrap_or(0);
        let rest: String = heads.iter().filter(|h| !body[..cut].contains(&format!("{}\n", h.text))).map(|h| format!("\n{}", h.text)).collect();
        let read = PageText { text: format!("{}{rest}", &body[..cut]), headings: heads.clone(), whole_chars: Some(body.len() as u32), ..Default::default() };
        let whole = whole_text_snapshot(&PageText { text: body.clone(), headings: heads, ..Default::default() }, budget);
        let snap = whole_text_snapshot(&read, budget);
        assert!(snap.truncated && snap.tokens <= budget);
        assert!(snap.total_tokens * 10 >= whole.total_tokens * 9, "the page's size, not the read's: {} of {}", snap.total_tokens, whole.total_tokens);
        assert!(snap.tokens * 10 >= whole.tokens * 8, "{} of {}", snap.tokens, whole.tokens);
        let names = |s: &TextSnapshot| s.sections.iter().map(|s| s.heading.clone()).collect::<Vec<_>>();
        assert_eq!(names(&snap), names(&whole), "the same outline");
    }

    #[test]
    fn small_text_is_untouched() {
        let s = vec![TextSection { heading: None, level: 0, text: "hello".into() }];
        let snap = fit_budget("T", s.clone(), 100);
        assert!(!snap.truncated);
        assert_eq!(snap.sections, s);
        assert_eq!(cut_to_tokens("abc def ghi jkl", 2), "abc def…");
    }
}
