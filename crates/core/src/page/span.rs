//! Where the prose of a main content starts and ends, the way jusText classes blocks: a long
//! paragraph with few links is prose, a block mostly of links is not, and a short line or a
//! middling one takes the side of the blocks around it. Share buttons, datelines and font-size
//! pickers before the first paragraph and "most read" lists after the last are trimmed; what sits
//! between the first and the last paragraph stays, so a table or a list inside the text is whole.

use crate::protocol::page_blocks::PageBlock;

#[derive(Debug, Clone, Copy, PartialEq)]
enum Class {
    Prose,
    Middling,
    Short,
    Links,
    /// Many short lines in one block: a menu or a picker read whole.
    Lines,
    Heading,
}

/// Shorter than this a line is short; from `PROSE` characters with few links it is a paragraph.
const SHORT: usize = 30;
const PROSE: usize = 80;
/// Characters a paragraph's lines hold on average, at the least.
const LINE: usize = 40;

/// Fields a block holds to be a form: one alone is often a switch beside a code sample.
const FORM_FIELDS: u32 = 2;

/// A form a person fills in, not prose.
pub fn is_form(b: &PageBlock) -> bool {
    b.fields >= FORM_FIELDS
}

/// What a block shows, counted once per read: its characters (its text when read, else its size
/// as written) and its lines.
#[derive(Debug, Clone, Copy)]
pub struct Shown {
    pub chars: usize,
    pub lines: usize,
}

pub fn measure(b: &PageBlock) -> Shown {
    match b.text.as_deref() {
        Some(t) => Shown { chars: t.trim().chars().count(), lines: t.lines().filter(|l| !l.trim().is_empty()).count().max(1) },
        None => Shown { chars: b.chars as usize, lines: 1 },
    }
}

impl Shown {
    /// A menu or a picker read whole: long, but every line short.
    pub fn many_short_lines(self) -> bool {
        self.chars >= PROSE && self.chars < SHORT * self.lines
    }
}

fn class(b: &PageBlock, shown: Shown) -> Class {
    if b.heading > 0 {
        return Class::Heading;
    }
    let density = b.link_chars.min(b.chars) as f32 / b.chars.max(1) as f32;
    let len = shown.chars;
    // A menu read as one block is many short lines; a paragraph is few long ones.
    let lines = shown.lines;
    // A form sides with the links: what sits around it is no more the text than it is.
    if (b.links > 0 && density > 0.5) || is_form(b) {
        Class::Links
    } else if shown.many_short_lines() {
        Class::Lines
    } else if len < SHORT {
        Class::Short
    } else if len >= PROSE && density < 0.3 && len >= LINE * lines {
        Class::Prose
    } else {
        Class::Middling
    }
}

/// The positions in `main` (block indices in page order) that are its prose span: the headline
/// (the last top-level heading before the first paragraph), then the first paragraph to the last.
/// None when paragraphs are not most of its text (a table, a form, a list of results).
pub fn prose_span(blocks: &[PageBlock], shown: &[Shown], main: &[usize]) -> Option<std::ops::Range<usize>> {
    let classes: Vec<Class> = main.iter().map(|&k| class(&blocks[k], shown[k])).collect();
    let total: usize = main.iter().map(|&k| shown[k].chars).sum();
    let prose: usize = main.iter().zip(&classes).filter(|(_, c)| **c == Class::Prose).map(|(&k, _)| shown[k].chars).sum();
    if prose * 2 < total {
        return None;
    }
    // The nearest block each side that is prose or links (short, middling lines and headings skipped).
    let decided = |c: Class| matches!(c, Class::Prose | Class::Links);
    let mut before = vec![None; main.len()];
    let mut last = None;
    for (i, &c) in classes.iter().enumerate() {
        before[i] = last;
        if decided(c) {
            last = Some(c);
        }
    }
    let mut after = vec![None; main.len()];
    last = None;
    for (i, &c) in classes.iter().enumerate().rev() {
        after[i] = last;
        if decided(c) {
            last = Some(c);
        }
    }
    let content = |i: usize| match classes[i] {
        Class::Prose => true,
        Class::Middling => before[i] == Some(Class::Prose) || after[i] == Some(Class::Prose),
        // A short line between links is their label; the page's edge sides with neither.
        Class::Short => before[i] != Some(Class::Links) && after[i] != Some(Class::Links),
        Class::Lines => before[i] == Some(Class::Prose) && after[i] == Some(Class::Prose),
        Class::Links | Class::Heading => false,
    };
    // What a block adds to the span: its text outside links when it is content, less its link
    // text; the span is the run that adds most (body text extraction as Finn et al. score it).
    let weight = |i: usize| {
        let b = &blocks[main[i]];
        let size = shown[main[i]].chars as f32;
        let links = b.link_chars.min(b.chars) as f32 * size / b.chars.max(1) as f32;
        let text = size - links;
        match classes[i] {
            Class::Heading => 0.0,
            Class::Short if content(i) => 1.0,
            _ if content(i) => text - links,
            _ => -(text.max(links)),
        }
    };
    let (mut best, mut range) = (f32::MIN, 0..0);
    let (mut sum, mut from) = (0f32, 0);
    for i in 0..main.len() {
        if sum <= 0.0 {
            sum = 0.0;
            from = i;
        }
        sum += weight(i);
        if sum > best {
            best = sum;
            range = from..i + 1;
        }
    }
    let mut start = range.start;
    // What shares the first paragraph's box is its item's too (a result's title, a post's author);
    // headings right above the start introduce it.
    let first_box = main.get(start).map(|&k| blocks[k].parent);
    while start > 0 && Some(blocks[main[start - 1]].parent) == first_box && matches!(classes[start - 1], Class::Links | Class::Short | Class::Middling) {
        start -= 1;
    }
    while start > 0 && classes[start - 1] == Class::Heading {
        start -= 1;
    }
    Some(start..range.end)
}

/// The headline kept before a span that starts after it: the last level-1 heading above `start`.
pub fn headline(blocks: &[PageBlock], main: &[usize], start: usize) -> Option<usize> {
    (0..start).rev().find(|&i| blocks[main[i]].heading == 1)
}
