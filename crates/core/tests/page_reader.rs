//! The chat's reader: which blocks of a measured page are its main content, how the rest is
//! outlined, and how the page block keeps the answer within a budget.

use dusk_core::page::reader::{read, Kind};
use dusk_core::page::snapshot::{main_text, need, part_text, text_snapshot};
use dusk_core::page::text::estimate_tokens;

mod page_builder;

use page_builder::{labels, news, prose, Page, WIDTH};

#[test]
fn an_article_is_the_main_content_with_its_headline_and_the_rest_is_outlined() {
    let (p, article) = news(8);
    let r = read(&p.boxes, &p.blocks);
    assert_eq!(r.main, article);
    let kinds: Vec<Kind> = r.parts.iter().map(|p| p.kind).collect();
    assert_eq!(kinds, [Kind::Header, Kind::Related, Kind::Footer]);
    let snap = text_snapshot(&p.page(), 4000);
    assert!(snap.block.starts_with("# Storm closes the harbour\nParagraph 0 about the storm"), "{}", snap.block);
    assert!(snap.block.contains("[1] Header (42 links, ~"), "{}", snap.block);
    assert!(snap.block.contains("[2] Related links \"Most read\" (10 links"), "{}", snap.block);
    assert!(!snap.block.contains("## Most read"), "a heading in a link list is no section: {}", snap.block);
}

#[test]
fn a_menu_of_sixty_links_is_one_outline_line() {
    let (mut p, _) = news(3);
    let nav = p.group(0, "nav", "", 0.0, WIDTH);
    p.boxes[nav as usize].label = Some("All topics".into());
    for l in labels(60, "Topic") {
        p.block(nav, &l, &[l.as_str()], 0);
    }
    let snap = text_snapshot(&p.page(), 4000);
    let lines: Vec<&str> = snap.block.lines().filter(|l| l.contains("Topic")).collect();
    assert_eq!(lines.len(), 1, "{}", snap.block);
    assert!(
        lines[0].starts_with("[4] Navigation \"All topics\" (60 links, ~") && lines[0].contains("Topic 0, Topic 1") && lines[0].ends_with('…'),
        "{}",
        lines[0]
    );
}

#[test]
fn an_article_longer_than_the_budget_keeps_its_start_and_says_how_to_read_on() {
    let (p, _) = news(200);
    let page = p.page();
    let snap = text_snapshot(&page, 600);
    assert!(snap.tokens <= 600, "{}", snap.tokens);
    assert!(snap.block.starts_with("# Storm closes the harbour\nParagraph 0 about the storm"), "{}", snap.block);
    let more = snap.more.clone().expect("a continuation line");
    assert!(more.contains("more tokens") && more.contains("read_page_part with part 0 and from"), "{more}");
    assert!(snap.block.contains(&more));
    assert!(!snap.block.contains("Section 5\n") && !snap.block.contains("Footer link 3\n"), "no menu lines: {}", snap.block);
    assert!(snap.outline.len() >= 2 && snap.outline.iter().all(|l| estimate_tokens(l) < 30), "the outline is cut first: {:?}", snap.outline);
    // Reading on from where the block stopped gives the next paragraphs, not the start again.
    let from: usize = more.split("from ").nth(1).unwrap().split_whitespace().next().unwrap().parse().unwrap();
    let rest: String = main_text(&page).chars().skip(from * 4).take(2000).collect();
    let last = snap.sections.last().unwrap().text.lines().last().unwrap().trim_end_matches('…').to_string();
    assert!(!rest.contains("Paragraph 0 about") && rest.contains("Paragraph"), "{rest}");
    assert!(!last.is_empty());
}

#[test]
fn the_outline_gives_way_before_the_main_content() {
    let (mut p, _) = news(6);
    for i in 0..30 {
        let side = p.group(0, "aside", "", 950.0, 250.0);
        p.menu(side, &labels(8, &format!("Widget {i} link")));
    }
    let page = p.page();
    let main_tokens: u32 = read(&page.boxes, &page.blocks).main.iter().map(|&k| estimate_tokens(page.blocks[k].text.as_deref().unwrap())).sum();
    let snap = text_snapshot(&page, main_tokens + 200);
    assert!(snap.more.is_none(), "the whole article fits: {:?}", snap.more);
    assert!(snap.block.contains("Paragraph 5 about the storm"));
    let left = snap.outline.last().unwrap();
    assert!(left.contains("30 more parts left out: 30 Sidebar"), "says what was left out: {left}");
    assert!(snap.tokens <= main_tokens + 200);
}

#[test]
fn pass_two_reads_an_outlined_part_whole() {
    let (p, _) = news(3);
    let footer = part_text(&p.page(), 3).unwrap();
    assert!(footer.starts_with("[3] Footer (20 links") && footer.contains("Footer link 19\n"), "{footer}");
    assert_eq!(part_text(&p.page(), 9), None);
}

#[test]
fn a_docs_page_reads_the_content_column_not_the_sidebar() {
    let mut p = Page::new();
    let side = p.group(0, "div", "sphinxsidebar", 0.0, 250.0);
    p.heading(side, 3, "Table of contents");
    p.menu(side, &labels(80, "Function"));
    p.heading(side, 3, "This page");
    p.menu(side, &labels(5, "Show source"));
    let doc = p.group(0, "div", "document", 260.0, 900.0);
    let body = p.group(doc, "div", "body", 260.0, 900.0);
    let mut content = vec![p.heading(body, 1, "Built-in types")];
    for i in 0..5 {
        content.push(p.heading(body, 2, &format!("Type {i}")));
        content.push(p.para(body, &prose(i, "a type")));
        content.push(p.block(body, "x = int('3') # an example, with a link", &["int"], 0));
    }
    let r = read(&p.boxes, &p.blocks);
    assert_eq!(r.main, content);
    let snap = text_snapshot(&p.page(), 4000);
    assert!(snap.block.starts_with("# Built-in types\n## Type 0\nParagraph 0"), "{}", snap.block);
    assert!(!snap.block.contains("### Table of contents") && !snap.block.contains("Function 40"), "{}", snap.block);
    assert!(snap.block.contains("[1] Sidebar \"Table of contents\" (85 links"), "{}", snap.block);
}

