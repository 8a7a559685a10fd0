//! What the always-on script reads for a `page_summary` (`page_facts`, extension/content.js), so
//! an agent's first look at a page needs no layer. Core's page::summary counts and cuts it.

use super::page::{Point, Size};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PageFacts {
    pub url: String,
    pub title: String,
    pub viewport: Size,
    pub scroll: Point,
    /// The scrollable size of the document.
    pub page: Size,
    /// The top document, then each same-origin frame's.
    pub documents: Vec<DocumentFacts>,
    /// Every open shadow root, in the documents and in one another.
    pub shadow_roots: Vec<ShadowFacts>,
    /// Rendered lines from the top of the page, one per line, a little past the text limit.
    pub text: String,
    /// Pieces of text no one can see (font-size 0, the colour behind it, transparent, clipped to
    /// nothing), left out of `text`.
    #[serde(default)]
    pub hidden_text: u32,
    /// The focused element (through shadow roots and same-origin frames), if any.
    #[serde(default)]
    pub focused: Option<FocusedFacts>,
    /// The page layer is already loaded in the document.
    #[serde(default)]
    pub layer: bool,
}

/// A document's collections and the few elements whose attributes change how they count.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct DocumentFacts {
    pub links: u32,
    pub images: u32,
    pub forms: u32,
    pub selects: u32,
    /// `button` and `summary` elements.
    pub buttons: u32,
    pub textareas: u32,
    /// Each `input`'s `type` attribute.
    pub input_types: Vec<Option<String>>,
    /// Editable elements (`contenteditable` but not `false`) with no role, besides inputs and textareas.
    pub editables: u32,
    /// Every element with a `role`.
    pub roles: Vec<ElementFacts>,
}

/// A shadow root has no collections: its elements matching `CANDIDATE_SELECTOR`, and its forms.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ShadowFacts {
    pub candidates: Vec<ElementFacts>,
    pub forms: u32,
}

/// The attributes that decide whether and how an element counts.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ElementFacts {
    /// `localName`.
    pub tag: String,
    #[serde(default, rename = "type")]
    pub input_type: Option<String>,
    #[serde(default)]
    pub role: Option<String>,
    #[serde(default)]
    pub tabindex: Option<String>,
    #[serde(default)]
    pub contenteditable: Option<String>,
    #[serde(default)]
    pub href: bool,
    #[serde(default)]
    pub onclick: bool,
}

/// The focused element and everything its name may come from (core page::naming::element_name).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct FocusedFacts {
    pub tag: String,
    #[serde(default)]
    pub id: String,
    #[serde(default, rename = "type")]
    pub input_type: Option<String>,
    #[serde(default)]
    pub value: Option<String>,
    /// The text of its `label[for]`, else of the label around it.
    #[serde(default)]
    pub label: Option<String>,
    #[serde(default)]
    pub aria_label: Option<String>,
    #[serde(default)]
    pub placeholder: Option<String>,
    #[serde(default)]
    pub title: Option<String>,
    /// The text of a `label` without `for` just before it.
    #[serde(default)]
    pub prev_label: Option<String>,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub alt: Option<String>,
    #[serde(default)]
    pub src: Option<String>,
    /// Its rendered text, cut.
    #[serde(default)]
    pub shown: Option<String>,
}
