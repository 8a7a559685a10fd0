//! A fake browser (tabs, each a page of buttons, fields and links) and scripted models that read
//! only the requests they receive, shared by the browser agent's integration tests.
#![allow(dead_code)]

use super::common::block_on;
use dusk_core::agent::{Approval, ConfirmRequest, Host, RunState, StopSignal};
use dusk_core::browser_agent::{Browser, Navigation, Shot, TabView};
use dusk_core::customize::SiteCustom;
use dusk_core::llm::Image;
use dusk_core::protocol::actions::{ActionResult, FailReason, FilePayload};
use dusk_core::protocol::css::{CssApplied, ThemeQuality};
use dusk_core::protocol::page::{ElementDetails, ElementInfo, PageSummary, PageText, Rect, Size};
use dusk_core::protocol::{ContentRequest, ContentResponse};
use serde_json::{json, Value};
use std::cell::{Cell, RefCell};

// ---- a fake browser: tabs, each with a page of buttons and fields ----

#[derive(Clone)]
pub struct El {
    pub index: u32,
    pub tag: &'static str,
    pub text: String,
    pub input_type: Option<&'static str>,
    /// What clicking it does to the page.
    pub on_click: Effect,
    pub value: String,
    /// A link's resolved href.
    pub link: Option<&'static str>,
}

