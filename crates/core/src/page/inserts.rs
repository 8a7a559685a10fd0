//! What sits inside an article's text without being its text, as a reader skips it: a picture's
//! or a player's caption (a line or two in a box far taller than they need), a line that is only
//! a link ("Main article: X", "READ MORE: …") standing between paragraphs, and a form to fill in.

use super::span::{is_form, Shown};
use crate::protocol::page_blocks::{PageBlock, PageBox};

/// Why a block inside the main content's prose is not its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Insert {
    Caption,
    LinkLine,
    Form,
}

/// The most characters of a link line outside its links: a label such as "Main article:".
const LABEL: u32 = 20;

/// Boxes whose lines are entries of a list or a table.
const ENTRIES: &[&str] = &["ul", "ol", "dl", "li", "dt", "dd", "menu", "table", "tbody", "thead", "tr", "td", "th"];

/// The most characters a caption or a link line holds.
const CAPTION: usize = 250;
const LINE: u32 = 200;

/// Markup a page wrote as text (a `<script src=…>` shown by a broken `document.write`): no one reads it.
pub fn is_markup(b: &PageBlock) -> bool {
    let t = b.text.as_deref().unwrap_or("").trim();
    t.len() > 2 && t.starts_with('<') && t.as_bytes()[1].is_ascii_alphabetic() && t.ends_with('>') && !t.contains('\n')
}

/// A caption: a line or three in its own box at least four times as tall as its words need, and
/// 100 px taller: a picture or a player fills the rest.
fn is_caption(b: &PageBlock, shown: Shown, own: &PageBox) -> bool {
    if shown.lines > 3 || shown.chars == 0 || shown.chars > CAPTION {
        return false;
    }
    if b.text.is_none() || b.heading > 0 || !b.heads.is_empty() || b.rect == own.rect || b.link_chars.min(b.chars) * 2 > b.chars {
        return false;
    }
    let [_, _, w, h] = b.rect;
    let font = if b.font > 0.0 { b.font } else { 16.0 };
    let wrapped = (shown.chars as f32 * 0.55 * font / w.max(1.0)).ceil() as usize;
    let need = shown.lines.max(wrapped) as f32 * font * 1.6;
    h >= 4.0 * need && h - need >= 100.0
}

/// The blocks of `main` (page order) that are inserts, with what they are. A link line counts
/// when the box around it holds paragraphs both before and after it: a list of links, or a
/// post's or a result's title line above its text, stays.
pub fn inserts(boxes: &[PageBox], blocks: &[PageBlock], shown: &[Shown], main: &[usize]) -> Vec<(usize, Insert)> {
    if boxes.is_empty() {
        return vec![];
    }
    let parent = |i: usize| boxes[i].parent.map(|p| p as usize).filter(|&p| p < i);
    let own = |k: usize| (blocks[k].parent as usize).min(boxes.len() - 1);
    let mut out = Vec::new();
    // The lines of `main`: the blocks on one line of one box (a label and its link are two).
    let mut lines: Vec<std::ops::Range<usize>> = Vec::new();
    let mut n = 0;
    while n < main.len() {
        let b = &blocks[main[n]];
        if is_form(b) {
            out.push((main[n], Insert::Form));
        } else if is_caption(b, shown[main[n]], &boxes[own(main[n])]) {
            out.push((main[n], Insert::Caption));
        }
        let mut end = n + 1;
        while end < main.len() && blocks[main[end]].parent == b.parent && (blocks[main[end]].rect[1] - b.rect[1]).abs() <= 3.0 {
            end += 1;
        }
        lines.push(n..end);
        n = end;
    }
    let linky: Vec<bool> = lines.iter().map(|r| is_link_line(blocks, shown, &main[r.clone()])).collect();
    let alone = |i: usize| linky[i] && !(i > 0 && linky[i - 1]) && linky.get(i + 1) != Some(&true);
    if !(0..lines.len()).any(alone) {
        out.sort_unstable_by_key(|&(k, _)| k);
        return out;
    }
    // Per box: how many main blocks it holds, and the first and last paragraph in it (positions in `main`).
    let mut held = vec![0usize; boxes.len()];
    let mut paragraphs = vec![(usize::MAX, 0usize); boxes.len()];
    for (n, &k) in main.iter().enumerate() {
        let b = &blocks[k];
        let i = own(k);
        held[i] += 1;
        if shown[k].chars >= 80 && b.heading == 0 && b.link_chars.min(b.chars) * 10 < b.chars * 3 && !is_form(b) {
            paragraphs[i] = (paragraphs[i].0.min(n), n);
        }
    }
    // Boxes come after their parents: one pass from the last adds each box's counts to its parent's.
    for i in (1..boxes.len()).rev() {
        if let Some(p) = parent(i) {
            held[p] += held[i];
            let (first, last) = paragraphs[i];
            if first != usize::MAX {
                paragraphs[p] = (paragraphs[p].0.min(first), paragraphs[p].1.max(last));
            }
        }
    }
    for (i, r) in lines.iter().enumerate() {
        // Next to another link line it is an entry of a list of links.
        if !alone(i) {
            continue;
        }
        let (n, end, k) = (r.start, r.end, main[r.start]);
        // Text run in the same box just before or after: the link sits inside a paragraph's words.
        let run = |m: Option<&usize>| m.is_some_and(|&m| blocks[m].parent == blocks[k].parent && blocks[m].rect == boxes[own(m)].rect);
        if run(n.checked_sub(1).and_then(|p| main.get(p))) || run(main.get(end)) {
            continue;
        }
        // The nearest box around the line that holds more than it.
        let mut ctx = Some(own(k));
        while let Some(c) = ctx.filter(|&c| held[c] <= r.len()) {
            ctx = parent(c);
        }
        // An entry of a list or a table (a result, a reference) belongs to it.
        let listed = |c: usize| {
            let mut at = Some(own(k));
            while let Some(i) = at {
                if ENTRIES.contains(&boxes[i].tag.as_str()) {
                    return true;
                }
                at = parent(i).filter(|_| i != c);
            }
            false
        };
        if ctx.is_some_and(|c| paragraphs[c].0 < n && paragraphs[c].1 >= end && paragraphs[c].0 != usize::MAX && !listed(c)) {
            out.extend(main[r.clone()].iter().map(|&k| (k, Insert::LinkLine)));
        }
    }
    out.sort_unstable_by_key(|&(k, _)| k);
    out.dedup_by_key(|&mut (k, _)| k);
    out
}

