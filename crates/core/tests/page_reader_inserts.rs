//! What sits inside an article's text without being its text: a picture's caption, a line that
//! is only a link, a form, footnote marks whose notes are elsewhere. The model gets the prose;
//! the outline names the rest, so nothing is dropped unsaid.

use dusk_core::page::reader::read;
use dusk_core::page::snapshot::text_snapshot;

mod page_builder;

use page_builder::{labels, prose, Page, WIDTH};

/// A menu, then a main landmark holding the headline; returns the landmark and the headline.
fn article(p: &mut Page) -> (u32, Vec<usize>) {
    let nav = p.group(0, "nav", "", 0.0, WIDTH);
    p.menu(nav, &labels(20, "Section"));
    let main = p.group(0, "main", "", 100.0, 1000.0);
    let head = p.heading(main, 1, "Harbour reopens after the storm");
    (main, vec![head])
}

fn body(p: &mut Page, parent: u32, from: usize, n: usize) -> Vec<usize> {
    (from..from + n).map(|i| p.para(parent, &prose(i, "the harbour"))).collect()
}

/// The page block up to its outline, and its outline.
fn sent(p: &Page) -> (String, Vec<String>) {
    let snap = text_snapshot(&p.page(), 4000);
    let text = snap.block.split("The rest of the page").next().unwrap_or("").to_string();
    (text, snap.outline)
}

#[test]
fn a_caption_under_a_picture_is_outlined_and_the_same_line_in_a_box_its_own_height_is_read() {
    let mut p = Page::new();
    let (main, mut want) = article(&mut p);
    want.extend(body(&mut p, main, 0, 3));
    // A figure: the caption's box is 420 px tall, the picture above the words fills it.
    let caption = p.para(main, "The ferry leaves the harbour at dawn, the first in a week");
    p.blocks[caption].rect[3] = 420.0;
    p.y += 400.0;
    want.extend(body(&mut p, main, 3, 3));
    want.push(p.para(main, "The ferry leaves the harbour at dawn, the first in a week"));
    want.extend(body(&mut p, main, 6, 2));
    assert_eq!(read(&p.boxes, &p.blocks).main, want);
    let (text, outline) = sent(&p);
    assert_eq!(text.matches("The ferry leaves the harbour at dawn").count(), 1, "{text}");
    assert!(outline.iter().any(|l| l.starts_with("[2] Captions (") && l.contains("The ferry leaves the harbour at dawn")), "{outline:?}");
}

#[test]
fn a_main_article_line_between_sections_is_outlined_and_sentences_and_lists_of_links_stay() {
    let mut p = Page::new();
    let (main, _) = article(&mut p);
    body(&mut p, main, 0, 3);
    p.heading(main, 2, "Ferries");
    // "Main article: Ferry timetable": the label and its link, two blocks on one line of a note.
    let note = p.group(main, "div", "hatnote", 100.0, 1000.0);
    let label = p.para(note, "Main article: ");
    let link = p.block(note, "Ferry timetable", &["Ferry timetable"], 0);
    p.blocks[link].rect[1] = p.blocks[label].rect[1];
    body(&mut p, main, 3, 2);
    // A link that is a whole sentence, full stop and all, says something in the text.
    let sentence = p.block(main, "Read about the winter ferry timetable.", &["Read about the winter ferry timetable"], 0);
    body(&mut p, main, 5, 2);
    let list = p.group(main, "ul", "", 100.0, 1000.0);
    let mut entries: Vec<usize> = (0..3).map(|i| p.block(list, &format!("Pier {i} notices"), &[&format!("Pier {i} notices")], 0)).collect();
    // Results: each a title and its snippet in an item of their own, one without a snippet.
    let results = p.group(main, "ol", "", 100.0, 1000.0);
    for i in 0..3 {
        let item = p.group(results, "li", "", 100.0, 1000.0);
        if i == 2 {
            entries.push(p.para(item, "12 March"));
        }
        let title = format!("Result {i}: ferry notices");
        entries.push(p.block(item, &title, &[&title], 0));
        if i != 1 {
            entries.push(p.para(item, &prose(20 + i, "the notices")));
        }
    }
    body(&mut p, main, 7, 2);
    // A link inside a paragraph's words, read as its own block between the runs of text around it.
    let para = p.group(main, "div", "", 100.0, 1000.0);
    let before = p.para(para, "The council, which met on Monday and again on Tuesday to talk the matter over, thanked");
    let named = p.block(para, "the harbour master", &["the harbour master"], 0);
    let after = p.para(para, "for keeping the ferries running through the worst of the storm, and for the reports.");
    for k in [before, after] {
        p.blocks[k].rect = p.boxes[para as usize].rect;
    }
    body(&mut p, main, 9, 2);
    let r = read(&p.boxes, &p.blocks);
    assert!(!r.main.contains(&label) && !r.main.contains(&link), "{:?}", r.main);
    for k in entries.iter().chain([&sentence, &named, &before, &after]) {
        assert!(r.main.contains(k), "block {k} stays: {:?}", p.blocks[*k].text);
    }
    let (text, outline) = sent(&p);
    assert!(!text.contains("Main article"), "{text}");
    assert!(text.contains("\n## Ferries\nParagraph 3 about"), "{text}");
    assert!(outline.iter().any(|l| l.contains("Related links \"in the main content\" (1 link") && l.contains("Main article: Ferry timetable")), "{outline:?}");
}

