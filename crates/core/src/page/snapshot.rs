//! The page block the chat sends the model: the main content first, whole and in order, then a
//! short outline of the rest. Over budget the outline is cut first, then the main content from
//! its end, and one line says how much is left and how to read it.

use super::inserts::{notes_inside, without_marks};
use super::outline;
use super::reader::{read, Reading};
use super::text::{cut_to_tokens, estimate_tokens, sectionize, whole_text_snapshot};
use crate::protocol::caps::SNAPSHOT_TOKENS;
use crate::protocol::page::{PageText, TextSection, TextSnapshot};
use crate::protocol::page_blocks::PageBlock;

/// The pass-2 tool that reads a part of the page whole.
pub const READ_PART_TOOL: &str = "read_page_part";

/// Tokens a continuation line and the outline's heading line take.
const NOTE_TOKENS: u32 = 45;

/// The most the outline takes: a line per part while they fit, then one naming the parts left out.
const OUTLINE_TOKENS: u32 = 200;

/// A heading's words without a bracketed link at its end: an edit or permalink control, not its title.
fn heading_words(text: &str, links: &[String]) -> String {
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let control = links.iter().find_map(|l| words.strip_suffix(&format!("[{}]", l.trim())).map(str::trim_end).filter(|w| !w.is_empty()));
    control.map_or(words.clone(), str::to_string)
}

/// The main content's sections, and the tokens of its text the read did not reach.
pub fn main_sections(blocks: &[PageBlock], reading: &Reading) -> (Vec<TextSection>, u32) {
    let mut sections: Vec<TextSection> = Vec::new();
    let mut unread = 0;
    let notes = notes_inside(blocks, &reading.main);
    for &k in &reading.main {
        let b = &blocks[k];
        let Some(text) = b.text.as_deref() else {
            unread += b.chars.div_ceil(4);
            // Not read, but its headings name what is there.
            sections.extend(b.heads.iter().map(|(level, h)| TextSection {
                heading: Some(h.split_whitespace().collect::<Vec<_>>().join(" ")),
                level: *level,
                text: String::new(),
            }));
            continue;
        };
        if b.heading > 0 {
            let heading = heading_words(text, &b.labels);
            if !heading.is_empty() {
                sections.push(TextSection { heading: Some(heading), level: b.heading, text: String::new() });
            }
            continue;
        }
        let text = if notes { text.into() } else { without_marks(text, &b.labels) };
        for s in sectionize(&text, &b.heads) {
            match (s.heading.is_none(), sections.last_mut()) {
                (true, Some(last)) => {
                    if !last.text.is_empty() && !s.text.is_empty() {
                        last.text.push('\n');
                    }
                    last.text.push_str(&s.text);
                }
                _ => sections.push(s),
            }
        }
    }
    (sections, unread)
}

fn section_tokens(s: &TextSection) -> u32 {
    s.heading.as_deref().map_or(0, |h| estimate_tokens(h) + 1) + estimate_tokens(&s.text)
}

/// `text_snapshot`: the page block of `page` within `budget` tokens, from its blocks when it was
/// measured as blocks, else from its text in sections.
pub fn text_snapshot(page: &PageText, budget: u32) -> TextSnapshot {
    let mut snap = if page.blocks.is_empty() { whole_text_snapshot(page, budget) } else { snapshot(page, budget.clamp(50, SNAPSHOT_TOKENS)) };
    snap.block = render(&snap);
    snap
}

/// Tokens the whole page block of `page` takes: what its tab needs of the chat's budget.
pub fn need(page: &PageText) -> u32 {
    if page.blocks.is_empty() {
        let heads: u32 = page.headings.iter().map(|h| estimate_tokens(&h.text) + 1).sum();
        return estimate_tokens(&page.text).max(page.whole_chars.unwrap_or(0).div_ceil(4)) + heads;
    }
    blocks_need(page)
}