/// One line that is only links, or a label ("Main article:", "READ MORE:") and links; not a
/// sentence (ending in a full stop or a colon, it says something or introduces what follows).
fn is_link_line(blocks: &[PageBlock], shown: &[Shown], line: &[usize]) -> bool {
    if line.iter().any(|&k| shown[k].lines > 1 || shown[k].chars > LINE as usize) {
        return false;
    }
    let of = || line.iter().map(|&k| &blocks[k]);
    if of().any(|b| b.links == 0 && b.chars > LABEL) || of().any(|b| b.text.is_none() || b.heading > 0 || !b.heads.is_empty()) {
        return false;
    }
    let chars: u32 = of().map(|b| b.chars).sum();
    let link_chars: u32 = of().map(|b| b.link_chars.min(b.chars)).sum();
    let links: u32 = of().map(|b| b.links).sum();
    if links == 0 || link_chars < 3 || chars > LINE || chars - link_chars > LABEL {
        return false;
    }
    // The words before the first link: none, or a label ending in a colon.
    let Some(first) = of().flat_map(|b| b.labels.iter()).map(|l| l.trim()).find(|l| !l.is_empty()) else { return false };
    let mut label = String::new();
    for t in of().filter_map(|b| b.text.as_deref()) {
        match t.find(first) {
            Some(at) => {
                label.push_str(&t[..at]);
                break;
            }
            None => label.push_str(t),
        }
    }
    let label = label.trim();
    let end = of().filter_map(|b| b.text.as_deref()).map(str::trim_end).rfind(|t| !t.is_empty()).unwrap_or("");
    // Between and after the links, no more than separators.
    let loose = (chars - link_chars).saturating_sub(label.chars().count() as u32);
    !end.ends_with(['.', ':', ';', '!', '?']) && (label.is_empty() || label.ends_with(':')) && loose <= 2 * links
}

/// A footnote mark: `[12]`.
fn is_mark(s: &str) -> bool {
    s.len() > 2 && s.len() <= 6 && s.starts_with('[') && s.ends_with(']') && s[1..s.len() - 1].bytes().all(|c| c.is_ascii_digit())
}

/// Whether the notes footnote marks point to are in the main content (a block that starts `[6] See …`).
pub fn notes_inside(blocks: &[PageBlock], main: &[usize]) -> bool {
    main.iter().any(|&k| {
        let t = blocks[k].text.as_deref().unwrap_or("").trim_start();
        t.starts_with('[') && t.find(']').is_some_and(|e| is_mark(&t[..e + 1]))
    })
}

/// `text` without the footnote marks that are its links (`free.[3]` reads `free.`): a reader
/// skips them, when the notes they point to are not in the main content (`notes_inside`). A `[3]`
/// after a space, or one that is no link of the block (code indexing an array), stays.
pub fn without_marks<'a>(text: &'a str, links: &[String]) -> std::borrow::Cow<'a, str> {
    if !links.iter().any(|l| is_mark(l.trim())) {
        return text.into();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('[') {
        let end = rest[at..].find(']').map(|e| at + e + 1);
        let attached = rest[..at].chars().next_back().is_some_and(|c| !c.is_whitespace()) || out.chars().next_back().is_some_and(|c| !c.is_whitespace());
        match end {
            Some(end) if attached && is_mark(&rest[at..end]) && links.iter().any(|l| l.trim() == &rest[at..end]) => {
                out.push_str(&rest[..at]);
                rest = &rest[end..];
            }
            _ => {
                out.push_str(&rest[..at + 1]);
                rest = &rest[at + 1..];
            }
        }
    }
    out.push_str(rest);
    out.into()
}
