use super::actions::{ActionResult, Direction, FilePayload, Modifiers, Target};
use super::css::{CssApplied, DarkModeInfo, ThemeQuality};
use super::page::{
    ElementDetails, ElementFilter, ElementInfo, InspectedElement, PageSummary, Palette, Point, QueryMatch,
    TextSnapshot,
};
use serde::{Deserialize, Serialize};

fn ten() -> u32 {
    10
}
fn summary_text_limit() -> u32 {
    2000
}
fn element_limit() -> u32 {
    300
}
fn token_budget() -> u32 {
    2000
}

/// DOM RPCs the worker sends to a tab's content script with `chrome.tabs.sendMessage`.
/// docs/protocol.md ("Content script RPCs") describes each one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ContentRequest {
    Ping,
    /// Counts the elements matching a CSS selector.
    CountElements { selector: String },

    PageSummary {
        #[serde(default = "summary_text_limit")]
        text_limit: u32,
    },
    /// Lists up to `limit` elements from `offset`, in document order; every element gets its index
    /// whatever the filter or window, so indices stay stable across calls.
    GetElements {
        #[serde(default)]
        filter: ElementFilter,
        #[serde(default)]
        visible_only: bool,
        #[serde(default = "element_limit")]
        limit: u32,
        #[serde(default)]
        offset: u32,
    },
    GetElementDetails { indices: Vec<u32> },
    Inspect {
        selector: String,
        #[serde(default = "ten")]
        limit: u32,
    },
    GetColorPalette,
    QueryElements {
        description: String,
        #[serde(default = "ten")]
        limit: u32,
    },
    TextSnapshot {
        #[serde(default = "token_budget")]
        token_budget: u32,
    },

    DetectDarkMode,
    /// Measures the page for the dark agent's guard; `baseline` also records every text
    /// element's box and visibility, which later measures compare against.
    ThemeMeasure {
        #[serde(default)]
        baseline: bool,
        /// Takes any refinement off first, so the page shows Instant alone.
        #[serde(default)]
        reset: bool,
    },
    /// Puts `css` after the instant theme (empty: Instant alone), then measures.
    ThemePreview { css: String },
    ApplyCss { css: String, id: String },
    RemoveCss { id: String },

    Click {
        #[serde(flatten)]
        target: Target,
        #[serde(default)]
        modifiers: Modifiers,
    },
    TypeText {
        #[serde(flatten)]
        target: Target,
        text: String,
        #[serde(default)]
        clear: bool,
    },
    Select {
        #[serde(flatten)]
        target: Target,
        #[serde(default)]
        value: Option<String>,
        #[serde(default)]
        text: Option<String>,
    },
    Hover {
        #[serde(flatten)]
        target: Target,
    },
    /// Scrolls the page, or the element named by the target.
    Scroll {
        #[serde(flatten)]
        target: Target,
        direction: Direction,
        /// Pixels; defaults to most of a viewport (or of the element's box).
        #[serde(default)]
        amount: Option<f64>,
    },
    /// Presses a key on the focused element, or on the target after focusing it.
    PressKey {
        #[serde(flatten)]
        target: Target,
        key: String,
        #[serde(default)]
        modifiers: Modifiers,
    },
    DragDrop { from: Point, to: Point },
    /// Sets the files of the indexed `<input type=file>` (files the user picked, never the model).
    SetFiles { index: u32, files: Vec<FilePayload> },
    /// Scrolls the page so that `y` (CSS px from the top) is at the top of the viewport.
    ScrollTo { y: f64 },

    /// Outlines an indexed element for `duration_ms` (default 1500).
    Highlight {
        index: u32,
        #[serde(default)]
        duration_ms: Option<u32>,
    },
    /// Covers the page so the user can't interfere while an agent acts; expires after `ttl_ms`
    /// (default 5000) unless renewed by `heartbeat`.
    Mask {
        #[serde(default)]
        label: Option<String>,
        #[serde(default)]
        ttl_ms: Option<u32>,
    },
    Heartbeat {
        #[serde(default)]
        ttl_ms: Option<u32>,
    },
    Unmask,
}

/// The content script's replies.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ContentResponse {
    /// `doc` tells documents apart: a navigation (or a page back from the cache) answers with another.
    Pong {
        version: String,
        url: String,
        #[serde(default)]
        doc: String,
    },
    ElementCount { selector: String, count: u32 },
    PageSummary(PageSummary),
    /// `total` counts every element the filter matched, listed or not.
    Elements { elements: Vec<ElementInfo>, total: u32, truncated: bool },
    ElementDetails { details: Vec<ElementDetails>, missing: Vec<u32> },
    Inspected { elements: Vec<InspectedElement>, total: u32 },
    ColorPalette(Palette),
    QueryResults { matches: Vec<QueryMatch> },
    TextSnapshot(TextSnapshot),
    DarkMode(DarkModeInfo),
    ThemeQuality(ThemeQuality),
    CssApplied(CssApplied),
    CssRemoved { id: String, removed: bool },
    Action(ActionResult),
    /// Mask state after mask / heartbeat / unmask.
    Mask { active: bool, expires_in_ms: u32 },
    Error { message: String },
}
