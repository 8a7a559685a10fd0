//! The page as the always-on script measures it for the chat: the boxes it descended into and the
//! blocks of text inside them, where each sits and how it looks. Core's page::reader decides
//! from these what the main content is (the script only measures).

use serde::{Deserialize, Serialize};

/// A box the script descended into (the body first): what kind of region it is and where.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PageBox {
    /// Index of the box holding it in `PageText::boxes`; None for the body.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<u32>,
    /// `localName`: `main`, `nav`, `div`…
    pub tag: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    /// Its id and class, lower case: names like `sidebar` or `article-body`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// `aria-label`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Left, top, width, height in page pixels.
    #[serde(default)]
    pub rect: [f32; 4],
    /// Fixed or sticky on screen: a banner, a cookie notice, a toolbar.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fixed: bool,
}

/// A run of text the script read as one piece: a box holding no further boxes, or a table row.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PageBlock {
    /// Index of its box in `PageText::boxes`.
    pub parent: u32,
    /// Its shown text (innerText without the text no one can see); None past the read's limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Characters of its text as written, trimmed.
    pub chars: u32,
    /// Characters of that text inside links, and how many links.
    #[serde(default)]
    pub link_chars: u32,
    #[serde(default)]
    pub links: u32,
    /// Its first links' text, for an outline of a menu.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub labels: Vec<String>,
    /// 1–6 when the block is a heading.
    #[serde(default)]
    pub heading: u8,
    /// The headings inside it (level, text), in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub heads: Vec<(u8, String)>,
    #[serde(default)]
    pub rect: [f32; 4],
    /// Font size in px.
    #[serde(default)]
    pub font: f32,
    /// Form fields in it a person fills in (text boxes, check boxes, selects; not hidden, not
    /// disabled, not buttons): a block with one is a form, not prose.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub fields: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}
