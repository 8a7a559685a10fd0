//! One line for each part of a page outside its main content: what it is, how big, and its first
//! labels, so a question about the menu still has an answer and nothing is left out unsaid.

use super::reader::{Kind, Part};
use super::text::estimate_tokens;
use crate::protocol::page_blocks::PageBlock;

/// Characters of labels or text a full outline line shows; a compact one shows fewer.
const FULL: usize = 160;
const COMPACT: usize = 48;

/// `[n] Navigation "Sections" (42 links): Home, World, Business, …`
pub fn line(n: usize, part: &Part, blocks: &[PageBlock], compact: bool) -> String {
    let of = || part.blocks.iter().map(|&k| &blocks[k]);
    let chars: u32 = of().map(|b| b.chars).sum();
    let link_chars: u32 = of().map(|b| b.link_chars.min(b.chars)).sum();
    let links: u32 = of().map(|b| b.links).sum();
    let menu = links >= 3 && link_chars * 2 >= chars;
    let mut out = format!("[{n}] {}", part.kind.label());
    if let Some(name) = part.name.as_deref().filter(|n| !n.eq_ignore_ascii_case(part.kind.label())) {
        out.push_str(&format!(" \"{}\"", cut(name, 60)));
    }
    let mut counts = Vec::new();
    if part.kind == Kind::Comments || (!menu && part.items >= 3) {
        counts.push(format!("{} items", part.items));
    }
    if links > 0 {
        counts.push(format!("{links} link{}", if links == 1 { "" } else { "s" }));
    }
    counts.push(format!("~{} tokens", chars.div_ceil(4)));
    out.push_str(&format!(" ({})", counts.join(", ")));
    let room = if compact { COMPACT } else { FULL };
    let preview = if menu { labels(part, blocks, room) } else { text(part, blocks, room) };
    if !preview.is_empty() {
        out.push_str(": ");
        out.push_str(&preview);
    }
    out
}

/// The part's link labels, then its headings, joined until `room` characters.
fn labels(part: &Part, blocks: &[PageBlock], room: usize) -> String {
    let mut seen: Vec<&str> = Vec::new();
    let mut out = String::new();
    for label in part.blocks.iter().flat_map(|&k| blocks[k].labels.iter()) {
        let label = label.trim();
        if label.is_empty() || seen.contains(&label) {
            continue;
        }
        if out.chars().count() + label.chars().count() + 2 > room {
            out.push_str(", …");
            return out;
        }
        if !out.is_empty() {
            out.push_str(", ");
        }
        out.push_str(label);
        seen.push(label);
    }
    out
}

/// The part's first words as it reads them, in quotes.
fn text(part: &Part, blocks: &[PageBlock], room: usize) -> String {
    let mut words = String::new();
    for b in part.blocks.iter().map(|&k| &blocks[k]) {
        let t = b.text.as_deref().map(str::to_string).unwrap_or_else(|| b.labels.join(", "));
        for w in t.split_whitespace() {
            if words.chars().count() + w.chars().count() + 1 > room {
                return format!("\"{words} …\"");
            }
            if !words.is_empty() {
                words.push(' ');
            }
            words.push_str(w);
        }
    }
    if words.is_empty() {
        words
    } else {
        format!("\"{words}\"")
    }
}

fn cut(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    format!("{}…", s.chars().take(max - 1).collect::<String>())
}

/// Tokens of the outline lines.
pub fn tokens(lines: &[String]) -> u32 {
    lines.iter().map(|l| estimate_tokens(l) + 1).sum()
}
