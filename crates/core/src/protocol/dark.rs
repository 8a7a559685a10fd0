//! Dark-mode messages. Every `type` starts with `dark_`, so the worker and content script can
//! route them before the general protocol without touching it.

use super::css::ThemeQuality;
use super::layer::Layer;
use crate::dark::adjust::Adjust;
use crate::dark::site::{Mode, Restriction};
use serde::{Deserialize, Serialize};

/// Sent by UI pages to the worker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self", rename_all = "snake_case")]
pub enum DarkRequest {
    /// The state of a tab; without an id, the active tab of the last focused window.
    DarkGetState {
        tab_id: Option<i32>,
    },
    /// Remembers dark mode on or off for the tab's site.
    DarkSetSite {
        tab_id: i32,
        on: bool,
    },
    /// Dark mode on every site without an explicit choice.
    DarkSetAuto {
        on: bool,
        tab_id: Option<i32>,
    },
    DarkSetMode {
        mode: Mode,
        tab_id: Option<i32>,
    },
    /// From a content script: the text of a cross-origin stylesheet the page won't let it read.
    DarkFetchCss {
        url: String,
    },
    /// Starts a Quick or Thorough refinement of the tab's site; the worker owns the run.
    DarkRefine {
        tab_id: i32,
        mode: Mode,
    },
    DarkStop {
        tab_id: i32,
    },
    /// The previous version of the site's refinement (from the first: Instant alone).
    DarkRevert {
        tab_id: i32,
    },
    DarkBackToInstant {
        tab_id: i32,
    },
    /// Forgets a site's own choice (options page), so auto decides for it again.
    DarkForgetSite {
        host: String,
    },
    /// Stores an adjustment: the tab's site's own (`site`), else the global one. `None` forgets
    /// the site's own (it follows the global one again), or puts the global one back to neutral.
    DarkSetAdjust {
        tab_id: Option<i32>,
        site: bool,
        adjust: Option<Adjust>,
    },
    /// From a dark page's top frame: load the dark layer into the tab's frames that lack it
    /// (cross-origin frames, which the site's registration doesn't match).
    DarkLoadFrames,
}
crate::protocol::tagged::type_tagged!(DarkRequest, "type");

impl DarkRequest {
    /// Starts, stops or reverts a site's Quick or Thorough refinement: a model run and its versions.
    pub fn is_refinement(&self) -> bool {
        matches!(self, DarkRequest::DarkRefine { .. } | DarkRequest::DarkStop { .. } | DarkRequest::DarkRevert { .. } | DarkRequest::DarkBackToInstant { .. })
    }
}

/// The worker's replies.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self", rename_all = "snake_case")]
pub enum DarkResponse {
    DarkState(Box<TabDarkState>),
    /// A cross-origin stylesheet's text, answering `dark_fetch_css`.
    DarkCss {
        url: String,
        css: String,
    },
    /// Answers `dark_load_frames`.
    FramesLoaded,
    Error {
        message: String,
    },
}
crate::protocol::tagged::type_tagged!(DarkResponse, "type");

/// The part of a `dark_css` reply a content script reads; any other reply (an error) lacks `css`.
/// Its own small type keeps the popup's state types out of the content script's build.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct FetchedCss {
    pub css: String,
}

/// What the popup shows for a tab.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TabDarkState {
    pub tab_id: Option<i32>,
    /// The site the choice is remembered under; None where extensions can't run.
    pub host: Option<String>,
    pub restriction: Option<Restriction>,
    /// Dark mode is wanted on this site (its own choice, or auto).
    pub on: bool,
    /// The site has its own remembered choice (else it follows auto).
    pub explicit: bool,
    pub auto: bool,
    pub mode: Mode,
    /// The engine actually used (Instant until Quick and Thorough exist).
    pub effective_mode: Mode,
    pub provider_configured: bool,
    /// The page's own report; None if its content script did not answer (e.g. not reloaded yet).
    pub page: Option<PageDarkStatus>,
    /// The page has a content script but its main thread did not answer in time; it follows once free.
    #[serde(default)]
    pub page_busy: bool,
    /// The tab's Quick/Thorough run, going or last finished.
    #[serde(default)]
    pub run: Option<DarkRunView>,
    /// The site's active refinement, if any, and how many versions it has.
    #[serde(default)]
    pub version: Option<VersionView>,
    #[serde(default)]
    pub versions: u32,
    /// The adjustment the site's theme uses: its own if it has one, else the global one.
    #[serde(default)]
    pub adjust: Adjust,
    /// The site has an adjustment of its own.
    #[serde(default)]
    pub adjust_own: bool,
    #[serde(default)]
    pub adjust_global: Adjust,
}

/// Where a Quick/Thorough run stands, for the popup.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DarkRunView {
    pub mode: Mode,
    pub stage: RunStage,
    /// Thorough's model turn and its budget.
    pub turn: u32,
    pub of: u32,
    /// The guard's AA share under Instant and under the newest applied version.
    pub aa_instant: Option<f64>,
    pub aa: Option<f64>,
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// None when the model has no known price.
    pub cost_usd: Option<f64>,
    /// The last thing worth saying: a revert's reason, an error, the model's summary.
    pub message: Option<String>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunStage {
    #[default]
    Analyzing,
    Generating,
    Refining,
    Done,
    Failed,
    Stopped,
}

