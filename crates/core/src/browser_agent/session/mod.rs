//! What a browser run stands on: the browser, the tab it works on, and what it last saw of the
//! page. It is the runtime's host; its state goes into the checkpoint's `extra` every step.

mod after;
mod frames;
mod gate;
mod loads;
mod together;
pub use together::both;

use super::browser::{Browser, DocId, FrameView, Shot};
use super::effect::Seen;
use super::marks::MAX_WIDTH;
use super::mode::{AgentMode, AgentSettings, RunKind};
use super::safety::{RunSites, SitePolicy};
use crate::agent::{Approval, ConfirmRequest, GateTarget, Host, RunState, StopSignal};
use crate::llm::Image;
use crate::protocol::page::{ElementFilter, ElementInfo, LeftOut, PageSummary};
use crate::protocol::{ContentRequest, ContentResponse};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;

/// How long a page may take to load after a navigation before the action reports it.
pub const LOAD_TIMEOUT_MS: f64 = 15_000.0;
/// Page text read for the gate's sensitive-word check.
pub(super) const GATE_TEXT: u32 = 3000;
/// Visible elements read after an action, for `new` and the screenshot's labels.
pub(super) const AFTER_LIMIT: u32 = 200;
/// A step waits until the page's DOM has not changed for this long… (20 ms
/// loses no test; ending on the first frame after the last change lost one, a page that updates
/// 15 ms after the click.)
pub(super) const QUIET_MS: u32 = 20;
/// …or this long at most (pages that animate all the time).
pub(super) const QUIET_CAP_MS: u32 = 500;
/// The wait tool ends once the page has changed and then not changed for this long: longer than
/// a step's window, so a render in two parts (a list, then its rows) is seen whole.
pub(super) const WAIT_STILL_MS: u32 = 150;
/// The mask outlives one step by this much; the worker's heartbeat renews it while the model thinks.
pub const MASK_TTL_MS: u32 = 8000;

/// One `get_elements` answer: the window of elements, every matching element counted, whether
/// more lie past the window, and what a visible-only listing left out.
pub struct Listing {
    pub elements: Vec<ElementInfo>,
    pub total: u32,
    pub truncated: bool,
    pub left_out: Option<LeftOut>,
    /// Pieces of text a person can't see, left out of names and rows.
    pub hidden_text: u32,
}

/// A run's own state, kept in the checkpoint's `extra`, so a restarted worker resumes on the right tab.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BrowserRun {
    pub window_id: i32,
    /// The tab the run works on now (switch_tab and new tabs move it).
    pub tab_id: i32,
    pub mode: AgentMode,
    pub locale: String,
    pub settings: AgentSettings,
    /// Tabs the run knows of, to notice ones an action opened.
    #[serde(default)]
    pub known_tabs: Vec<i32>,
    #[serde(default)]
    pub url: String,
    #[serde(default)]
    pub title: String,
    /// The document the run last saw (content script's `doc`), to tell a navigation happened.
    #[serde(default)]
    pub doc: String,
    /// The document the run last listed: a listing of another shows every element, none marked new.
    #[serde(default)]
    pub listed_doc: String,
    #[serde(default)]
    pub viewport_width: f64,
    #[serde(default)]
    pub kind: RunKind,
    /// Customize runs: the page's text as the guard measured it before any preview.
    #[serde(default)]
    pub baseline: Option<crate::protocol::css::ThemeQuality>,
    /// The sites the run may act on, the ones refused, and what the model read on each.
    #[serde(default)]
    pub sites: RunSites,
    /// Tabs the run has worked in or that its pages opened: the browser holds their loads to the run's sites.
    #[serde(default)]
    pub run_tabs: Vec<i32>,
}

impl BrowserRun {
    /// The run's turn limit: the user's for actions, Customize's own for customising.
    pub fn max_turns(&self) -> u32 {
        match self.kind {
            RunKind::Act => self.settings.max_turns,
            RunKind::Customize => crate::customize::DEFAULT_TURNS,
        }
    }
}

pub struct BrowserSession<'a, B> {
    pub browser: &'a B,
    pub run: RefCell<BrowserRun>,
    /// The target the last gate read, so the tool that runs next doesn't ask the page again.
    pub gated: RefCell<Option<GateTarget>>,
    /// The site the card being asked is about: approving adds it to the run, declining refuses it.
    pub crossing: RefCell<Option<String>>,
    /// What the run last listed, and the page text the gate read before this step's action.
    pub seen: RefCell<Seen>,
    /// The run and step being judged and run now, for a card the step sets off.
    pub step: RefCell<(String, u32)>,
    /// The tab's other-origin frames in the order their index ranges were given (slot 1 first).
    pub frames: RefCell<Vec<FrameView>>,
    /// Lines the model was shown that the checkpoint's journal doesn't hold yet.
    pub unjournaled: RefCell<Vec<serde_json::Value>>,
}

