//! The chat's reader inside the main box: the prose runs from its first paragraph to its last,
//! what sits around it (share buttons, datelines, "most read" lists, teasers beside the body)
//! is outlined, and what sits between paragraphs (a table, a list of links) stays.

use dusk_core::page::outline;
use dusk_core::page::reader::read;
use dusk_core::page::snapshot::text_snapshot;

mod page_builder;

use page_builder::{labels, prose, Page, WIDTH};

/// A page with a menu and a main landmark holding the headline; returns the landmark and the headline.
fn article(p: &mut Page) -> (u32, Vec<usize>) {
    let nav = p.group(0, "nav", "", 0.0, WIDTH);
    p.menu(nav, &labels(20, "Section"));
    let main = p.group(0, "main", "", 100.0, 1000.0);
    let head = p.heading(main, 1, "Harbour reopens after the storm");
    (main, vec![head])
}

fn body(p: &mut Page, parent: u32, n: usize) -> Vec<usize> {
    (0..n).map(|i| p.para(parent, &prose(i, "the harbour"))).collect()
}

#[test]
fn share_buttons_and_a_dateline_before_the_first_paragraph_are_outlined_not_read() {
    let mut p = Page::new();
    let (main, mut want) = article(&mut p);
    let tools = p.group(main, "div", "tools", 100.0, 1000.0);
    p.block(tools, "Facebook X Pinterest Email", &["Facebook", "X", "Pinterest", "Email"], 0);
    p.para(tools, "FONT SIZE");
    p.para(tools, "ABCDEFG");
    p.block(tools, "Copy URL", &["Copy URL"], 0);
    let text = p.group(main, "div", "text", 100.0, 1000.0);
    want.extend(body(&mut p, text, 6));
    let r = read(&p.boxes, &p.blocks);
    assert_eq!(r.main, want, "the headline, then the paragraphs");
    let snap = text_snapshot(&p.page(), 4000);
    assert!(snap.block.starts_with("# Harbour reopens after the storm\nParagraph 0 about the harbour"), "{}", snap.block);
    assert!(snap.outline.iter().any(|l| l.contains("Facebook")), "the share buttons are outlined, not dropped: {:?}", snap.outline);
}

#[test]
fn a_most_read_list_after_the_last_paragraph_is_outlined_not_read() {
    let mut p = Page::new();
    let (main, mut want) = article(&mut p);
    want.extend(body(&mut p, main, 5));
    // No region names it: only its shape (a short line, then link after link) says what it is.
    p.para(main, "kim@example.com");
    p.para(main, "Most viewed");
    for i in 0..5 {
        let title = format!("Story {i}: the ferry timetable changes again next week");
        p.block(main, &title, &[&title], 0);
    }
    let r = read(&p.boxes, &p.blocks);
    assert_eq!(r.main, want);
    let snap = text_snapshot(&p.page(), 4000);
    assert!(!snap.block.split("The rest of the page").next().unwrap_or("").contains("Story 0"), "{}", snap.block);
    assert!(snap.outline.iter().any(|l| l.contains("Story 0")), "{:?}", snap.outline);
}

#[test]
fn a_table_and_a_list_of_links_between_paragraphs_stay_in_the_text() {
    let mut p = Page::new();
    let side = p.group(0, "div", "sidebar", 0.0, 200.0);
    p.menu(side, &labels(30, "Chapter"));
    let main = p.group(0, "div", "body", 220.0, 900.0);
    let mut want = vec![p.heading(main, 1, "Configuring the harbour service")];
    want.extend(body(&mut p, main, 3));
    for i in 0..4 {
        let l = format!("Option reference {i}");
        want.push(p.block(main, &l, &[&l], 0));
    }
    let table = p.group(main, "table", "", 220.0, 900.0);
    for i in 0..6 {
        want.push(p.para(table, &format!("option_{i} | int | {}", i * 10)));
    }
    want.extend((3..6).map(|i| p.para(main, &prose(i, "options"))));
    p.para(main, "Last updated on 3 May");
    want.push(p.blocks.len() - 1);
    assert_eq!(read(&p.boxes, &p.blocks).main, want);
}

#[test]
fn teasers_beside_the_body_with_snippets_of_their_own_are_outlined() {
    let mut p = Page::new();
    let (main, mut want) = article(&mut p);
    let text = p.group(main, "div", "story", 100.0, 1000.0);
    want.extend(body(&mut p, text, 10));
    let more = p.group(main, "div", "more", 100.0, 1000.0);
    for i in 0..3 {
        let item = p.group(more, "div", "", 100.0, 1000.0);
        let title = format!("Teaser {i}: what to know about tides");
        p.block(item, &title, &[&title], 0);
        p.para(item, "April 26, 2014 -- Updated 1358 GMT");
        p.para(item, "Here are ten facts about one of nature's most powerful forces, and what to do about them.");
    }
    let r = read(&p.boxes, &p.blocks);
    assert_eq!(r.main, want);
    assert!(r.parts.iter().any(|part| part.blocks.iter().any(|&k| p.blocks[k].text.as_deref().is_some_and(|t| t.starts_with("Teaser 0")))));
}

