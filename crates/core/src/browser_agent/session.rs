//! What a browser run stands on: the browser, the tab it works on, and what it last saw of the
//! page. It is the runtime's host; its state goes into the checkpoint's `extra` every step.

use super::browser::{Browser, DocId, Shot, TabView};
use super::context::{new_elements_text, summary_block, Changes, SUMMARY_TEXT};
use super::effect::{changes, Seen};
use super::marks::MAX_WIDTH;
use super::mode::{AgentMode, AgentSettings, RunKind};
use super::safety::{assess, Action, PageFacts, Reach, RunSites, SitePolicy, TargetFacts};
use crate::agent::{Approval, ConfirmLevel, ConfirmRequest, Gate, GateTarget, Host, RunState, StopSignal};
use crate::llm::Image;
use crate::protocol::page::{ElementFilter, ElementInfo, PageSummary};
use crate::protocol::{ContentRequest, ContentResponse};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;

/// How long a page may take to load after a navigation before the action reports it.
pub const LOAD_TIMEOUT_MS: f64 = 15_000.0;
/// Page text read for the gate's sensitive-word check.
const GATE_TEXT: u32 = 3000;
/// Visible elements read after an action, for `new` and the screenshot's labels.
const AFTER_LIMIT: u32 = 200;
/// A step waits until the page's DOM has not changed for this long…
const QUIET_MS: u32 = 30;
/// …or this long at most (pages that animate all the time).
const QUIET_CAP_MS: u32 = 500;
/// The mask outlives one step by this much; the worker's heartbeat renews it while the model thinks.
pub const MASK_TTL_MS: u32 = 8000;

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
}

impl BrowserRun {
    /// The run's turn limit: the user's for actions, seed 002's for customising.
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
}

