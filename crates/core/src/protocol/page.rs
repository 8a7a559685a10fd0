//! Types of the reading RPCs: summary, indexed elements, details, inspect, palette, query, text.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A rectangle in CSS pixels, relative to the top frame's viewport; sent as whole pixels.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Rect {
    #[serde(serialize_with = "whole_px")]
    pub x: f64,
    #[serde(serialize_with = "whole_px")]
    pub y: f64,
    #[serde(serialize_with = "whole_px")]
    pub width: f64,
    #[serde(serialize_with = "whole_px")]
    pub height: f64,
}

/// Agents need no sub-pixel precision, and integers are much cheaper to format than floats.
fn whole_px<S: serde::Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_i32(if v.is_finite() { v.round().clamp(-1e9, 1e9) as i32 } else { 0 })
}

impl Rect {
    pub fn center(&self) -> (f64, f64) {
        (self.x + self.width / 2.0, self.y + self.height / 2.0)
    }
    pub fn area(&self) -> f64 {
        self.width.max(0.0) * self.height.max(0.0)
    }
    /// The part of this rectangle inside `other`.
    pub fn intersect(&self, other: &Rect) -> Rect {
        let x = self.x.max(other.x);
        let y = self.y.max(other.y);
        let right = (self.x + self.width).min(other.x + other.width);
        let bottom = (self.y + self.height).min(other.y + other.height);
        Rect { x, y, width: (right - x).max(0.0), height: (bottom - y).max(0.0) }
    }
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Size {
    pub width: f64,
    pub height: f64,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

/// Counts of interactive things on the page, shadow roots and same-origin frames included.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ElementCounts {
    pub buttons: u32,
    pub inputs: u32,
    pub links: u32,
    pub selects: u32,
    pub images: u32,
    pub forms: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PageSummary {
    pub url: String,
    pub title: String,
    pub viewport: Size,
    pub scroll: Point,
    /// The scrollable size of the document.
    pub page: Size,
    pub counts: ElementCounts,
    /// Rendered text of the page, cut to `text_limit` characters.
    pub text: String,
    pub text_truncated: bool,
    /// The focused element, as `tag#id "text"`, if any besides body.
    pub focused: Option<String>,
    /// Pieces of text no one can see, left out of `text`.
    #[serde(default)]
    pub hidden_text: u32,
}

/// Which interactive elements `get_elements` lists.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ElementFilter {
    Button,
    Input,
    Link,
    Select,
    Image,
    #[default]
    All,
}

/// One indexed element. The index stays the same for the same element across calls.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ElementInfo {
    pub index: u32,
    pub tag: String,
    /// Visible text or accessible name, at most 50 characters.
    pub text: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none", rename = "type")]
    pub input_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placeholder: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub href: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checked: Option<bool>,
    pub visible: bool,
    pub enabled: bool,
    pub rect: Rect,
    /// First listed by this call, after an earlier listing of this page: the page added it since.
    pub new: bool,
    /// Where it lives when not in the top document: "shadow", "iframe", "cross_origin_iframe".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<String>,
    /// `text` is guessed from an icon (symbol, ligature, class or id words), not given by the page.
    #[serde(default, skip_serializing_if = "is_false")]
    pub guess: bool,
    /// The index of the nearest listed element it sits in (a row with its own click handler).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub container: Option<u32>,
    /// The text of its row or card, when its own name does not tell it apart (core's `needs_context`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub row: Option<String>,
    /// What `row` names: "dialog" for a dialog's title or message; none for a row, card or the text around it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub row_kind: Option<String>,
    /// The name's whole length in characters, when `text` was cut to fit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text_chars: Option<u32>,
    /// The value's whole length in characters, when `value` was cut to fit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value_chars: Option<u32>,
    /// An icon inside a named element, guessed as an unnamed icon's name is (`icon="stop"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icon: Option<String>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// What a visible-only listing left out: inner scroll boxes with more inside, and the page
/// beyond the viewport. Elements hidden for good (display: none, clipped) are not counted.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LeftOut {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub boxes: Vec<ScrollBoxMore>,
    #[serde(default)]
    pub page: PageMore,
}

/// An on-screen scroll box whose items past its edges were left out. `index` is the box's own
/// index, for `scroll`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ScrollBoxMore {
    pub index: u32,
    pub tag: String,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub below: u32,
    #[serde(default)]
    pub above: u32,
    #[serde(default)]
    pub right: u32,
    #[serde(default)]
    pub left: u32,
}