/// How many tokens the whole page block of a page measured as blocks takes.
fn blocks_need(page: &PageText) -> u32 {
    let reading = read(&page.boxes, &page.blocks);
    let (sections, unread) = main_sections(&page.blocks, &reading);
    let lines: Vec<String> = reading.parts.iter().enumerate().map(|(i, p)| outline::line(i + 1, p, &page.blocks, false)).collect();
    sections.iter().map(section_tokens).sum::<u32>() + unread + outline::tokens(&lines) + NOTE_TOKENS
}

/// The snapshot of a page measured as blocks, within `budget` tokens.
pub fn snapshot(page: &PageText, budget: u32) -> TextSnapshot {
    let reading = read(&page.boxes, &page.blocks);
    let (sections, unread) = main_sections(&page.blocks, &reading);
    let full: Vec<String> = reading.parts.iter().enumerate().map(|(i, p)| outline::line(i + 1, p, &page.blocks, false)).collect();
    let compact: Vec<String> = reading.parts.iter().enumerate().map(|(i, p)| outline::line(i + 1, p, &page.blocks, true)).collect();
    let main_tokens: u32 = sections.iter().map(section_tokens).sum();
    let total = main_tokens + unread + outline::tokens(&full);
    // The outline gives way first: compact, and at most a sixth of the budget, when the main content needs the room.
    let outline_room = if main_tokens + outline::tokens(&full) + NOTE_TOKENS <= budget {
        outline::tokens(&full).min(OUTLINE_TOKENS)
    } else {
        outline::tokens(&compact).min(budget / 6).min(OUTLINE_TOKENS)
    };
    // When the main content is cut, a twentieth of the budget names the headings left out.
    let fits = main_tokens + unread + outline_room + NOTE_TOKENS <= budget;
    let heads_room = if fits { 0 } else { budget / 20 };
    let main_room = budget.saturating_sub(outline_room + NOTE_TOKENS + heads_room);
    let headings: Vec<String> = sections.iter().map(|s| s.heading.clone().unwrap_or_default()).collect();
    let (kept, shown) = cut_main(sections, main_room);
    let left = (main_tokens + unread).saturating_sub(shown);
    let more = (left > 0).then(|| {
        let later = later_headings(&headings[kept.len()..], heads_room);
        format!(
            "[The main content continues: about {left} more tokens of {} are not shown here{later}. In pass 2, {READ_PART_TOOL} with part 0 and from {shown} reads on.]",
            main_tokens + unread
        )
    });
    let shown = shown + more.as_deref().map_or(0, estimate_tokens).saturating_sub(NOTE_TOKENS);
    let room = budget.saturating_sub(shown + if more.is_some() { NOTE_TOKENS } else { 0 }).min(OUTLINE_TOKENS);
    let lines = fit_outline(&reading, &full, &compact, room, more.is_some());
    let tokens = shown + outline::tokens(&lines);
    let truncated = more.is_some() || lines.len() != full.len() || lines != full;
    TextSnapshot { title: page.title.clone(), sections: kept, tokens, total_tokens: total, truncated, outline: lines, more, block: String::new() }
}

/// `, under the headings: A; B; …` for the sections left out, within `room` tokens.
fn later_headings(headings: &[String], room: u32) -> String {
    let mut out = String::new();
    for (n, h) in headings.iter().filter(|h| !h.is_empty()).enumerate() {
        if estimate_tokens(&out) + estimate_tokens(h) + 1 > room {
            out.push_str("; …");
            break;
        }
        out.push_str(if n == 0 { ", under the headings: " } else { "; " });
        out.push_str(h);
    }
    out
}

/// The outline lines that fit in `room` tokens, in order: whole lines while they fit (only
/// compact ones when the main content was cut), then one line naming the parts left out.
fn fit_outline(reading: &Reading, full: &[String], compact: &[String], room: u32, cut: bool) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut left = room;
    for (f, c) in full.iter().zip(compact) {
        let line = if !cut && estimate_tokens(f) < left {
            f
        } else if estimate_tokens(c) < left {
            c
        } else {
            break;
        };
        left -= estimate_tokens(line) + 1;
        lines.push(line.clone());
    }
    while lines.len() < full.len() {
        let note = left_out(&reading.parts[lines.len()..], lines.len() + 1);
        if outline::tokens(&lines) + estimate_tokens(&note) < room || lines.is_empty() {
            lines.push(note);
            break;
        }
        lines.pop();
    }
    lines
}