#[derive(Clone, PartialEq)]
pub enum Effect {
    None,
    /// Sets the page's status line.
    Status(&'static str),
    /// Removes this element and adds a new "Done" button.
    Replace,
    /// Opens the URL in a new tab, as target=_blank does.
    OpenTab(&'static str),
    /// Navigates this tab.
    Go(&'static str),
    /// Adds one to the value of the field with this index (a spinner's arrow).
    Increment(u32),
}

#[derive(Clone)]
pub struct Page {
    pub url: String,
    pub title: String,
    pub text: String,
    pub doc: u32,
    pub els: Vec<El>,
    pub status: String,
    pub listed: Vec<u32>,
}

pub fn button(index: u32, text: &str, on_click: Effect) -> El {
    El { index, tag: "button", text: text.into(), input_type: None, on_click, value: String::new(), link: None }
}

pub fn field(index: u32, text: &str, input_type: &'static str) -> El {
    El { index, tag: "input", text: text.into(), input_type: Some(input_type), on_click: Effect::None, value: String::new(), link: None }
}

pub fn page(url: &str, text: &str, els: Vec<El>) -> Page {
    Page { url: url.into(), title: url.rsplit('/').next().unwrap_or("").into(), text: text.into(), doc: 1, els, status: "idle".into(), listed: vec![] }
}

#[derive(Default)]
pub struct FakeBrowser {
    pub clock: Cell<f64>,
    pub stop: StopSignal,
    pub tabs: RefCell<Vec<(i32, Page, Option<i32>)>>,
    /// Where each URL leads, for navigations.
    pub site: RefCell<Vec<Page>>,
    pub docs: Cell<u32>,
    pub answer: Cell<Option<bool>>,
    /// Answers for the next cards, in order, before `answer`.
    pub answers: RefCell<std::collections::VecDeque<bool>>,
    pub asked: RefCell<Vec<ConfirmRequest>>,
    pub checkpoints: RefCell<Vec<RunState>>,
    pub shots: RefCell<Vec<Shot>>,
    pub scripts: RefCell<Vec<String>>,
    /// Polls left before a navigating tab finishes loading.
    pub loading: Cell<u32>,
    /// The site's saved customisation, and the CSS the page is previewing.
    pub custom: RefCell<Option<SiteCustom>>,
    pub preview: RefCell<String>,
    /// Reads the page makes fail, as a hostile or broken page can.
    pub broken: RefCell<Vec<BrokenRead>>,
}

/// A way a page can make one of the gate's reads fail.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum BrokenRead {
    /// The details RPC errs, as a trapped page layer does.
    DetailsTrap,
    /// Details come back with neither the element nor a word about it.
    DetailsNothing,
    /// Details come back with no tag.
    DetailsNoTag,
    /// The details RPC answers with something else.
    DetailsWrongAnswer,
    /// The page summary errs.
    SummaryTrap,
}

impl FakeBrowser {
    pub fn with(pages: Vec<Page>) -> Self {
        let b = FakeBrowser::default();
        b.tabs.borrow_mut().push((1, pages[0].clone(), None));
        *b.site.borrow_mut() = pages;
        b.docs.set(10);
        b
    }

    pub fn is_broken(&self, read: BrokenRead) -> bool {
        self.broken.borrow().contains(&read)
    }

    pub fn page(&self, tab: i32) -> Page {
        self.tabs.borrow().iter().find(|t| t.0 == tab).map(|t| t.1.clone()).unwrap()
    }

    pub fn with_page<T>(&self, tab: i32, f: impl FnOnce(&mut Page) -> T) -> T {
        let mut tabs = self.tabs.borrow_mut();
        f(&mut tabs.iter_mut().find(|t| t.0 == tab).unwrap().1)
    }

    pub fn load(&self, url: &str) -> Page {
        let mut p = self.site.borrow().iter().find(|p| p.url == url).cloned().unwrap_or_else(|| page(url, "Not found", vec![]));
        self.docs.set(self.docs.get() + 1);
        p.doc = self.docs.get();
        p
    }

    pub fn info(e: &El, listed: bool) -> ElementInfo {
        ElementInfo {
            index: e.index,
            tag: e.tag.into(),
            text: e.text.clone(),
            input_type: e.input_type.map(str::to_string),
            value: e.input_type.map(|_| e.value.clone()),
            visible: true,
            enabled: true,
            rect: Rect { x: 10.0 * e.index as f64, y: 20.0, width: 80.0, height: 24.0 },
            new: !listed,
            ..Default::default()
        }
    }

    pub fn act(&self, tab: i32, index: Option<u32>, f: impl FnOnce(&mut El) -> Effect) -> ContentResponse {
        let Some(index) = index else { return ContentResponse::Action(ActionResult::ok("done")) };
        let effect = self.with_page(tab, |p| match p.els.iter_mut().find(|e| e.index == index) {
            Some(e) => Ok(f(e)),
            None => Err(()),
        });
        let Ok(effect) = effect else {
            return ContentResponse::Action(ActionResult::fail(FailReason::Stale, format!("element {index} is no longer on the page")));
        };
        match effect {
            Effect::None => {}
            Effect::Status(s) => self.with_page(tab, |p| p.status = s.into()),
            Effect::Replace => self.with_page(tab, |p| {
                p.els.retain(|e| e.index != index);
                p.els.push(button(100 + index, "Done", Effect::Status("done")));
            }),
            Effect::OpenTab(url) => {
                let new = self.load(url);
                let id = self.tabs.borrow().len() as i32 + 1;
                self.tabs.borrow_mut().push((id, new, Some(tab)));
            }
            Effect::Increment(field) => self.with_page(tab, |p| {
                if let Some(f) = p.els.iter_mut().find(|e| e.index == field) {
                    f.value = (f.value.parse::<i64>().unwrap_or(0) + 1).to_string();
                }
            }),
            Effect::Go(url) => {
                let new = self.load(url);
                self.with_page(tab, |p| *p = new);
                self.loading.set(2);
            }
        }
        ContentResponse::Action(ActionResult::ok(format!("acted on {index}")))
    }
}

impl Host for FakeBrowser {
    fn now_ms(&self) -> f64 {
        self.clock.set(self.clock.get() + 1.0);
        1_700_000_000_000.0 + self.clock.get()
    }
    fn stop_signal(&self) -> &StopSignal {
        &self.stop
    }
    async fn save_checkpoint(&self, state: &RunState) {
        self.checkpoints.borrow_mut().push(state.clone());
    }
    async fn approval(&self, request: &ConfirmRequest) -> Option<Approval> {
        self.asked.borrow_mut().push(request.clone());
        let next = self.answers.borrow_mut().pop_front();
        next.or(self.answer.get()).filter(|a| *a).map(|_| Approval { run_id: request.run_id.clone(), step: request.step, digest: request.digest.clone() })
    }
}

impl Browser for FakeBrowser {
    async fn rpc(&self, tab: i32, request: ContentRequest) -> Result<ContentResponse, String> {
        if !self.tabs.borrow().iter().any(|t| t.0 == tab) {
            return Err("no such tab".into());
        }
        Ok(match request {
            ContentRequest::Ping => {
                let p = self.page(tab);
                ContentResponse::Pong { version: "t".into(), url: p.url, doc: p.doc.to_string(), layers: vec![] }
            }
            ContentRequest::PageSummary { .. } if self.is_broken(BrokenRead::SummaryTrap) => return Err("the page did not answer (unreachable)".into()),
            ContentRequest::PageSummary { text_limit } => {
                let p = self.page(tab);
                let whole = format!("{} Status: {}", p.text, p.status);
                let text: String = whole.chars().take(text_limit as usize).collect();
                ContentResponse::PageSummary(PageSummary {
                    url: p.url.clone(),
                    title: p.title.clone(),
                    viewport: Size { width: 1280.0, height: 720.0 },
                    scroll: Default::default(),
                    page: Size { width: 1280.0, height: 720.0 },
                    counts: Default::default(),
                    text_truncated: text.len() < whole.len(),
                    text,
                    focused: None,
                    hidden_text: 0,
                })
            }
            ContentRequest::PageText { .. } | ContentRequest::ScreenText { .. } => {
                let p = self.page(tab);
                ContentResponse::PageText(PageText {
                    title: p.title.clone(),
                    text: format!("{} Status: {}", p.text, p.status),
                    headings: vec![],
                    hidden: 0,
                    ..Default::default()
                })
            }
            ContentRequest::GetElements { .. } => self.with_page(tab, |p| {
                let elements: Vec<ElementInfo> = p.els.iter().map(|e| Self::info(e, p.listed.contains(&e.index))).collect();
                p.listed = p.els.iter().map(|e| e.index).collect();
                ContentResponse::Elements { total: elements.len() as u32, elements, truncated: false, left_out: None, hidden_text: 0 }
            }),
            ContentRequest::GetElementDetails { .. } if self.is_broken(BrokenRead::DetailsTrap) => {
                return Err("the page did not answer (memory access out of bounds)".into())
            }
            ContentRequest::GetElementDetails { .. } if self.is_broken(BrokenRead::DetailsNothing) => {
                ContentResponse::ElementDetails { details: vec![], missing: vec![] }
            }
            ContentRequest::GetElementDetails { .. } if self.is_broken(BrokenRead::DetailsWrongAnswer) => {
                ContentResponse::Pong { version: "x".into(), url: String::new(), doc: String::new(), layers: vec![] }
            }
            ContentRequest::GetElementDetails { indices } => {
                let no_tag = self.is_broken(BrokenRead::DetailsNoTag);
                let p = self.page(tab);
                let (mut details, mut missing) = (vec![], vec![]);
                for i in indices {
                    match p.els.iter().find(|e| e.index == i) {
                        Some(e) => details.push(ElementDetails {
                            index: i,
                            tag: if no_tag { String::new() } else { e.tag.into() },
                            attributes: e.input_type.map(|t| [("type".to_string(), t.to_string())].into()).unwrap_or_default(),
                            selector: String::new(),
                            xpath: String::new(),
                            parent_text: String::new(),
                            child_count: 0,
                            host_selectors: vec![],
                            text: e.text.clone(),
                            rect: Self::info(e, true).rect,
                            form_action: None,
                            link: e.link.map(str::to_string),
                            value: e.input_type.map(|_| e.value.clone()),
                            whole_text: None,
                            value_chars: None,
                            form: None,
                        }),
                        None => missing.push(i),
                    }
                }
                ContentResponse::ElementDetails { details, missing }
            }
            ContentRequest::Click { target, .. } => self.act(tab, target.index, |e| e.on_click.clone()),
            ContentRequest::TypeText { target, text, .. } => self.act(tab, target.index, |e| {
                e.value = text;
                Effect::None
            }),
            ContentRequest::Mask { .. } | ContentRequest::Heartbeat { .. } | ContentRequest::Unmask => ContentResponse::Mask { active: true, expires_in_ms: 1 },
            ContentRequest::Highlight { .. } => ContentResponse::Action(ActionResult::ok("highlighted")),
            ContentRequest::PreviewSiteCss { css } => {
                *self.preview.borrow_mut() = css;
                ContentResponse::CssApplied(CssApplied { id: "preview".into(), rules: 1, rejected: vec![] })
            }
            other => ContentResponse::Error { message: format!("not in the fake: {other:?}") },
        })
    }
    async fn tabs(&self) -> Result<Vec<TabView>, String> {
        let loading = self.loading.get();
        if loading > 0 {
            self.loading.set(loading - 1);
        }
        Ok(self
            .tabs
            .borrow()
            .iter()
            .map(|(id, p, opener)| TabView { tab_id: *id, title: p.title.clone(), url: p.url.clone(), opener: *opener, loading: loading > 0 })
            .collect())
    }
    async fn navigate(&self, tab: i32, nav: &Navigation) -> Result<(), String> {
        let Navigation::Url(url) = nav else { return Err("only URLs in the fake".into()) };
        let new = self.load(url);
        self.with_page(tab, |p| *p = new);
        self.loading.set(3);
        Ok(())
    }
    async fn open_tab(&self, url: &str) -> Result<i32, String> {
        let new = self.load(url);
        let id = self.tabs.borrow().len() as i32 + 1;
        self.tabs.borrow_mut().push((id, new, None));
        Ok(id)
    }
    async fn activate(&self, _tab: i32) -> Result<(), String> {
        Ok(())
    }
    async fn screenshot(&self, _tab: i32, shot: &Shot) -> Result<Image, String> {
        self.shots.borrow_mut().push(shot.clone());
        Ok(Image::new("image/jpeg", "AAAA"))
    }
    async fn execute_js(&self, tab: i32, code: &str) -> Result<Value, String> {
        self.scripts.borrow_mut().push(code.into());
        self.with_page(tab, |p| p.status = "scripted".into());
        Ok(json!(42))
    }
    async fn sleep(&self, _ms: u32) {}
    fn picked_files(&self, _step: u32) -> Vec<FilePayload> {
        vec![]
    }
    async fn site_custom(&self, host: &str) -> Result<SiteCustom, String> {
        Ok(self.custom.borrow().clone().unwrap_or_else(|| SiteCustom::new(host)))
    }
    async fn save_site_custom(&self, record: &SiteCustom) -> Result<(), String> {
        *self.custom.borrow_mut() = Some(record.clone());
        Ok(())
    }
    /// 20 text elements; CSS naming `main` hides 15 of them, anything else the banner's 2.
    async fn measure_page(&self, _tab: i32, _baseline: bool) -> Result<ThemeQuality, String> {
        let preview = self.preview.borrow();
        let hidden = if preview.is_empty() {
            0
        } else if preview.contains("main") {
            15
        } else {
            2
        };
        Ok(ThemeQuality { text_elements: 20 - hidden, aa_share: 1.0, hidden_text: hidden, hidden: vec!["main p".into()], ..Default::default() })
    }
}

mod scripted;
pub use scripted::*;
