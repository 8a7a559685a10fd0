//! Finds a page's main content as a reader does, from the boxes and blocks the always-on script
//! measured: landmarks first, then prose against link text, the central column and the font size.
//! What is left (menus, sidebars, footers, related links, comments) becomes parts an outline names.

use super::inserts::{inserts, is_markup};
pub use super::parts::Part;
use super::parts::{child_of, insert_parts, parts};
pub use super::regions::{region, Kind};
use super::span::{headline, measure, prose_span, Shown};
use crate::protocol::page_blocks::{PageBlock, PageBox};

/// The page read as a reader would: the main content's blocks in page order, and the other parts.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Reading {
    pub main: Vec<usize>,
    pub parts: Vec<Part>,
}

fn is_landmark(b: &PageBox, name: &str) -> bool {
    b.tag == name || b.role.as_deref() == Some(name)
}

/// Per box: totals over the blocks inside it.
#[derive(Debug, Clone, Copy, Default)]
struct Totals {
    chars: f32,
    link_chars: f32,
    links: u32,
    prose: f32,
    /// Link text and boilerplate: what a box holds besides its content.
    junk: f32,
}

/// The main content and the parts around it.
pub fn read(boxes: &[PageBox], blocks: &[PageBlock]) -> Reading {
    if boxes.is_empty() || blocks.is_empty() {
        return Reading { main: (0..blocks.len()).collect(), parts: vec![] };
    }
    let parent = |i: usize| boxes[i].parent.map(|p| p as usize).filter(|&p| p < i);
    let all_chars: f32 = blocks.iter().map(|b| b.chars as f32).sum();
    // Box totals of every block, before a region is judged: a box holding most of the page is no sidebar.
    let mut raw = vec![0f32; boxes.len()];
    for b in blocks {
        raw[(b.parent as usize).min(boxes.len() - 1)] += b.chars as f32;
    }
    for i in (1..boxes.len()).rev() {
        if let Some(p) = parent(i) {
            raw[p] += raw[i];
        }
    }
    let kinds: Vec<Option<Kind>> = boxes.iter().map(region).collect();
    // Boilerplate (header and footer of an article are its own), and inside an article or main.
    let mut boiler = vec![false; boxes.len()];
    let mut in_article = vec![false; boxes.len()];
    for i in 0..boxes.len() {
        let b = &boxes[i];
        let (pb, pa) = parent(i).map_or((false, false), |p| (boiler[p], in_article[p]));
        let own_part = pa && matches!(b.tag.as_str(), "header" | "footer");
        boiler[i] = pb || (kinds[i].is_some_and(Kind::is_boiler) && !own_part && raw[i] < 0.5 * all_chars);
        in_article[i] = pa || is_landmark(b, "article") || is_landmark(b, "main");
    }
    let font = median_font(blocks);
    let shown: Vec<Shown> = blocks.iter().map(measure).collect();
    let mut totals = vec![Totals::default(); boxes.len()];
    for (b, &size) in blocks.iter().zip(&shown) {
        let i = (b.parent as usize).min(boxes.len() - 1);
        let t = &mut totals[i];
        t.chars += b.chars as f32;
        t.link_chars += b.link_chars.min(b.chars) as f32;
        t.links += b.links;
        t.prose += if boiler[i] { 0.0 } else { prose(b, size, font) };
        t.junk += if boiler[i] { b.chars as f32 } else { b.link_chars.min(b.chars) as f32 };
    }
    for i in (1..boxes.len()).rev() {
        if let Some(p) = parent(i) {
            let t = totals[i];
            let pt = &mut totals[p];
            pt.chars += t.chars;
            pt.link_chars += t.link_chars;
            pt.links += t.links;
            pt.prose += t.prose;
            pt.junk += t.junk;
        }
    }
    let depth: Vec<u32> = (0..boxes.len())
        .scan(Vec::new(), |d: &mut Vec<u32>, i| {
            let v = parent(i).map_or(0, |p| d[p] + 1);
            d.push(v);
            Some(v)
        })
        .collect();
    let main_box = choose(boxes, &totals, &boiler, &depth, &parent);
    let under = |mut i: usize, top: usize| loop {
        if i == top {
            return true;
        }
        match parent(i) {
            Some(p) => i = p,
            None => return false,
        }
    };
    // Inside the main box, menus, link lists and asides stay out of the content.
    let carved: Vec<usize> = (0..boxes.len())
        .filter(|&i| i != main_box && under(i, main_box))
        .filter(|&i| {
            let t = totals[i];
            // A box with a tenth of the content's prose is content beside a link list, not the list: its lists are carved instead.
            let dense = t.links >= 5 && t.link_chars >= 0.6 * t.chars && t.prose < LIST_PROSE * totals[main_box].prose;
            let small = t.chars < 0.5 * totals[main_box].chars;
            small
                && (dense
                    || kinds[i].is_some_and(|k| k.is_boiler() && !(in_article[i] && matches!(boxes[i].tag.as_str(), "header" | "footer")))
                    || kinds[i] == Some(Kind::Comments))
        })
        .collect();
    let top_carved = |i: usize| -> Option<usize> {
        let mut at = Some(i);
        let mut found = None;
        while let Some(j) = at {
            if j == main_box {
                break;
            }
            if carved.binary_search(&j).is_ok() {
                found = Some(j);
            }
            at = parent(j);
        }
        found
    };
    let mut main = Vec::new();
    // Each block not in the main content, with the box that names its part.
    let mut rest: Vec<(usize, usize)> = Vec::new();
    for (k, b) in blocks.iter().enumerate() {
        let i = (b.parent as usize).min(boxes.len() - 1);
        if is_markup(b) {
            continue;
        }
        if under(i, main_box) {
            match top_carved(i) {
                None => main.push(k),
                Some(c) => rest.push((k, c)),
            }
        } else {
            // The part is the highest box that holds no main content.
            let mut root = i;
            while let Some(p) = parent(root) {
                if under(main_box, p) {
                    break;
                }
                root = p;
            }
            rest.push((k, root));
        }
    }
    // Inside the main box, the prose runs from its first paragraph to its last; the rest joins the outline.
    // The body is the deepest box under the main box that holds nearly all its prose: teasers beside it fall outside.
    let core = body_box(boxes, main_box, &totals, &parent);
    let inside: Vec<usize> = (0..main.len()).filter(|&n| under(blocks[main[n]].parent as usize, core)).collect();
    let body = inside.first().map_or(0..main.len(), |&a| a..inside[inside.len() - 1] + 1);
    let prosy = prose_span(blocks, &shown, &main[body.clone()]);
    let span = prosy.clone().unwrap_or(0..body.len());
    let span = span.start + body.start..span.end + body.start;
    if span.len() < main.len() {
        let headline = headline(blocks, &main, span.start);
        let top = |k: usize| child_of(blocks[k].parent as usize, main_box, &parent).unwrap_or(main_box);
        for (n, &k) in main.iter().enumerate() {
            if !span.contains(&n) && Some(n) != headline {
                rest.push((k, top(k)));
            }
        }
        main = headline.map(|h| main[h]).into_iter().chain(main[span].iter().copied()).collect();
        rest.sort_unstable_by_key(|&(k, _)| k);
    }
    // Inside prose, captions, link lines and forms are not the text.
    let taken = if prosy.is_some() { inserts(boxes, blocks, &shown, &main) } else { vec![] };
    if !taken.is_empty() {
        main.retain(|k| taken.binary_search_by_key(k, |&(t, _)| t).is_err());
    }
    // The headline often sits just above the article's box.
    if !main.iter().any(|&k| blocks[k].heading == 1) {
        let first = main.first().copied().unwrap_or(blocks.len());
        if let Some(pos) = rest.iter().rposition(|&(k, root)| k < first && blocks[k].heading == 1 && !boiler[root]) {
            let (k, _) = rest.remove(pos);
            main.insert(0, k);
        }
    }
    Reading { main, parts: insert_parts(parts(boxes, blocks, &kinds, rest, &parent), &taken) }
}