/// The page past the viewport: how far it scrolls each way, and how many elements lie there.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct PageMore {
    #[serde(default)]
    pub below_px: u32,
    #[serde(default)]
    pub above_px: u32,
    #[serde(default)]
    pub below: u32,
    #[serde(default)]
    pub above: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ElementDetails {
    pub index: u32,
    pub tag: String,
    pub attributes: BTreeMap<String, String>,
    /// A CSS selector that `querySelector` resolves to this element (within its document or shadow root).
    pub selector: String,
    pub xpath: String,
    pub parent_text: String,
    pub child_count: u32,
    /// The element's own text or accessible name, as `get_elements` gives it (up to 100 characters).
    #[serde(default)]
    pub text: String,
    #[serde(default)]
    pub rect: Rect,
    /// The action URL of the form the element belongs to, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub form_action: Option<String>,
    /// The resolved href of the link the element is, or is inside (where a click on it goes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
    /// Hosts from the top document down to this element's root, when it sits in frames or shadow roots.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub host_selectors: Vec<String>,
    /// A field's value, exactly as typed, up to `DETAILS_CHARS` characters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// The text a reader sees in the element, up to `DETAILS_CHARS` characters, when longer than `text`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub whole_text: Option<String>,
    /// The value's whole length in characters, when `value` was cut to `DETAILS_CHARS`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value_chars: Option<u32>,
    /// A selector of the form the element belongs to: a field and a submit button of one form share it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub form: Option<String>,
}

impl ElementDetails {
    /// A text field's whole length in characters; None for anything else.
    pub fn value_len(&self) -> Option<u32> {
        let v = self.value.as_ref()?;
        Some(self.value_chars.unwrap_or(v.chars().count() as u32))
    }
}

/// Characters of a value or text `get_element_details` gives whole.
pub const DETAILS_CHARS: usize = 4000;

/// Computed styles of one element, as `inspect` and `query_elements` report them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ElementStyle {
    pub color: String,
    pub background_color: String,
    pub font_size: String,
    pub font_weight: String,
    pub border_color: String,
    pub border_width: String,
    pub border_style: String,
    pub border_radius: String,
    pub display: String,
    pub position: String,
    pub visibility: String,
    pub opacity: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InspectedElement {
    pub selector: String,
    pub tag: String,
    pub text: String,
    pub style: ElementStyle,
    pub rect: Rect,
}

/// One colour of the palette, merged with near-identical shades.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PaletteColor {
    /// `#rrggbb` (or `#rrggbbaa`) in sRGB, clamped to gamut.
    pub hex: String,
    /// The colour as Chromium reported it, for the most common member.
    pub css: String,
    pub count: u32,
    /// Share of this group's painted area, 0..1.
    pub weight: f64,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Palette {
    pub backgrounds: Vec<PaletteColor>,
    pub text: Vec<PaletteColor>,
    pub accents: Vec<PaletteColor>,
    pub borders: Vec<PaletteColor>,
    /// How many elements were sampled.
    pub sampled: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QueryMatch {
    pub selector: String,
    pub score: f64,
    pub tag: String,
    pub text: String,
    /// Why it matched, e.g. ["role=navigation", "class~sidebar"].
    pub reasons: Vec<String>,
    pub rect: Rect,
    pub style: ElementStyle,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TextSection {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heading: Option<String>,
    /// 1–6 for h1–h6, 0 for text before the first heading.
    pub level: u8,
    pub text: String,
}

/// The top document's rendered text as the always-on script reads it (`page_text`); the worker
/// makes a `TextSnapshot` of it (core page::text).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PageText {
    pub title: String,
    /// The body's `innerText`, without the text no one can see.
    pub text: String,
    pub headings: Vec<PageHeading>,
    /// Pieces of text a person can't see (font-size 0, colour of its background, transparent,
    /// clipped to nothing), left out of `text`.
    #[serde(default)]
    pub hidden: u32,
    /// Set when the text stops at the request's `max_chars` (past it only headings' lines follow):
    /// the length of the whole body's text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub whole_chars: Option<u32>,
    /// With `blocks` asked for: the boxes and blocks of text the page is made of (then `text` is empty).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub boxes: Vec<super::page_blocks::PageBox>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub blocks: Vec<super::page_blocks::PageBlock>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PageHeading {
    /// `tagName`: `H2`, or another tag with role=heading.
    pub tag: String,
    #[serde(default)]
    pub aria_level: Option<String>,
    pub text: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TextSnapshot {
    pub title: String,
    pub sections: Vec<TextSection>,
    /// Estimated tokens of what is returned.
    pub tokens: u32,
    /// Estimated tokens of the whole readable text.
    pub total_tokens: u32,
    pub truncated: bool,
    /// One line for each part of the page outside its main content (menus, footers, sidebars).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outline: Vec<String>,
    /// The line saying how much of the main content is left and how to read it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub more: Option<String>,
    /// The page block as the chat sends it to the model.
    #[serde(default)]
    pub block: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rects_travel_as_whole_pixels() {
        let r = Rect { x: 1.4, y: -2.6, width: 10.5, height: f64::NAN };
        assert_eq!(serde_json::to_string(&r).unwrap(), r#"{"x":1,"y":-3,"width":11,"height":0}"#);
        let back: Rect = serde_json::from_str(r#"{"x":1,"y":2,"width":3,"height":4}"#).unwrap();
        assert_eq!(back.area(), 12.0);
    }
}