impl<'a, B> BrowserSession<'a, B> {
    pub fn new(browser: &'a B, run: BrowserRun) -> Self {
        BrowserSession {
            browser,
            run: RefCell::new(run),
            gated: RefCell::new(None),
            crossing: RefCell::new(None),
            seen: RefCell::default(),
            step: RefCell::default(),
            frames: RefCell::default(),
            unjournaled: RefCell::default(),
        }
    }
}

impl<B: Browser> Host for BrowserSession<'_, B> {
    fn now_ms(&self) -> f64 {
        self.browser.now_ms()
    }
    fn stop_signal(&self) -> &StopSignal {
        self.browser.stop_signal()
    }
    async fn save_checkpoint(&self, state: &RunState) {
        self.browser.save_checkpoint(state).await
    }
    fn own_state(&self) -> Option<(Option<i32>, serde_json::Value)> {
        let run = self.run.borrow();
        Some((Some(run.tab_id), serde_json::to_value(&*run).unwrap_or_default()))
    }
    async fn check_target(&self) -> Result<(), String> {
        let tab = self.tab();
        match self.browser.tabs().await {
            Ok(tabs) if tabs.iter().any(|t| t.tab_id == tab) => Ok(()),
            Ok(_) => Err("the tab was closed".into()),
            Err(e) => Err(e),
        }
    }
    async fn approval(&self, request: &ConfirmRequest) -> Option<Approval> {
        let answer = self.browser.approval(request).await;
        let crossing = self.crossing.borrow_mut().take();
        if let Some(site) = crossing {
            match &answer {
                Some(a) if a.is_for(request) => {
                    self.run.borrow_mut().sites.approve(&site);
                    // The browser lets the approved site through before the action goes there.
                    if self.guard_loads().await.is_err() {
                        return None;
                    }
                }
                None => self.run.borrow_mut().sites.refuse(&site),
                Some(_) => {}
            }
        }
        answer
    }
    fn step_started(&self, run_id: &str, step: u32) {
        *self.step.borrow_mut() = (run_id.to_string(), step);
    }
    fn observe(&self, _tool: &str, content: &str) {
        let mut run = self.run.borrow_mut();
        let url = run.url.clone();
        if let Some(added) = run.sites.record(&url, content) {
            self.unjournaled.borrow_mut().push(serde_json::to_value(added).unwrap_or_default());
        }
    }
    fn take_journal(&self) -> Vec<serde_json::Value> {
        std::mem::take(&mut *self.unjournaled.borrow_mut())
    }
}

/// Pages Dusk's content script runs on.
fn is_web(url: &str) -> bool {
    let u = url.to_ascii_lowercase();
    (u.starts_with("http://") || u.starts_with("https://") || u.starts_with("file://")) && !u.starts_with("https://chromewebstore.google.com")
}

