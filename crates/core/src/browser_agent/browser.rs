//! What the browser agent needs from the browser, beyond the runtime's `Host`. The worker
//! implements it with chrome.* (tabs, scripting, captureVisibleTab); tests use a fake.

use crate::agent::Host;
use crate::browser_agent::safety::boundary::Boundary;
use crate::customize::SiteCustom;
use crate::llm::Image;
use crate::protocol::actions::FilePayload;
use crate::protocol::css::ThemeQuality;
use crate::protocol::page::ElementInfo;
use crate::protocol::{ContentRequest, ContentResponse};
use serde::{Deserialize, Serialize};

/// A tab of the run's window.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TabView {
    pub tab_id: i32,
    pub title: String,
    pub url: String,
    /// The tab that opened this one (a link with target=_blank, window.open).
    #[serde(default)]
    pub opener: Option<i32>,
    /// Still loading its document.
    #[serde(default)]
    pub loading: bool,
}

/// A frame of the tab whose origin differs from its parent's, so the top frame's layer can't
/// reach into it (`chrome.scripting`'s frame id and the frame's URL).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct FrameView {
    pub frame_id: i32,
    pub url: String,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Navigation {
    Url(String),
    Back,
    Forward,
    Reload,
}

/// A screenshot request: the elements to label (set-of-marks) and the output's width limit.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Shot {
    pub marks: Vec<ElementInfo>,
    /// The viewport's width in CSS pixels, to map element boxes onto the image.
    pub viewport_width: f64,
    pub max_width: u32,
}

/// A dialog the page opened (`alert`, `confirm`, `prompt`, or the leave-page question), as the
/// browser reports it: the page waits until it is answered.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PageDialog {
    pub kind: DialogKind,
    /// The page's own words.
    pub message: String,
    /// A prompt's default answer.
    #[serde(default)]
    pub default_prompt: String,
    /// The page that opened it.
    #[serde(default)]
    pub url: String,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DialogKind {
    #[default]
    Alert,
    Confirm,
    Prompt,
    Beforeunload,
}

/// How a dialog is answered: OK (accept) or Cancel, and a prompt's text.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DialogAnswer {
    pub accept: bool,
    pub prompt_text: Option<String>,
}

/// A content script's answer to `ping`: which document is loaded.
#[derive(Debug, Clone, PartialEq)]
pub struct DocId {
    pub url: String,
    pub doc: String,
}

#[allow(async_fn_in_trait)]
pub trait Browser: Host {
    /// One content-script RPC to the tab's top frame.
    async fn rpc(&self, tab: i32, request: ContentRequest) -> Result<ContentResponse, String>;
    /// The tabs of the run's window.
    async fn tabs(&self) -> Result<Vec<TabView>, String>;
    /// Starts `nav` in `tab`; the session waits for the new document itself.
    async fn navigate(&self, tab: i32, nav: &Navigation) -> Result<(), String>;
    /// Opens `url` in a new tab of the run's window and returns its id.
    async fn open_tab(&self, url: &str) -> Result<i32, String>;
    /// Brings `tab` to the front, so it can be captured and the user sees it.
    async fn activate(&self, tab: i32) -> Result<(), String>;
    /// The visible tab, scaled to `shot.max_width`, with `shot.marks` drawn on it.
    async fn screenshot(&self, tab: i32, shot: &Shot) -> Result<Image, String>;
    /// Runs `code` in the page's own (main) world and returns its JSON-able result.
    async fn execute_js(&self, tab: i32, code: &str) -> Result<serde_json::Value, String>;
    async fn sleep(&self, ms: u32);
    /// The files the user picked on the confirmation card for `step` (empty if none).
    fn picked_files(&self, step: u32) -> Vec<FilePayload>;

    /// The tab's frames that the top frame's layer can't reach (other origins), nested ones too;
    /// other extensions' frames are left out.
    async fn frames(&self, _tab: i32) -> Result<Vec<FrameView>, String> {
        Ok(vec![])
    }
    /// One content-script RPC to one such frame, loading its layer first if needed.
    async fn frame_rpc(&self, _tab: i32, _frame_id: i32, _request: ContentRequest) -> Result<ContentResponse, String> {
        Err("this browser can't reach into frames".into())
    }
    /// Holds the run's sites where the browser acts (`safety::boundary`): from here on, a document
    /// load in the run's tabs to any other site is stopped before its request leaves.
    async fn set_boundary(&self, _boundary: &Boundary) -> Result<(), String> {
        Ok(())
    }
    /// Takes the boundary off: the run has ended.
    async fn lift_boundary(&self) {}

    /// The site's saved customisation (a new, empty one if none).
    async fn site_custom(&self, _host: &str) -> Result<SiteCustom, String> {
        Err(NO_CUSTOMIZE.into())
    }
    /// Stores `record` and applies it to the site's open pages and every later visit.
    async fn save_site_custom(&self, _record: &SiteCustom) -> Result<(), String> {
        Err(NO_CUSTOMIZE.into())
    }
    /// The guard's measure of the page's text (the dark layer's); `baseline` records it to compare with.
    async fn measure_page(&self, _tab: i32, _baseline: bool) -> Result<ThemeQuality, String> {
        Err(NO_CUSTOMIZE.into())
    }
    /// Starts reporting the page's dialogs in `tab`; false when the browser can't (its debugger
    /// is off), and a step the page holds with a dialog then ends after a while.
    async fn watch_dialogs(&self, _tab: i32) -> bool {
        false
    }
    /// The next dialog the page in `tab` opens, at once if one is open and not yet taken; never
    /// when dialogs are not watched.
    async fn dialog_opened(&self, _tab: i32) -> PageDialog {
        std::future::pending().await
    }
    /// Answers the dialog open in `tab`.
    async fn answer_dialog(&self, _tab: i32, _answer: &DialogAnswer) -> Result<(), String> {
        Err("this browser can't answer the page's dialogs".into())
    }
    /// The text the user typed on the card for `step` (a prompt's answer), once.
    fn typed_answer(&self, _step: u32) -> Option<String> {
        None
    }
    /// Saved JS can run: the user allowed user scripts for Dusk.
    async fn user_scripts_enabled(&self) -> bool {
        false
    }
}

const NO_CUSTOMIZE: &str = "this browser can't customise sites";
