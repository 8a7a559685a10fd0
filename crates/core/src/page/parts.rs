//! The parts of a page outside its main content, as the outline names them: the blocks a box
//! around them holds, and the inserts taken out of the main content's text (captions, link
//! lines, forms), each kind one part.

use super::inserts::Insert;
use super::regions::Kind;
use crate::protocol::page_blocks::{PageBlock, PageBox};

/// A part of the page outside its main content: its blocks, in page order.
#[derive(Debug, Clone, PartialEq)]
pub struct Part {
    pub kind: Kind,
    /// Its aria-label or first heading.
    pub name: Option<String>,
    pub blocks: Vec<usize>,
    /// Boxes directly inside it that hold text: a thread's posts, a list's entries.
    pub items: u32,
}

/// Groups the blocks outside the main content by the box that holds them, in page order.
pub(super) fn parts(
    boxes: &[PageBox],
    blocks: &[PageBlock],
    kinds: &[Option<Kind>],
    rest: Vec<(usize, usize)>,
    parent: &dyn Fn(usize) -> Option<usize>,
) -> Vec<Part> {
    let mut out: Vec<(usize, Vec<usize>)> = Vec::new();
    for (k, root) in rest {
        match out.last_mut() {
            Some((r, ks)) if *r == root => ks.push(k),
            _ => out.push((root, vec![k])),
        }
    }
    // A part's kind: its box's, else the first region inside it.
    let kind_of = |root: usize, ks: &[usize]| {
        kinds[root].or_else(|| {
            ks.iter().find_map(|&k| {
                let mut at = Some(blocks[k].parent as usize);
                while let Some(i) = at.filter(|&i| i < boxes.len()) {
                    if i == root {
                        break;
                    }
                    if let Some(kind) = kinds[i] {
                        return Some(kind);
                    }
                    at = parent(i);
                }
                None
            })
        })
    };
    let mut merged: Vec<Part> = Vec::new();
    for (root, ks) in out {
        let kind = kind_of(root, &ks).unwrap_or(Kind::Section);
        let name = boxes[root]
            .label
            .clone()
            .filter(|l| !l.trim().is_empty())
            .or_else(|| ks.iter().find_map(|&k| if blocks[k].heading > 0 { blocks[k].text.clone() } else { blocks[k].heads.first().map(|h| h.1.clone()) }));
        let mut items: Vec<usize> = ks.iter().filter_map(|&k| child_of(blocks[k].parent as usize, root, parent)).collect();
        items.dedup();
        let part = Part { kind, name: name.map(|n| n.split_whitespace().collect::<Vec<_>>().join(" ")), blocks: ks, items: items.len() as u32 };
        // Loose lines between regions join the part before them rather than each getting a line.
        match merged.last_mut() {
            Some(prev) if kind == Kind::Section && prev.kind == Kind::Section => prev.blocks.extend(part.blocks),
            _ => merged.push(part),
        }
    }
    merged
}

/// The box directly inside `root` that holds box `i`, if `i` is below it.
pub(super) fn child_of(mut i: usize, root: usize, parent: &dyn Fn(usize) -> Option<usize>) -> Option<usize> {
    while let Some(p) = parent(i) {
        if p == root {
            return Some(i);
        }
        i = p;
    }
    None
}

/// The inserts taken out of the main content as parts, one per kind, each placed among `parts`
/// where its first block sits.
pub(super) fn insert_parts(mut out: Vec<Part>, inserts: &[(usize, Insert)]) -> Vec<Part> {
    for what in [Insert::Caption, Insert::LinkLine, Insert::Form] {
        let ks: Vec<usize> = inserts.iter().filter(|&&(_, w)| w == what).map(|&(k, _)| k).collect();
        let Some(&first) = ks.first() else { continue };
        let (kind, name) = match what {
            Insert::Caption => (Kind::Captions, None),
            Insert::LinkLine => (Kind::Related, Some("in the main content".to_string())),
            Insert::Form => (Kind::Form, None),
        };
        let at = out.iter().position(|p| p.blocks.first().is_some_and(|&k| k > first)).unwrap_or(out.len());
        out.insert(at, Part { kind, name, items: ks.len() as u32, blocks: ks });
    }
    out
}
