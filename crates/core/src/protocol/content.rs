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
    },
    /// Answered by the always-on script once the top document has had no DOM change for
    /// `quiet_ms`, or `max_ms` after it was asked: an action's step waits on the page, not a clock.
    WaitQuiet {
        quiet_ms: u32,
        max_ms: u32,
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
}

super::tagged::type_tagged!(ContentRequest);

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
}

impl ContentResponse {
    /// For a caller that got another reply than the one it asked for: the page's own error
    /// message, or a description of what came instead.
    pub fn unexpected(self) -> String {
        match self {
            ContentResponse::Error { message } => message,
            other => format!("unexpected reply from the page: {other:?}"),
        }
    }
}

/// Caps on what one content RPC may ask for, so no request can hang a page or blow up a reply.
pub mod caps {
    /// Elements per `get_elements` page.
    pub const ELEMENTS: u32 = 5_000;
    /// Elements named by one `click_listeners`, and steps down to each.
    pub const LISTENER_PATHS: usize = 10_000;
    pub const PATH_STEPS: usize = 1_000;
    /// Characters of page text in `page_summary`.
    pub const SUMMARY_TEXT: u32 = 20_000;
    /// Tokens of `text_snapshot`.
    pub const SNAPSHOT_TOKENS: u32 = 20_000;
    /// Characters `type_text` types (one key event each).
    pub const TYPED_CHARS: usize = 10_000;
    /// Characters of a CSS selector or a query description.
    pub const SELECTOR: usize = 4_000;
    /// Bytes of CSS in `apply_css` / `dark_theme_preview`.
    pub const CSS_BYTES: usize = 1024 * 1024;
    /// Characters of a key name in `press_key`.
    pub const KEY: usize = 64;
    /// CSS pixels a point may lie from the viewport's origin.
    pub const COORDINATE: f64 = 1_000_000.0;

    /// Err (a message for the caller) for CSS over `CSS_BYTES`.
    pub fn css_ok(css: &str) -> Result<(), String> {
        if css.len() > CSS_BYTES {
            return Err(format!("the CSS is {} KB; at most {} KB are accepted", css.len() / 1024, CSS_BYTES / 1024));
        }
        Ok(())
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

    /// The request with every limit clamped to `caps`; Err (a message for the caller) when a
    /// string is longer than its cap, which no real use needs.
    pub fn bounded(self) -> Result<ContentRequest, String> {
        use caps::*;
        let too_long = |what: &str, n: usize, cap: usize| {
            if n > cap {
                Err(format!("the {what} is {n} characters; at most {cap} are accepted"))
            } else {
                Ok(())
            }
        };
        let point_ok = |x: f64, y: f64| {
            if x.is_finite() && y.is_finite() && x.abs() <= COORDINATE && y.abs() <= COORDINATE {
                Ok(())
            } else {
                Err(format!("coordinates ({x}, {y}) are out of range"))
            }
        };
        let target_ok = |t: &Target| too_long("selector", t.selector.as_ref().map_or(0, |s| s.chars().count()), SELECTOR);
        Ok(match self {
            ContentRequest::GetElements { filter, visible_only, limit, offset } => {
                ContentRequest::GetElements { filter, visible_only, limit: limit.min(ELEMENTS), offset }
            }
            ContentRequest::ClickListeners { mut paths, add } => {
                paths.truncate(LISTENER_PATHS);
                paths.retain(|p| p.len() <= PATH_STEPS);
                ContentRequest::ClickListeners { paths, add }
            }
            ContentRequest::PageSummary { text_limit } => ContentRequest::PageSummary { text_limit: text_limit.min(SUMMARY_TEXT) },
            ContentRequest::TextSnapshot { token_budget } => ContentRequest::TextSnapshot { token_budget: token_budget.min(SNAPSHOT_TOKENS) },
            ContentRequest::CountElements { ref selector } | ContentRequest::Inspect { ref selector, .. } => {
                too_long("selector", selector.chars().count(), SELECTOR)?;
                self
            }
            ContentRequest::QueryElements { ref description, .. } => {
                too_long("description", description.chars().count(), SELECTOR)?;
                self
            }
            ContentRequest::TypeText { ref target, ref text, .. } => {
                target_ok(target)?;
                too_long("text to type", text.chars().count(), TYPED_CHARS)?;
                self
            }
            ContentRequest::PressKey { ref target, ref key, .. } => {
                target_ok(target)?;
                too_long("key name", key.chars().count(), KEY)?;
                self
            }
            ContentRequest::ApplyCss { ref css, .. } | ContentRequest::PreviewSiteCss { ref css } => {
                css_ok(css)?;
                self
            }
            ContentRequest::Click { ref target, .. }
            | ContentRequest::Hover { ref target }
            | ContentRequest::Select { ref target, .. }
            | ContentRequest::Scroll { ref target, .. } => {
                target_ok(target)?;
                point_ok(target.x.unwrap_or(0.0), target.y.unwrap_or(0.0))?;
                self
            }
            ContentRequest::DragDrop { from, to } => {
                point_ok(from.x, from.y)?;
                point_ok(to.x, to.y)?;
                self
            }
            other => other,
        })
    }
}

#[cfg(test)]
mod cap_tests {
    use super::*;

    #[test]
    fn limits_are_clamped_and_absurd_strings_refused() {
        let r = ContentRequest::GetElements { filter: ElementFilter::All, visible_only: false, limit: 1_000_000_000, offset: 0 }.bounded();
        assert!(matches!(r, Ok(ContentRequest::GetElements { limit: caps::ELEMENTS, .. })));
        let long = "a".repeat(1_000_000);
        let typed = ContentRequest::TypeText { target: Target::index(1), text: long.clone(), clear: false }.bounded();
        assert!(typed.unwrap_err().contains("at most 10000"));
        assert!(ContentRequest::CountElements { selector: long }.bounded().is_err());
        assert!(ContentRequest::TypeText { target: Target::index(1), text: "مرحبا 👋🏽".into(), clear: true }.bounded().is_ok());
        assert_eq!(ContentRequest::Ping.bounded(), Ok(ContentRequest::Ping));
        let paths = vec![vec![0; caps::PATH_STEPS + 1], vec![0, 1, -1, 2]];
        let Ok(ContentRequest::ClickListeners { paths, .. }) = ContentRequest::ClickListeners { paths, add: false }.bounded() else { panic!("kept") };
        assert_eq!(paths, vec![vec![0, 1, -1, 2]], "a path past the cap is dropped");
        let many = ContentRequest::ClickListeners { paths: vec![vec![0]; caps::LISTENER_PATHS + 5], add: true }.bounded();
        assert!(matches!(many, Ok(ContentRequest::ClickListeners { paths, add: true }) if paths.len() == caps::LISTENER_PATHS));
    }
}