/// The deepest box from `top` down whose prose is nearly all of `top`'s.
/// Not into one of several alike boxes that hold prose (a page's sections, a thread's posts:
/// the same tag and id/class, or both a `section`).
fn body_box(boxes: &[PageBox], top: usize, totals: &[Totals], parent: &dyn Fn(usize) -> Option<usize>) -> usize {
    let n = boxes.len();
    let mut best_child = vec![None::<usize>; n];
    for i in top + 1..n {
        if let Some(p) = parent(i) {
            if best_child[p].is_none_or(|c| totals[i].prose > totals[c].prose) {
                best_child[p] = Some(i);
            }
        }
    }
    let mut at = top;
    let alike = |c: usize, p: usize| {
        (p + 1..n).any(|i| {
            i != c
                && parent(i) == Some(p)
                && boxes[i].tag == boxes[c].tag
                && (boxes[i].name == boxes[c].name || matches!(boxes[c].tag.as_str(), "section" | "article"))
                && totals[i].prose > 0.0
        })
    };
    while let Some(c) = best_child[at].filter(|&c| totals[c].prose >= BODY_SHARE * totals[top].prose && totals[top].prose > 0.0 && !alike(c, at)) {
        at = c;
    }
    at
}

/// The most of the main box's prose a link-dense box inside it may hold and still be a link list.
const LIST_PROSE: f32 = 0.1;

/// The share of the main box's prose the body's box holds.
const BODY_SHARE: f32 = 0.75;