#[test]
fn forms_are_outlined_and_a_code_sample_with_one_switch_is_read() {
    let mut p = Page::new();
    let (main, mut want) = article(&mut p);
    want.extend(body(&mut p, main, 0, 3));
    let code = p.para(main, "const ferry = require('harbour');\nferry.sail({ at: '06:00', from: 'North pier' });");
    p.blocks[code].fields = 1;
    want.push(code);
    want.extend(body(&mut p, main, 3, 2));
    let signup = p.para(main, "Get the harbour newsletter every morning, with the tides, the ferries and the weather.\nEmail:\nTown:");
    p.blocks[signup].fields = 2;
    want.extend(body(&mut p, main, 5, 2));
    let rules =
        "Comment\nRules: comments are the readers' own opinion, not the paper's; nothing unlawful or insulting.\nName:\nEmail:\nComment:\nI accept the rules";
    let form = p.para(main, rules);
    p.blocks[form].fields = 4;
    assert_eq!(read(&p.boxes, &p.blocks).main, want);
    let (text, outline) = sent(&p);
    assert!(!text.contains("Rules: comments") && !text.contains("newsletter"), "{text}");
    assert!(outline.iter().any(|l| l.starts_with("[2] Form (") && l.contains("Get the harbour newsletter")), "{outline:?}");
    assert!(outline.iter().any(|l| l.contains("Rules: comments")), "{outline:?}");
}

#[test]
fn footnote_marks_leave_the_text_unless_their_notes_are_in_it() {
    let mut p = Page::new();
    let (main, _) = article(&mut p);
    body(&mut p, main, 0, 3);
    let cited = "The ferry first sailed in 1998.[3] It has sailed every day since,[4][5] storms apart, and v[0] stays.";
    p.block(main, cited, &["[3]", "[4]", "[5]"], 0);
    let code = p.para(main, "Index the piers from zero, as in piers[0] and piers[1], and the ferry finds them.");
    body(&mut p, main, 3, 3);
    let (text, _) = sent(&p);
    assert!(text.contains("The ferry first sailed in 1998. It has sailed every day since, storms apart, and v[0] stays."), "{text}");
    assert!(text.contains(p.blocks[code].text.as_deref().unwrap()), "{text}");
    // The notes themselves in the main content: the marks point somewhere the model can read.
    p.para(main, "[3] Harbour records, 1998, with the first timetable and the names of the crew that sailed.");
    let (text, _) = sent(&p);
    assert!(text.contains(cited), "{text}");
}

#[test]
fn markup_a_page_wrote_as_text_is_neither_read_nor_outlined() {
    let mut p = Page::new();
    let leaked = p.para(0, "<script src=\"https://static.example/fig.js\"></script>");
    let (main, _) = article(&mut p);
    body(&mut p, main, 0, 4);
    let r = read(&p.boxes, &p.blocks);
    assert!(!r.main.contains(&leaked) && r.parts.iter().all(|part| !part.blocks.contains(&leaked)), "{r:?}");
    let snap = text_snapshot(&p.page(), 4000);
    assert!(!snap.block.contains("fig.js"), "{}", snap.block);
    assert!(snap.outline[0].starts_with("[1] Navigation (20 links"), "{:?}", snap.outline);
}