#[test]
fn a_forum_thread_reads_every_post_in_order() {
    let mut p = Page::new();
    let nav = p.group(0, "nav", "", 0.0, WIDTH);
    p.menu(nav, &labels(15, "Forum"));
    let thread = p.group(0, "div", "thread", 100.0, 1000.0);
    let mut posts = vec![p.heading(thread, 1, "Boiler makes a clicking noise")];
    for i in 0..6 {
        let post = p.group(thread, "div", "post", 100.0, 1000.0);
        posts.push(p.block(post, &format!("user{i}"), &[&format!("user{i}")], 0));
        posts.push(p.para(post, &prose(i, "the boiler")));
    }
    assert_eq!(read(&p.boxes, &p.blocks).main, posts);
}

#[test]
fn a_search_results_page_reads_the_results() {
    let mut p = Page::new();
    let form = p.group(0, "form", "", 0.0, WIDTH);
    p.para(form, "Search");
    let filters = p.group(0, "div", "filters", 0.0, 200.0);
    p.menu(filters, &labels(12, "Filter"));
    let results = p.group(0, "div", "results", 220.0, 700.0);
    let mut main = vec![];
    for i in 0..10 {
        let r = p.group(results, "div", "result", 220.0, 700.0);
        let title = format!("Result {i}: how to fix a boiler");
        main.push(p.block(r, &title, &[&title], 0));
        main.push(p.para(r, &format!("example.com/boiler/{i} — The snippet of result {i} says what the page is about, in a sentence or two.")));
    }
    let pages = p.group(0, "div", "pagination", 220.0, 700.0);
    p.menu(pages, &labels(10, "Page"));
    let r = read(&p.boxes, &p.blocks);
    assert_eq!(r.main, main);
}

#[test]
fn a_report_reads_its_table() {
    let mut p = Page::new();
    let nav = p.group(0, "nav", "", 0.0, WIDTH);
    p.menu(nav, &labels(8, "Report"));
    let wrap = p.group(0, "div", "container", 100.0, 1000.0);
    let mut main = vec![p.heading(wrap, 1, "Quarterly sales")];
    let table = p.group(wrap, "table", "", 100.0, 1000.0);
    let tbody = p.group(table, "tbody", "", 100.0, 1000.0);
    for i in 0..30 {
        main.push(p.para(tbody, &format!("Region {i} | {} | {}", 1000 + i * 17, 20 + i)));
    }
    let footer = p.group(0, "footer", "", 0.0, WIDTH);
    p.para(footer, "Generated by the reporting tool, version 4.2, for internal use only.");
    assert_eq!(read(&p.boxes, &p.blocks).main, main);
}

#[test]
fn an_app_page_reads_its_working_area() {
    let mut p = Page::new();
    let nav = p.group(0, "nav", "", 0.0, 200.0);
    p.menu(nav, &labels(9, "Tool"));
    let work = p.group(0, "main", "", 200.0, 1000.0);
    let main = vec![p.heading(work, 1, "Invoices"), p.para(work, "Customer"), p.para(work, "Amount"), p.para(work, "Save")];
    let status = p.group(0, "div", "statusbar", 0.0, WIDTH);
    p.menu(status, &labels(3, "Help"));
    assert_eq!(read(&p.boxes, &p.blocks).main, main);
}

#[test]
fn a_list_of_links_inside_the_main_landmark_is_outlined_not_read() {
    let mut p = Page::new();
    let m = p.group(0, "main", "", 0.0, WIDTH);
    let mut main = vec![p.heading(m, 1, "Budget passes")];
    for i in 0..5 {
        main.push(p.para(m, &prose(i, "the budget")));
    }
    let more = p.group(m, "ul", "", 0.0, WIDTH);
    p.menu(more, &labels(8, "More politics"));
    let r = read(&p.boxes, &p.blocks);
    assert_eq!(r.main, main);
    assert_eq!(r.parts.len(), 1);
}

#[test]
fn a_short_page_needs_little_and_a_long_one_much() {
    let (short, _) = news(1);
    let (long, _) = news(300);
    assert!(need(&short.page()) < 600, "{}", need(&short.page()));
    assert!(need(&long.page()) > 8000, "{}", need(&long.page()));
}

#[test]
fn a_cut_main_content_names_the_headings_it_leaves_out() {
    let mut p = Page::new();
    let m = p.group(0, "main", "", 0.0, WIDTH);
    for i in 0..40 {
        p.heading(m, 2, &format!("Part {i}"));
        p.para(m, &prose(i, "a part").repeat(3));
    }
    let snap = text_snapshot(&p.page(), 800);
    let more = snap.more.clone().unwrap();
    let last: usize = snap.sections.last().unwrap().heading.as_deref().unwrap().trim_start_matches("Part ").parse().unwrap();
    assert!(more.contains(&format!("under the headings: Part {}; Part {};", last + 1, last + 2)), "{more}");
    assert!(!snap.block.contains(&format!("## Part {}", last + 1)), "not read as a section");
    assert!(snap.tokens <= 800, "{}", snap.tokens);
}