/// How much a block reads as prose: its text outside links, less for a short line or small print,
/// nothing for a block that is mostly links.
fn prose(b: &PageBlock, shown: Shown, font: f32) -> f32 {
    let chars = b.chars as f32;
    let links = b.link_chars.min(b.chars) as f32;
    if chars == 0.0 || links > 0.5 * chars {
        return 0.0;
    }
    // What a person sees of it: hidden captions and collapsed menus count for nothing, a menu
    // read as one block of short lines for little.
    let mut v = shown.chars.min(b.chars as usize) as f32 * (1.0 - links / chars);
    if shown.many_short_lines() {
        v *= 0.3;
    }
    if b.chars < 25 && b.heading == 0 {
        v *= 0.3;
    }
    if b.font > 0.0 && font > 0.0 && b.font < 0.85 * font {
        v *= 0.6;
    }
    v
}

/// The font size most of the page's text is set in.
fn median_font(blocks: &[PageBlock]) -> f32 {
    let mut sizes: Vec<(f32, u32)> = blocks.iter().filter(|b| b.font > 0.0).map(|b| (b.font, b.chars)).collect();
    sizes.sort_by(|a, b| a.0.total_cmp(&b.0));
    let half = sizes.iter().map(|s| s.1 as u64).sum::<u64>() / 2;
    let mut seen = 0u64;
    sizes
        .iter()
        .find(|s| {
            seen += s.1 as u64;
            seen > half
        })
        .map_or(16.0, |s| s.0)
}

/// The box of the main content: the `main` landmark or one article when they hold the prose, else
/// the box whose prose outweighs the other text in it most, in the central column.
fn choose(boxes: &[PageBox], totals: &[Totals], boiler: &[bool], depth: &[u32], parent: &dyn Fn(usize) -> Option<usize>) -> usize {
    let all = totals[0];
    let best_of = |pick: &dyn Fn(usize) -> bool| (0..boxes.len()).filter(|&i| pick(i)).max_by(|&a, &b| totals[a].prose.total_cmp(&totals[b].prose));
    let inside = |mut i: usize, tag: &str| {
        while let Some(p) = parent(i) {
            if is_landmark(&boxes[p], tag) {
                return true;
            }
            i = p;
        }
        false
    };
    let articles: Vec<usize> = (0..boxes.len()).filter(|&i| is_landmark(&boxes[i], "article") && !inside(i, "article")).collect();
    let one_article = |within: Option<usize>, share: f32, of: f32| {
        let here: Vec<usize> = articles.iter().copied().filter(|&a| within.is_none_or(|w| a != w && reaches(a, w, parent))).collect();
        let best = here.iter().copied().max_by(|&a, &b| totals[a].prose.total_cmp(&totals[b].prose))?;
        let others: f32 = here.iter().filter(|&&a| a != best).map(|&a| totals[a].prose).sum();
        (totals[best].prose >= share * of && others < 0.5 * totals[best].prose).then_some(best)
    };
    if all.prose >= 100.0 {
        if let Some(m) = best_of(&|i| (is_landmark(&boxes[i], "main") || boxes[i].role.as_deref() == Some("application")) && !boiler[i]) {
            if totals[m].prose >= 0.3 * all.prose {
                return one_article(Some(m), 0.7, totals[m].prose).unwrap_or(m);
            }
        }
        if let Some(a) = one_article(None, 0.4, all.prose) {
            return a;
        }
    } else if let Some(m) = best_of(&|i| is_landmark(&boxes[i], "main") || boxes[i].role.as_deref() == Some("application")) {
        // An app with little prose: its working area when it marks one.
        if totals[m].chars > 0.0 {
            return m;
        }
    }
    let width = boxes[0].rect[2].max(1.0);
    let worth = |i: usize| {
        let t = totals[i];
        // With almost no prose (an app, a form), the text that is not links counts.
        let body = if all.prose >= 100.0 { t.prose } else { t.chars - t.link_chars };
        let mut f = body - 0.5 * t.junk;
        let [x, _, w, _] = boxes[i].rect;
        let centre = (x + w / 2.0) / width;
        let penalty = |f: f32, m: f32| if f > 0.0 { f * m } else { f / m };
        if w > 0.0 && w < 0.4 * width && !(0.25..=0.75).contains(&centre) {
            f = penalty(f, 0.5);
        }
        if boiler[i] {
            f = penalty(f, 0.2);
        }
        f
    };
    let scores: Vec<f32> = (0..boxes.len()).map(worth).collect();
    let top = scores.iter().copied().fold(f32::MIN, f32::max);
    // Near-ties go to the deepest box: a wrapper adds nothing but its other text.
    (0..boxes.len()).filter(|&i| scores[i] >= top - 0.02 * top.abs()).max_by_key(|&i| depth[i]).unwrap_or(0)
}

fn reaches(mut i: usize, top: usize, parent: &dyn Fn(usize) -> Option<usize>) -> bool {
    while let Some(p) = parent(i) {
        if p == top {
            return true;
        }
        i = p;
    }
    false
}
