//! What a dark-mode run stands on: the page (RPCs and screenshots), Instant's measurement, and
//! the best version kept so far, which is also what survives a worker restart.

use super::guard::{judge, Verdict};
use super::sanitize::sanitize;
use crate::agent::{Host, RunState, StopSignal};
use crate::dark::site::Mode;
use crate::llm::Image;
use crate::protocol::css::ThemeQuality;
use crate::protocol::dark::{DarkContentRequest, DarkContentResponse};
use crate::protocol::page::{PageSummary, Palette};
use crate::protocol::{ContentRequest, ContentResponse};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;

/// The tab a dark run works on.
#[allow(async_fn_in_trait)]
pub trait DarkPage: Host {
    async fn rpc(&self, request: ContentRequest) -> Result<ContentResponse, String>;
    /// A request to the page's dark layer (theme preview and the guard's measure).
    async fn dark_rpc(&self, request: DarkContentRequest) -> Result<DarkContentResponse, String>;
    /// The tab as the user sees it, at most 800 px wide. Err when it is not the visible tab:
    /// a run never captures another tab.
    async fn screenshot(&self) -> Result<Image, String>;
}

/// A version that passed the guard.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Kept {
    pub css: String,
    pub quality: ThemeQuality,
}

/// A run's own state, kept in the checkpoint's `extra`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DarkRunInfo {
    pub tab_id: i32,
    pub host: String,
    pub mode: Mode,
    pub model: String,
    pub instant: ThemeQuality,
    pub kept: Option<Kept>,
    /// The user asked for layout changes, so moved elements don't fail the guard.
    #[serde(default)]
    pub allow_layout: bool,
}

/// One applied version, as the guard judged it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Applied {
    pub kept: bool,
    pub reasons: Vec<String>,
    /// What the sanitiser took out.
    pub removed: Vec<String>,
    pub quality: ThemeQuality,
    pub instant_aa_share: f64,
}

pub struct DarkSession<'a, P> {
    pub page: &'a P,
    pub info: RefCell<DarkRunInfo>,
}

impl<'a, P: DarkPage> DarkSession<'a, P> {
    pub fn new(page: &'a P, info: DarkRunInfo) -> Self {
        DarkSession { page, info: RefCell::new(info) }
    }

    async fn measure(&self, request: DarkContentRequest) -> Result<ThemeQuality, String> {
        measure(self.page, request).await
    }

    /// Sanitises, applies after the instant theme, measures; a version worse than Instant is
    /// taken off again and the best kept one (or Instant) goes back on.
    pub async fn apply_version(&self, css: &str) -> Result<Applied, String> {
        let clean = sanitize(css)?;
        let quality = self.measure(DarkContentRequest::DarkThemePreview { css: clean.css.clone() }).await?;
        let (instant, allow_layout) = {
            let info = self.info.borrow();
            (info.instant.clone(), info.allow_layout)
        };
        let Verdict { kept, reasons } = judge(&quality, &instant, allow_layout);
        if kept {
            self.info.borrow_mut().kept = Some(Kept { css: clean.css.clone(), quality: quality.clone() });
        } else {
            let best = self.info.borrow().kept.as_ref().map(|k| k.css.clone()).unwrap_or_default();
            self.measure(DarkContentRequest::DarkThemePreview { css: best }).await?;
        }
        Ok(Applied { kept, reasons, removed: clean.removed, quality, instant_aa_share: instant.aa_share })
    }

    pub fn kept(&self) -> Option<Kept> {
        self.info.borrow().kept.clone()
    }
}

impl<P: DarkPage> Host for DarkSession<'_, P> {
    fn now_ms(&self) -> f64 {
        self.page.now_ms()
    }
    fn stop_signal(&self) -> &StopSignal {
        self.page.stop_signal()
    }
    /// The kept version rides in the checkpoint, so a resumed run still knows its best CSS.
    async fn save_checkpoint(&self, state: &RunState) {
        let mut state = state.clone();
        state.extra = serde_json::to_value(&*self.info.borrow()).unwrap_or_default();
        self.page.save_checkpoint(&state).await
    }
    async fn check_target(&self) -> Result<(), String> {
        self.page.check_target().await
    }
}

/// What Quick and Thorough start from: Instant's measurement, the page, its colours, a picture.
#[derive(Debug, Clone)]
pub struct DarkContext {
    pub instant: ThemeQuality,
    pub summary: PageSummary,
    pub palette: Palette,
    pub screenshot: Option<Image>,
    /// Why there is no screenshot, when there is none.
    pub screenshot_note: Option<String>,
}

/// The guard's measure after `request` (a theme preview or a plain measure).
pub async fn measure(page: &impl DarkPage, request: DarkContentRequest) -> Result<ThemeQuality, String> {
    match page.dark_rpc(request).await? {
        DarkContentResponse::ThemeQuality(q) => Ok(q),
        other => Err(other.unexpected()),
    }
}

/// Reads the page under Instant: records the guard's baseline, then summary, palette, screenshot.
pub async fn gather(page: &impl DarkPage, vision: bool) -> Result<DarkContext, String> {
    let instant = measure(page, DarkContentRequest::DarkThemeMeasure { baseline: true, reset: true }).await?;
    let summary = match page.rpc(ContentRequest::PageSummary { text_limit: 600 }).await? {
        ContentResponse::PageSummary(s) => s,
        other => return Err(other.unexpected()),
    };
    let palette = match page.rpc(ContentRequest::GetColorPalette).await? {
        ContentResponse::ColorPalette(p) => p,
        other => return Err(other.unexpected()),
    };
    let (screenshot, screenshot_note) = if vision {
        match page.screenshot().await {
            Ok(img) => (Some(img), None),
            Err(e) => (None, Some(e)),
        }
    } else {
        (None, Some("this model cannot view images".to_string()))
    };
    Ok(DarkContext { instant, summary, palette, screenshot, screenshot_note })
}