impl<'a, B> BrowserSession<'a, B> {
    pub fn new(browser: &'a B, run: BrowserRun) -> Self {
        BrowserSession { browser, run: RefCell::new(run), gated: RefCell::new(None), crossing: RefCell::new(None), seen: RefCell::default() }
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
        let mut state = state.clone();
        let run = self.run.borrow().clone();
        state.tab_id = Some(run.tab_id);
        state.extra = serde_json::to_value(&run).unwrap_or_default();
        self.browser.save_checkpoint(&state).await
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
        if let Some(site) = self.crossing.borrow_mut().take() {
            let sites = &mut self.run.borrow_mut().sites;
            match &answer {
                Some(a) if a.is_for(request) => sites.approve(&site),
                None => sites.refuse(&site),
                Some(_) => {}
            }
        }
        answer
    }
    fn observe(&self, _tool: &str, content: &str) {
        let mut run = self.run.borrow_mut();
        let url = run.url.clone();
        run.sites.record(&url, content);
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

    /// An RPC to the run's current tab.
    pub async fn rpc(&self, request: ContentRequest) -> Result<ContentResponse, String> {
        self.browser.rpc(self.tab(), request).await
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
        match self.rpc(ContentRequest::GetElements { filter, visible_only, limit, offset }).await? {
            ContentResponse::Elements { elements, total, .. } => {
                self.seen.borrow_mut().elements = elements.clone();
                Ok((elements, total))
            }
            other => Err(other.unexpected()),
        }
    }

    /// The real target of an action, read from the page (never from the model's words).
    pub async fn target(&self, index: u32) -> Result<(TargetFacts, GateTarget), String> {
        match self.rpc(ContentRequest::GetElementDetails { indices: vec![index] }).await? {
            ContentResponse::ElementDetails { details, .. } if !details.is_empty() => {
                let d = &details[0];
                let attr = |k: &str| d.attributes.get(k).cloned();
                let hints = ["name", "id", "autocomplete", "aria-label"].iter().filter_map(|k| attr(k)).collect::<Vec<_>>().join(" ");
                let facts = TargetFacts {
                    tag: d.tag.clone(),
                    text: d.text.clone(),
                    role: attr("role"),
                    input_type: attr("type").map(|t| t.to_ascii_lowercase()),
                    field_hints: hints,
                    form_action: d.form_action.clone(),
                    link: d.link.clone(),
                };
                Ok((facts, GateTarget { index, tag: d.tag.clone(), text: d.text.clone(), rect: d.rect }))
            }
            ContentResponse::ElementDetails { .. } => Err(format!("element {index} is not on the page (stale or unknown); call get_elements")),
            other => Err(other.unexpected()),
        }
    }

    /// How sensitive `action` on `index` is: read-only calls need only the site's policy; a
    /// changing action reads its target and the page first.
    pub async fn gate(&self, action: Action, index: Option<u32>) -> Gate {
        *self.crossing.borrow_mut() = None;
        self.seen.borrow_mut().text.clear();
        if action == Action::Read {
            let a = assess(&action, None, &PageFacts { url: self.run.borrow().url.clone(), text: String::new() }, self.policy());
            return Gate::new(a.level, a.reasons);
        }
        let page = match self.summary(GATE_TEXT).await {
            Ok(s) => PageFacts { url: s.url, text: s.text },
            Err(_) => PageFacts { url: self.run.borrow().url.clone(), text: String::new() },
        };
        self.seen.borrow_mut().text = page.text.clone();
        let (facts, target) = match index {
            Some(i) => match self.target(i).await {
                Ok((f, t)) => (Some(f), Some(t)),
                Err(_) => (None, None),
            },
            None => (None, None),
        };
        let mut policy = self.policy();
        if let Action::Navigate { to_url } = &action {
            if self.run.borrow().settings.policy_for(to_url) == SitePolicy::Block {
                policy = SitePolicy::Block;
            }
        }
        *self.gated.borrow_mut() = target.clone();
        let a = assess(&action, facts.as_ref(), &page, policy);
        let reach = self.reach(&action, facts.as_ref(), &page.url);
        let (mut level, mut reasons) = (a.level, a.reasons);
        level = level.max(reach.level);
        reasons.extend(reach.reasons);
        let detail = match &action {
            Action::Type { text } => Some(text.clone()),
            Action::Navigate { to_url } | Action::SwitchTab { to_url } => Some(to_url.clone()),
            Action::Click | Action::Submit if reach.site.is_some() => {
                facts.as_ref().and_then(|f| f.destination().or(f.form_action.as_deref())).map(str::to_string)
            }
            _ => None,
        };
        let declined = reach.site.filter(|_| reach.level == ConfirmLevel::Confirm).map(|site| {
            *self.crossing.borrow_mut() = Some(site.clone());
            format!("the user declined; {site} now stays refused for the rest of this run: do not try to reach it, or send it anything, again in any form")
        });
        Gate { level, reasons, target, page: Some(page.url), detail, declined }
    }

    /// The run's sites' verdict on `action` from the page at `page_url` (safety::reach).
    fn reach(&self, action: &Action, facts: Option<&TargetFacts>, page_url: &str) -> super::safety::ReachVerdict {
        let run = self.run.borrow();
        let mut reach = Reach { page_url, changes: true, url_carries: true, ..Reach::default() };
        match action {
            Action::Navigate { to_url } => {
                reach.changes = false;
                reach.destination = Some(to_url);
            }
            Action::SwitchTab { to_url } => {
                (reach.changes, reach.url_carries) = (false, false);
                reach.destination = Some(to_url);
            }
            Action::Type { text } => reach.typed = Some(text),
            Action::Submit => reach.destination = facts.and_then(|f| f.form_action.as_deref()),
            _ => reach.destination = facts.and_then(TargetFacts::destination),
        }
        run.sites.judge(&reach, |url| run.settings.policy_for(url) == SitePolicy::Allow)
    }

    /// Shows the mask (or renews it) and outlines the element about to be used.
    pub async fn before_action(&self, index: Option<u32>) {
        let label = Some("Dusk is acting on this page…".to_string());
        let _ = self.rpc(ContentRequest::Mask { label, ttl_ms: Some(MASK_TTL_MS) }).await;
        if let Some(index) = index {
            let _ = self.rpc(ContentRequest::Highlight { index, duration_ms: Some(900) }).await;
        }
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

    /// What an action changed: a new tab it opened (the run follows it), a navigation (waited
    /// for), the new URL or title, elements that appeared, and `used` indices that are gone.
    pub async fn after_action(&self, message: String, used: &[u32]) -> (Changes, Option<Image>) {
        let mut changes = Changes { message, ..Changes::default() };
        let before = std::mem::take(&mut *self.seen.borrow_mut());
        self.settle().await;
        let (before_url, before_title, before_doc) = {
            let r = self.run.borrow();
            (r.url.clone(), r.title.clone(), r.doc.clone())
        };
        let mut now = None;
        let mut moved = false;
        if let Ok(tabs) = self.browser.tabs().await {
            let tab = self.tab();
            let known = self.run.borrow().known_tabs.clone();
            // Opened by the run's tab; Chrome may name the tab in front as the opener instead, so
            // any page-opened tab that appeared during this action counts (user-opened ones have none).
            let fresh = |t: &&TabView| !known.contains(&t.tab_id) && t.opener.is_some();
            let opened = tabs.iter().rev().filter(fresh).find(|t| t.opener == Some(tab)).or_else(|| tabs.iter().rev().find(fresh)).cloned();
            self.run.borrow_mut().known_tabs = tabs.iter().map(|t| t.tab_id).collect();
            if let Some(new_tab) = opened {
                moved = true;
                match self.switch_to(new_tab.tab_id).await {
                    Ok(()) => {
                        changes.note = Some(format!("the action opened a new tab [{}]; the run now works there", new_tab.tab_id));
                        changes.tab = Some(new_tab.clone());
                    }
                    Err(e) => changes.note = Some(format!("the action opened a new tab [{}], but {e}", new_tab.tab_id)),
                }
            } else if tabs.iter().any(|t| t.tab_id == tab && t.loading) || self.current_doc().await.is_none_or(|d| d.doc != before_doc) {
                moved = true;
                match self.wait_ready(tab, None).await {
                    Ok(doc) => self.run.borrow_mut().doc = doc.doc,
                    Err(e) => changes.note = Some(format!("the page is changing: {e}")),
                }
            }
            now = tabs.into_iter().find(|t| t.tab_id == self.tab());
        }
        // The tab's URL and title, as the browser has them once the page is ready.
        if moved {
            now = self.browser.tabs().await.ok().and_then(|tabs| tabs.into_iter().find(|t| t.tab_id == self.tab()));
        }
        if let Some(t) = now {
            if t.url != before_url {
                changes.url = Some(t.url.clone());
            }
            if t.title != before_title {
                changes.title = Some(t.title.clone());
            }
            let mut run = self.run.borrow_mut();
            run.url = t.url;
            run.title = t.title;
        }
        // A new page: the model gets its summary, as it got the first one.
        if moved || changes.url.is_some() {
            if let Ok(s) = self.summary(SUMMARY_TEXT).await {
                changes.page = Some(summary_block(&s));
            }
        }
        let listed = self.elements(ElementFilter::All, true, 0, AFTER_LIMIT).await.map(|(e, _)| e).unwrap_or_default();
        if self.mode().element_text() {
            changes.new_elements = new_elements_text(&listed);
        }
        // A changing action (the gate read the text) on a page that stayed gets what it changed.
        // After a navigation the old page's lines would be quoted (and recorded) as the new site's.
        let diff = !moved && changes.url.is_none() && !before.text.is_empty();
        // Indices seen before and not listed now may only have scrolled away: ask which are gone.
        let unlisted = before.elements.iter().map(|e| e.index).filter(|i| diff && !listed.iter().any(|e| e.index == *i));
        let mut ask: Vec<u32> = used.iter().copied().chain(unlisted).collect();
        ask.dedup();
        ask.truncate(50);
        let mut gone = Vec::new();
        if !ask.is_empty() {
            if let Ok(ContentResponse::ElementDetails { missing, .. }) = self.rpc(ContentRequest::GetElementDetails { indices: ask }).await {
                changes.stale = missing.iter().copied().filter(|i| used.contains(i)).collect();
                gone = missing;
            }
        }
        if diff {
            let text = self.summary(GATE_TEXT).await.map(|s| s.text).unwrap_or_default();
            let after = Seen { elements: listed.clone(), text };
            changes.changed = self::changes(&before, &after, &gone);
            if changes.changed.is_empty() && changes.new_elements.is_none() && changes.stale.is_empty() {
                changes.changed.push("nothing on the page changed".into());
            }
            self.seen.borrow_mut().text = after.text;
        }
        let image = if self.mode().screenshots() { self.labelled_screenshot(listed).await.ok() } else { None };
        (changes, image)
    }

    /// Lets the page react to an action (handlers, renders, a navigation starting) until its DOM
    /// is quiet, within a cap; a page that can't answer gets the old fixed pause.
    async fn settle(&self) {
        let wait = ContentRequest::WaitQuiet { quiet_ms: QUIET_MS, max_ms: QUIET_CAP_MS };
        if !matches!(self.rpc(wait).await, Ok(ContentResponse::Quiet { .. })) {
            self.browser.sleep(40).await;
        }
    }

    /// The tab as a screenshot with index labels on `marks`, at most 1024 px wide.
    pub async fn labelled_screenshot(&self, marks: Vec<ElementInfo>) -> Result<Image, String> {
        let tab = self.tab();
        self.browser.activate(tab).await?;
        let shot = Shot { marks, viewport_width: self.run.borrow().viewport_width, max_width: MAX_WIDTH };
        self.browser.screenshot(tab, &shot).await
    }

    /// Ends the run's presence on the page.
    pub async fn finish(&self) {
        let _ = self.rpc(ContentRequest::Unmask).await;
    }
}