#[test]
fn a_menu_read_as_one_block_of_short_lines_is_not_prose() {
    let mut p = Page::new();
    let wrap = p.group(0, "div", "container", 0.0, WIDTH);
    // The edition picker and sections as one block: long, few links, but every line a word or two.
    let menu = (0..40).map(|i| format!("Section {i}")).collect::<Vec<_>>().join("\n");
    p.block(wrap, &menu, &["Sign in"], 0);
    let mut want = vec![p.heading(wrap, 1, "Harbour reopens after the storm")];
    want.extend(body(&mut p, wrap, 6));
    assert_eq!(read(&p.boxes, &p.blocks).main, want);
}

#[test]
fn the_outline_stays_within_two_hundred_tokens_and_numbers_the_parts_it_leaves_out() {
    let mut p = Page::new();
    let (main, _) = article(&mut p);
    body(&mut p, main, 4);
    for i in 0..30 {
        let side = p.group(0, "aside", "", 1100.0, 100.0);
        p.heading(side, 2, &format!("Box {i} of things to read next"));
        p.menu(side, &labels(6, &format!("Box {i} link")));
    }
    let snap = text_snapshot(&p.page(), 12_000);
    assert!(outline::tokens(&snap.outline) <= 200, "{} tokens: {:?}", outline::tokens(&snap.outline), snap.outline);
    let last = snap.outline.last().expect("an outline");
    assert!(last.contains("more parts left out") && last.ends_with(" to 31)]"), "{last}");
}

#[test]
fn text_no_one_can_see_weighs_nothing_when_the_body_is_found() {
    let mut p = Page::new();
    let wrap = p.group(0, "div", "container", 0.0, WIDTH);
    let mut want = vec![p.heading(wrap, 1, "Harbour reopens after the storm")];
    // A slideshow's captions, all but the first hidden: long as written, nothing shown.
    let gallery = p.group(wrap, "div", "gallery", 0.0, WIDTH);
    for i in 0..12 {
        let k = p.para(gallery, "");
        p.blocks[k].chars = 400 + i;
    }
    let story = p.group(wrap, "div", "story", 0.0, WIDTH);
    want.extend(body(&mut p, story, 6));
    assert_eq!(read(&p.boxes, &p.blocks).main, want);
}

#[test]
fn a_body_cut_into_rows_each_beside_a_most_popular_column_is_read_whole() {
    let mut p = Page::new();
    let (main, mut want) = article(&mut p);
    let article = p.group(main, "article", "", 0.0, WIDTH);
    for row in 0..4 {
        let wrap = p.group(article, "div", "grid", 0.0, WIDTH);
        let text = p.group(wrap, "div", "body", 160.0, 540.0);
        want.extend((0..3).map(|i| p.para(text, &prose(row * 3 + i, "the harbour"))));
        // Beside all rows but the last, the same links, longer than the row's paragraphs.
        if row < 3 {
            let column = p.group(wrap, "div", "column", 820.0, 370.0);
            p.para(column, "MOST POPULAR");
            for i in 0..5 {
                let a = format!("Story {i}: the ferry timetable changes again next week, and the council says why at length");
                let b = format!("Writer {i} and a long line of the people who reported the story with them");
                p.block(column, &format!("{a} {b}"), &[&a, &b], 0);
            }
        }
    }
    let r = read(&p.boxes, &p.blocks);
    assert_eq!(r.main, want, "the headline, then all twelve paragraphs, the columns left out");
    let snap = text_snapshot(&p.page(), 4000);
    let text = snap.block.split("The rest of the page").next().unwrap_or("");
    assert!(text.contains("Paragraph 5 about") && text.contains("Paragraph 11 about") && !text.contains("Story 0"), "{}", snap.block);
}

#[test]
fn a_bracketed_edit_link_at_a_headings_end_is_not_part_of_the_heading() {
    let mut p = Page::new();
    let (main, _) = article(&mut p);
    body(&mut p, main, 3);
    let h = p.block(main, "History[edit]", &["edit"], 2);
    p.blocks[h].font = 24.0;
    body(&mut p, main, 3);
    let snap = text_snapshot(&p.page(), 4000);
    assert!(snap.block.contains("\n## History\n"), "{}", snap.block);
    assert!(!snap.block.contains("[edit]"), "{}", snap.block);
}
