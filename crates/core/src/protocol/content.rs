use super::actions::{ActionResult, Direction, FilePayload, Modifiers, Target};
use super::css::{CssApplied, DarkModeInfo};
use super::layer::{Layer, LayerHint};
use super::page::{ElementDetails, ElementFilter, ElementInfo, InspectedElement, LeftOut, PageSummary, PageText, Palette, Point, QueryMatch, TextSnapshot};
use super::page_facts::PageFacts;
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
#[serde(remote = "Self", rename_all = "snake_case")]
pub enum ContentRequest {
    Ping,
    /// Counts the elements matching a CSS selector.
    CountElements {
        selector: String,
    },

    /// Answered by the worker from `page_facts`, with no layer in the page.
    PageSummary {
        #[serde(default = "summary_text_limit")]
        text_limit: u32,
    },
    /// The always-on script's reads for a `page_summary`: `candidates` is what counts in a shadow
    /// root, and text is read from the top of the page until past `text_limit` characters.
    PageFacts {
        candidates: String,
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
    /// Sent by the worker before `get_elements`: the elements the page gave click-like listeners,
    /// as found with the debugger (docs/architecture.md, "Listener probe"). Each path goes down
    /// from the top document: an element child's index, `listeners::SHADOW_ROOT` or `FRAME_DOCUMENT`.
    ClickListeners {
        paths: Vec<Vec<i32>>,
        /// Adds these to the elements kept (from `listener_changes`' added subtrees) instead of
        /// replacing them.
        #[serde(default)]
        add: bool,
    },
    /// Sent by the worker before a listing: what the page added since the last `click_listeners`,
    /// so the debugger looks only there, or not at all (docs/architecture.md, "Listener probe").
    ListenerChanges,
    GetElementDetails {
        indices: Vec<u32>,
    },
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
    /// Answered by the worker from `page_text`, with no layer in the page.
    TextSnapshot {
        #[serde(default = "token_budget")]
        token_budget: u32,
    },
    /// The always-on script's read of the page's text and of the elements matching `headings`.
    PageText {
        headings: String,
        /// Read about this many characters of text, then only the headings' lines after them
        /// (a snapshot's budget, so a huge page is not judged whole); None reads it all.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        max_chars: Option<u32>,
        /// Measure the page as boxes and blocks (`PageText::boxes`, `blocks`) for the chat's reader.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        blocks: bool,
        /// Answer `blocks` with the reply's JSON text: one string crosses the message as it is,
        /// where thousands of objects are converted field by field on both sides.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        as_text: bool,
    },
    /// The always-on script's read of the text on screen now (answered as `page_text`, no
    /// headings), up to about `text_limit` characters: what a scroll brought into view.
    ScreenText {
        #[serde(default)]
        text_limit: u32,
    },
    /// Answered by the always-on script once the top document has had no DOM change for
    /// `quiet_ms`, or `max_ms` after it was asked: an action's step waits on the page, not a clock.
    /// The quiet counts from the end of the action that frame last did, if one is being watched.
    /// `after_change` (the wait tool): only once some change has come and then stopped.
    WaitQuiet {
        quiet_ms: u32,
        max_ms: u32,
        #[serde(default)]
        after_change: bool,
    },

    DetectDarkMode,
    ApplyCss {
        css: String,
        id: String,
    },
    RemoveCss {
        id: String,
    },
    /// Shows `css` in place of the site's saved customisation, after the dark theme; "" ends it.
    PreviewSiteCss {
        css: String,
    },

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
        /// Where the text goes, instead of over or after the whole value.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<super::actions::TypeAt>,
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
    DragDrop {
        from: Point,
        to: Point,
    },
    /// Sets the files of the indexed `<input type=file>` (files the user picked, never the model).
    SetFiles {
        index: u32,
        files: Vec<FilePayload>,
    },
    /// Scrolls the page so that `y` (CSS px from the top) is at the top of the viewport.
    ScrollTo {
        y: f64,
    },

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
    /// Traps the page layer's engine on purpose, so the tests can check that a crash is answered
    /// and survived. Only the extension sends RPCs to a layer, and no tool makes this one.
    Trap,
}

super::tagged::type_tagged!(ContentRequest);

/// The content script's replies.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self", rename_all = "snake_case")]
pub enum ContentResponse {
    /// `doc` tells documents apart: a navigation (or a page back from the cache) answers with another.
    Pong {
        version: String,
        url: String,
        #[serde(default)]
        doc: String,
        /// The on-demand layers loaded in the frame.
        #[serde(default)]
        layers: Vec<Layer>,
    },
    ElementCount {
        selector: String,
        count: u32,
    },
    PageSummary(PageSummary),
    /// `total` counts every element the filter matched on the page, listed or not, on screen or
    /// not; `truncated`: more of the matching ones (on screen, when visible-only) past this window.
    Elements {
        elements: Vec<ElementInfo>,
        total: u32,
        truncated: bool,
        /// With visible-only: what was left out past the edges of scroll boxes and the viewport.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        left_out: Option<LeftOut>,
        /// Pieces of text a person can't see (font-size 0, colour of its background, transparent,
        /// clipped to nothing) left out of the listed names and rows.
        #[serde(default)]
        hidden_text: u32,
    },
    /// How many of `click_listeners`' paths led to an element.
    ClickListeners {
        found: u32,
    },
    ListenerChanges {
        changes: crate::page::listeners::ListenerChanges,
    },
    ElementDetails {
        details: Vec<ElementDetails>,
        missing: Vec<u32>,
    },
    Inspected {
        elements: Vec<InspectedElement>,
        total: u32,
    },
    ColorPalette(Palette),
    QueryResults {
        matches: Vec<QueryMatch>,
    },
    TextSnapshot(TextSnapshot),
    PageText(PageText),
    PageFacts(Box<PageFacts>),
    DarkMode(DarkModeInfo),
    CssApplied(CssApplied),
    CssRemoved {
        id: String,
        removed: bool,
    },
    /// `settled`: the DOM was quiet for the time asked; otherwise the wait hit its cap.
    Quiet {
        waited_ms: f64,
        settled: bool,
    },
    Action(ActionResult),
    /// Mask state after mask / heartbeat / unmask.
    Mask {
        active: bool,
        expires_in_ms: u32,
    },
    Error {
        message: String,
    },
    /// From the always-on script: the layer this message needs is not in the page yet.
    LayerMissing {
        layer: Layer,
    },
    /// From the layer's script: its engine crashed with `error` (a trap, or an exception thrown
    /// through it) and the layer stepped aside; the worker loads it afresh (protocol/crash.rs).
    LayerCrashed {
        layer: Layer,
        error: String,
    },
}
crate::protocol::tagged::type_tagged!(ContentResponse, "type");

impl ContentResponse {
    /// For a caller that got another reply than the one it asked for: the page's own error
    /// message, or a description of what came instead.
    pub fn unexpected(self) -> String {
        match self {
            ContentResponse::Error { message } => message,
            other => format!("unexpected reply from the page: {}", crate::protocol::tagged::wire_type(&other)),
        }
    }
}

impl ContentRequest {
    /// Made by the worker from the always-on script's reads (`page_text`, `page_facts`), with no layer.
    pub fn made_by_worker(&self) -> bool {
        matches!(self, ContentRequest::TextSnapshot { .. } | ContentRequest::PageSummary { .. })
    }

    /// The work of answering that the always-on script can do while the worker injects the page
    /// layer: finding every open shadow root.
    pub fn hint(&self) -> Option<LayerHint> {
        match self {
            ContentRequest::GetElements { .. } | ContentRequest::ClickListeners { .. } | ContentRequest::ListenerChanges | ContentRequest::Inspect { .. } => {
                Some(LayerHint::FindShadowRoots)
            }
            _ => None,
        }
    }
}

/// A `page_text` reply from its JSON text, read as [`super::from_str`] reads any message. The
/// measure's reply (`type` its first key, as page_blocks.js writes it) goes straight into
/// [`PageText`]: its thousands of boxes and blocks read in a third of the time without the
/// `serde_json::Value` in between (stdtypes' 162 KB: 0.8 ms natively, 2.6 through the `Value`).
pub fn page_text_reply(text: &str) -> Result<ContentResponse, serde_json::Error> {
    if text.starts_with(r#"{"type":"page_text","#) {
        return serde_json::from_str::<PageText>(&super::value_reader::well_formed_escapes(text)).map(ContentResponse::PageText);
    }
    super::from_str(text)
}
