//! Measured pages built by hand for the reader's tests: boxes and blocks in page order.
#![allow(dead_code)]

use dusk_core::protocol::page::PageText;
use dusk_core::protocol::page_blocks::{PageBlock, PageBox};

/// A page under construction: boxes and blocks in page order, laid out top to bottom.
#[derive(Default)]
pub struct Page {
    pub boxes: Vec<PageBox>,
    pub blocks: Vec<PageBlock>,
    pub y: f32,
}

pub const WIDTH: f32 = 1200.0;

impl Page {
    pub fn new() -> Self {
        let mut p = Page::default();
        p.boxes.push(PageBox { tag: "body".into(), rect: [0.0, 0.0, WIDTH, 5000.0], ..Default::default() });
        p
    }
    /// A box inside `parent`, spanning `x`..`x + w`.
    pub fn group(&mut self, parent: u32, tag: &str, name: &str, x: f32, w: f32) -> u32 {
        self.boxes.push(PageBox { parent: Some(parent), tag: tag.into(), name: name.into(), rect: [x, self.y, w, 100.0], ..Default::default() });
        self.boxes.len() as u32 - 1
    }
    pub fn block(&mut self, parent: u32, text: &str, links: &[&str], heading: u8) -> usize {
        let [x, _, w, _] = self.boxes[parent as usize].rect;
        let link_chars = links.iter().map(|l| l.len() as u32).sum();
        self.blocks.push(PageBlock {
            parent,
            text: Some(text.into()),
            chars: text.len() as u32,
            link_chars,
            links: links.len() as u32,
            labels: links.iter().take(12).map(|l| l.to_string()).collect(),
            heading,
            heads: vec![],
            rect: [x, self.y, w, 20.0],
            font: if heading > 0 { 28.0 } else { 16.0 },
            fields: 0,
        });
        self.y += 24.0;
        self.blocks.len() - 1
    }
    pub fn para(&mut self, parent: u32, text: &str) -> usize {
        self.block(parent, text, &[], 0)
    }
    pub fn heading(&mut self, parent: u32, level: u8, text: &str) -> usize {
        self.block(parent, text, &[], level)
    }
    pub fn menu(&mut self, parent: u32, labels: &[String]) -> usize {
        let refs: Vec<&str> = labels.iter().map(String::as_str).collect();
        self.block(parent, &labels.join("\n"), &refs, 0)
    }
    pub fn page(&self) -> PageText {
        PageText { title: "T".into(), boxes: self.boxes.clone(), blocks: self.blocks.clone(), ..Default::default() }
    }
}

pub fn prose(n: usize, topic: &str) -> String {
    format!(
        "Paragraph {n} about {topic}, with enough words in it, and commas, to read as a real paragraph of prose that a person wrote for other people to read."
    )
}

pub fn labels(n: usize, what: &str) -> Vec<String> {
    (0..n).map(|i| format!("{what} {i}")).collect()
}

/// A news article: masthead and menu, the article in a plain div, a most-popular list and a footer.
pub fn news(paragraphs: usize) -> (Page, Vec<usize>) {
    let mut p = Page::new();
    let header = p.group(0, "header", "masthead", 0.0, WIDTH);
    p.menu(header, &labels(42, "Section"));
    let wrap = p.group(0, "div", "page", 0.0, WIDTH);
    let mut article = vec![p.heading(wrap, 1, "Storm closes the harbour")];
    let body = p.group(wrap, "div", "story-body", 200.0, 700.0);
    for i in 0..paragraphs {
        article.push(p.para(body, &prose(i, "the storm")));
    }
    let popular = p.group(wrap, "div", "most-popular", 950.0, 250.0);
    p.heading(popular, 2, "Most read");
    p.menu(popular, &labels(10, "Popular story"));
    let footer = p.group(0, "footer", "", 0.0, WIDTH);
    p.menu(footer, &labels(20, "Footer link"));
    (p, article)
}