impl RunStage {
    pub fn is_running(self) -> bool {
        matches!(self, RunStage::Analyzing | RunStage::Generating | RunStage::Refining)
    }
}

/// The active version of a site's refinement.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VersionView {
    /// 1-based.
    pub number: u32,
    pub mode: Mode,
    pub model: String,
    pub aa: f64,
    pub created_ms: f64,
}

/// The name of the port the popup keeps open to the tab's content script; it carries
/// `DarkContentRequest`s, each answered with a `DarkContentResponse`.
pub const DARK_PORT: &str = "dark";

/// Sent by the worker to a tab's content script.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self", rename_all = "snake_case")]
pub enum DarkContentRequest {
    /// Asked when the popup opens; an unthemed page also prepares its theme then, so that
    /// switching on only has to apply it.
    DarkStatus,
    /// A new choice for the page's site, applied at once, ahead of the storage change.
    DarkSwitch { on: bool },
    /// Measures the page for the dark agent's guard; `baseline` also records every text
    /// element's box and visibility, which later measures compare against.
    DarkThemeMeasure {
        #[serde(default)]
        baseline: bool,
        /// Takes any refinement off first, so the page shows Instant alone.
        #[serde(default)]
        reset: bool,
    },
    /// Puts `css` after the instant theme (empty: Instant alone), then measures.
    DarkThemePreview { css: String },
    /// The popup's live preview: the theme rebuilt with `adjust` until the stored one changes.
    DarkAdjust { adjust: Adjust },
}
crate::protocol::tagged::type_tagged!(DarkContentRequest, "type");

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self", rename_all = "snake_case")]
pub enum DarkContentResponse {
    DarkStatus(PageDarkStatus),
    ThemeQuality(ThemeQuality),
    Error {
        message: String,
    },
    /// From the always-on script: the dark layer is not in the page yet.
    LayerMissing {
        layer: Layer,
    },
}
crate::protocol::tagged::type_tagged!(DarkContentResponse, "type");

impl DarkContentResponse {
    /// The page's own error message, or a description of what came instead of the asked reply.
    pub fn unexpected(self) -> String {
        match self {
            DarkContentResponse::Error { message } => message,
            other => format!("unexpected reply from the page: {}", crate::protocol::tagged::wire_type(&other)),
        }
    }
}

/// Where dark mode stands in one page.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PagePhase {
    #[default]
    Off,
    /// Wanted; waiting for the document to be parsed before judging it.
    Pending,
    Active,
    /// Wanted, but the page is dark by itself and was left alone.
    AlreadyDark,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PageDarkStatus {
    pub host: String,
    pub phase: PagePhase,
    /// Style scopes themed: the document plus open shadow roots.
    pub scopes: u32,
    pub css_bytes: u32,
    /// Time the last refresh spent reading the page's styles, and building the theme.
    pub collect_ms: f64,
    pub build_ms: f64,
}

/// Whether a raw message belongs to the dark-mode protocol.
pub fn is_dark_message(value: &serde_json::Value) -> bool {
    value.get("type").and_then(|t| t.as_str()).is_some_and(|t| t.starts_with("dark_"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn tags_and_round_trip() {
        let r: DarkRequest = crate::protocol::from_value(json!({"type": "dark_set_site", "tab_id": 3, "on": true})).unwrap();
        assert_eq!(r, DarkRequest::DarkSetSite { tab_id: 3, on: true });
        let r: DarkRequest = crate::protocol::from_value(json!({"type": "dark_set_mode", "mode": "thorough"})).unwrap();
        assert_eq!(r, DarkRequest::DarkSetMode { mode: Mode::Thorough, tab_id: None });
        let state = DarkResponse::DarkState(Box::new(TabDarkState { restriction: Some(Restriction::WebStore), ..Default::default() }));
        let v = serde_json::to_value(&state).unwrap();
        assert_eq!((v["type"].as_str(), v["restriction"].as_str()), (Some("dark_state"), Some("web_store")));
        assert!(DarkRequest::DarkRevert { tab_id: 3 }.is_refinement() && !DarkRequest::DarkSetSite { tab_id: 3, on: true }.is_refinement());
        let r: DarkRequest = crate::protocol::from_value(json!({"type": "dark_fetch_css", "url": "https://cdn.example/a.css"})).unwrap();
        assert_eq!(r, DarkRequest::DarkFetchCss { url: "https://cdn.example/a.css".into() });
        let v = serde_json::to_value(DarkResponse::DarkCss { url: "u".into(), css: "a{}".into() }).unwrap();
        assert_eq!(v, json!({"type": "dark_css", "url": "u", "css": "a{}"}));
        assert_eq!(crate::protocol::from_value::<FetchedCss>(v).unwrap(), FetchedCss { css: "a{}".into() });
        let error = serde_json::to_value(DarkResponse::Error { message: "404".into() }).unwrap();
        assert!(crate::protocol::from_value::<FetchedCss>(error).is_err());
        assert!(is_dark_message(&json!({"type": "dark_get_state"})) && !is_dark_message(&json!({"type": "ping"})));
    }
}