impl<B: Browser> BrowserSession<'_, B> {
    pub fn tab(&self) -> i32 {
        self.run.borrow().tab_id
    }

    pub fn mode(&self) -> AgentMode {
        self.run.borrow().mode
    }

    /// An RPC to the run's current tab: to the frame its indices live in.
    pub async fn rpc(&self, request: ContentRequest) -> Result<ContentResponse, String> {
        self.routed_rpc(request).await
    }

    /// The URL of the page the run last saw, against which listed links are shortened.
    pub fn page_url(&self) -> String {
        self.run.borrow().url.clone()
    }

    pub fn policy(&self) -> SitePolicy {
        let run = self.run.borrow();
        run.settings.policy_for(&run.url)
    }

    pub async fn summary(&self, text_limit: u32) -> Result<PageSummary, String> {
        match self.rpc(ContentRequest::PageSummary { text_limit }).await? {
            ContentResponse::PageSummary(s) => {
                let mut run = self.run.borrow_mut();
                run.url = s.url.clone();
                run.title = s.title.clone();
                run.viewport_width = s.viewport.width;
                Ok(s)
            }
            other => Err(other.unexpected()),
        }
    }

    pub async fn elements(&self, filter: ElementFilter, visible_only: bool, offset: u32, limit: u32) -> Result<(Vec<ElementInfo>, u32), String> {
        self.listing(filter, visible_only, offset, limit).await.map(|l| (l.elements, l.total))
    }

    /// `get_elements`' whole answer; its elements are what the run saw last.
    pub async fn listing(&self, filter: ElementFilter, visible_only: bool, offset: u32, limit: u32) -> Result<Listing, String> {
        match self.rpc(ContentRequest::GetElements { filter, visible_only, limit, offset }).await? {
            ContentResponse::Elements { mut elements, mut total, truncated, left_out, hidden_text } => {
                // Other-origin frames come after the top document's first window.
                if offset == 0 {
                    let (framed, n) = self.frame_elements(filter, visible_only, limit).await;
                    elements.extend(framed);
                    total += n;
                }
                self.seen.borrow_mut().elements = elements.clone();
                let mut run = self.run.borrow_mut();
                run.listed_doc = run.doc.clone();
                Ok(Listing { elements, total, truncated, left_out, hidden_text })
            }
            other => Err(other.unexpected()),
        }
    }

    /// Shows the mask (or renews it) and outlines the element about to be used.
    pub async fn before_action(&self, index: Option<u32>) {
        let label = Some("Dusk is acting on this page…".to_string());
        let mask = self.rpc(ContentRequest::Mask { label, ttl_ms: Some(MASK_TTL_MS) });
        let outline = async {
            if let Some(index) = index {
                let _ = self.rpc(ContentRequest::Highlight { index, duration_ms: Some(900) }).await;
            }
        };
        let _ = together::both(mask, outline).await;
    }

    /// Waits until `tab` shows a document other than `previous` (any document when None) whose
    /// content script answers.
    pub async fn wait_ready(&self, tab: i32, previous: Option<&str>) -> Result<DocId, String> {
        self.wait_ready_within(tab, previous, LOAD_TIMEOUT_MS).await
    }

    pub async fn wait_ready_within(&self, tab: i32, previous: Option<&str>, timeout_ms: f64) -> Result<DocId, String> {
        let started = self.now_ms();
        let mut last_error = String::from("the page did not load");
        loop {
            let loading = match self.browser.tabs().await {
                Ok(tabs) => match tabs.iter().find(|t| t.tab_id == tab) {
                    // No content script runs there (about:blank, chrome://, the Web Store): say so now.
                    Some(t) if !t.loading && !is_web(&t.url) => {
                        let shown = if t.url.is_empty() { "a page" } else { t.url.as_str() };
                        return Err(format!("the tab shows {shown}, which Dusk can't read or act on; navigate to a web page"));
                    }
                    // The browser stopped a load to a site the run may not use: ask, then go on.
                    Some(t) if !t.loading && self.is_stopped_load(&t.url) => {
                        self.ask_stopped_load(tab, &t.url.clone()).await?;
                        true
                    }
                    Some(t) => t.loading,
                    None => return Err("the tab was closed".into()),
                },
                Err(e) => return Err(e),
            };
            if !loading {
                match self.browser.rpc(tab, ContentRequest::Ping).await {
                    Ok(ContentResponse::Pong { url, doc, .. }) if previous.is_none_or(|p| p != doc) => return Ok(DocId { url, doc }),
                    Ok(_) => {}
                    Err(e) => last_error = e,
                }
            }
            if self.now_ms() - started > timeout_ms {
                return Err(format!("the page did not become ready within {} s ({last_error})", timeout_ms / 1000.0));
            }
            self.browser.sleep(100).await;
        }
    }

    /// The document the tab shows now, if its content script answers.
    pub async fn current_doc(&self) -> Option<DocId> {
        match self.rpc(ContentRequest::Ping).await {
            Ok(ContentResponse::Pong { url, doc, .. }) => Some(DocId { url, doc }),
            _ => None,
        }
    }

    /// Moves the run to `tab` and waits for its page.
    pub async fn switch_to(&self, tab: i32) -> Result<(), String> {
        self.browser.activate(tab).await?;
        self.run.borrow_mut().tab_id = tab;
        let doc = self.wait_ready(tab, None).await?;
        let mut run = self.run.borrow_mut();
        run.doc = doc.doc;
        run.url = doc.url;
        Ok(())
    }

    /// The tab as a screenshot with index labels on `marks`, at most 1024 px wide.
    pub async fn labelled_screenshot(&self, marks: Vec<ElementInfo>) -> Result<Image, String> {
        let tab = self.tab();
        self.browser.activate(tab).await?;
        let shot = Shot { marks, viewport_width: self.run.borrow().viewport_width, max_width: MAX_WIDTH };
        self.browser.screenshot(tab, &shot).await
    }

    /// Ends the run's presence on the page, and the browser's boundary with it.
    pub async fn finish(&self) {
        let _ = self.rpc(ContentRequest::Unmask).await;
        self.browser.lift_boundary().await;
    }
}