/// `[24 more parts left out: 22 Sidebar, Footer (parts 3 to 26)]`
fn left_out(parts: &[super::reader::Part], first: usize) -> String {
    let mut kinds: Vec<(&str, usize)> = Vec::new();
    for p in parts {
        match kinds.iter_mut().find(|(k, _)| *k == p.kind.label()) {
            Some((_, n)) => *n += 1,
            None => kinds.push((p.kind.label(), 1)),
        }
    }
    let named: Vec<String> = kinds.iter().map(|(k, n)| if *n > 1 { format!("{n} {k}") } else { k.to_string() }).collect();
    format!("[{} more parts left out: {} (parts {first} to {})]", parts.len(), named.join(", "), first + parts.len() - 1)
}

/// The sections in order within `room` tokens, the last one cut at a word; and the tokens kept.
fn cut_main(sections: Vec<TextSection>, room: u32) -> (Vec<TextSection>, u32) {
    let mut kept = Vec::new();
    let mut used = 0;
    for mut s in sections {
        let cost = section_tokens(&s);
        if used + cost <= room {
            used += cost;
            kept.push(s);
            continue;
        }
        let head = s.heading.as_deref().map_or(0, |h| estimate_tokens(h) + 1);
        let left = room.saturating_sub(used + head);
        if left >= 20 {
            s.text = cut_to_tokens(&s.text, left);
            used += head + estimate_tokens(&s.text);
            kept.push(s);
        }
        break;
    }
    (kept, used)
}

/// The main content's text whole as the page block writes it, for reading on from a token.
pub fn main_text(page: &PageText) -> String {
    let reading = read(&page.boxes, &page.blocks);
    render_sections(&main_sections(&page.blocks, &reading).0)
}

/// One outlined part's text whole (`n` from 1), with its headings; None past the outline's end.
pub fn part_text(page: &PageText, n: usize) -> Option<String> {
    let reading = read(&page.boxes, &page.blocks);
    let part = reading.parts.get(n.checked_sub(1)?)?;
    let mut out = outline::line(n, part, &page.blocks, true);
    out.push('\n');
    for &k in &part.blocks {
        let b = &page.blocks[k];
        match b.text.as_deref() {
            Some(t) if b.heading > 0 => out.push_str(&format!("{} {}\n", "#".repeat(b.heading.clamp(1, 6) as usize), t.trim())),
            Some(t) => {
                for l in t.lines().map(str::trim).filter(|l| !l.is_empty()) {
                    out.push_str(l);
                    out.push('\n');
                }
            }
            None => out.push_str(&format!("{}\n", b.labels.join(", "))),
        }
    }
    Some(out)
}

/// Sections as Markdown-ish text: each heading as a `#` line, then its text.
pub fn render_sections(sections: &[TextSection]) -> String {
    let mut out = String::new();
    for section in sections {
        if let Some(h) = &section.heading {
            out.push_str(&format!("{} {h}\n", "#".repeat(section.level.clamp(1, 6) as usize)));
        }
        if !section.text.is_empty() {
            out.push_str(section.text.trim());
            out.push_str("\n\n");
        }
    }
    out
}

/// The page block: main content, the line saying it continues, the outline of the rest.
pub fn render(s: &TextSnapshot) -> String {
    let mut out = render_sections(&s.sections);
    if let Some(more) = &s.more {
        out.push_str(more);
        out.push('\n');
    }
    if !s.outline.is_empty() {
        out.push_str(&format!("\nThe rest of the page, outlined ({READ_PART_TOOL} reads a part whole by its number):\n"));
        for l in &s.outline {
            out.push_str(l);
            out.push('\n');
        }
    }
    if s.more.is_none() && s.outline.is_empty() && s.truncated {
        out.push_str(&format!("[… cut to {} of {} tokens]\n", s.tokens, s.total_tokens));
    }
    out
}
