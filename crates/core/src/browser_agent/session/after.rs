//! What an action changed: the page's reaction waited for, a new tab or document followed, new
//! and stale elements, and on the same page what the action did to it (`effect`).

use super::{BrowserSession, AFTER_LIMIT, GATE_TEXT, QUIET_CAP_MS, QUIET_MS, WAIT_STILL_MS};
use crate::agent::Host;
use crate::browser_agent::browser::{Browser, TabView};
use crate::browser_agent::context::{new_elements_text, summary_block, Changes, SUMMARY_TEXT};
use crate::browser_agent::effect::{changes, Seen};
use crate::llm::Image;
use crate::protocol::page::ElementFilter;
use crate::protocol::{ContentRequest, ContentResponse};

impl<B: Browser> BrowserSession<'_, B> {
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
        // The tabs and the page's document are asked at once; the document counts only if the tab is not loading.
        let (tabs, doc) = super::together::both(self.browser.tabs(), self.current_doc()).await;
        if let Ok(tabs) = tabs {
            let tab = self.tab();
            let known = self.run.borrow().known_tabs.clone();
            // Opened by the run's tab; Chrome may name the tab in front as the opener instead, so
            // any page-opened tab that appeared during this action counts (user-opened ones have none).
            let fresh = |t: &&TabView| !known.contains(&t.tab_id) && t.opener.is_some();
            let opened = tabs.iter().rev().filter(fresh).find(|t| t.opener == Some(tab)).or_else(|| tabs.iter().rev().find(fresh)).cloned();
            self.run.borrow_mut().known_tabs = tabs.iter().map(|t| t.tab_id).collect();
            if let Some(new_tab) = opened {
                moved = true;
                let _ = self.join_tab(new_tab.tab_id).await;
                match self.switch_to(new_tab.tab_id).await {
                    Ok(()) => {
                        changes.note = Some(format!("the action opened a new tab [{}]; the run now works there", new_tab.tab_id));
                        changes.tab = Some(new_tab.clone());
                    }
                    Err(e) => {
                        // The run stays on the page it acted on.
                        self.run.borrow_mut().tab_id = tab;
                        let _ = self.browser.activate(tab).await;
                        changes.note = Some(format!("the action opened a new tab [{}], but {e}", new_tab.tab_id));
                    }
                }
            } else if tabs.iter().any(|t| t.tab_id == tab && t.loading) || doc.is_none_or(|d| d.doc != before_doc) {
                moved = true;
                match self.wait_ready(tab, None).await {
                    Ok(doc) => self.run.borrow_mut().doc = doc.doc,
                    Err(e) if e.starts_with("the page tried") => changes.note = Some(e),
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
        // A document the run has not listed yet (a navigation, a reload): all of it is new to the model.
        let new_page = {
            let r = self.run.borrow();
            r.doc != r.listed_doc
        };
        let listed = self.elements(ElementFilter::All, true, 0, AFTER_LIMIT).await.map(|(e, _)| e).unwrap_or_default();
        if self.mode().element_text() {
            changes.new_elements = new_elements_text(&listed, &self.page_url(), new_page);
        }
        // A changing action (the gate read the text) on a page that stayed gets what it changed.
        // After a navigation the old page's lines would be quoted (and recorded) as the new site's.
        let diff = !moved && changes.url.is_none() && !before.text.is_empty();
        // Indices seen before and not listed now may only have scrolled away: ask which are gone.
        let unlisted = before.elements.iter().map(|e| e.index).filter(|i| diff && !listed.iter().any(|e| e.index == *i));
        let mut ask: Vec<u32> = used.iter().copied().chain(unlisted).collect();
        ask.sort_unstable();
        ask.dedup();
        ask.truncate(50);
        let mut gone = Vec::new();
        // What is gone and the page's text now are read at once.
        let details = async {
            match ask.is_empty() {
                true => None,
                false => self.rpc(ContentRequest::GetElementDetails { indices: ask }).await.ok(),
            }
        };
        let text_now = async {
            match (diff, before.on_screen) {
                (false, _) => String::new(),
                (true, true) => self.screen_text().await,
                (true, false) => self.summary(GATE_TEXT).await.map(|s| s.text).unwrap_or_default(),
            }
        };
        let (details, text) = super::together::both(details, text_now).await;
        if let Some(ContentResponse::ElementDetails { missing, details }) = details {
            changes.stale = missing.iter().copied().filter(|i| used.contains(i)).collect();
            // Removed, or still there but with no box: a menu or dialog that closed.
            let hidden = details.iter().filter(|d| !used.contains(&d.index) && d.rect.width <= 0.0 && d.rect.height <= 0.0).map(|d| d.index);
            gone = missing.into_iter().chain(hidden).collect();
        }
        if diff {
            let after = Seen { elements: listed.clone(), text, on_screen: before.on_screen };
            changes.changed = self::changes(&before, &after, &gone);
            if changes.changed.is_empty() && changes.new_elements.is_none() && changes.stale.is_empty() {
                changes.changed.push("nothing on the page changed".into());
            }
            self.seen.borrow_mut().text = after.text;
        }
        let image = if self.mode().screenshots() { self.labelled_screenshot(listed).await.ok() } else { None };
        (changes, image)
    }

    /// Remembers the page's text before an action the gate did not read it for (wait, scroll), so
    /// its result says what text appeared or went: on screen for a scroll, from the top otherwise.
    pub async fn read_text_before(&self, on_screen: bool) {
        let text = if on_screen { self.screen_text().await } else { self.summary(GATE_TEXT).await.map(|s| s.text).unwrap_or_default() };
        let mut seen = self.seen.borrow_mut();
        seen.text = text;
        seen.on_screen = on_screen;
    }

    /// The wait tool: until the page has changed and then been still for WAIT_STILL_MS, at most
    /// `ms`; a page that can't answer is given the whole time.
    pub async fn wait_for_change(&self, ms: u32) {
        // content.js reads a max of 0 as its default.
        if ms == 0 {
            return;
        }
        let started = self.now_ms();
        let wait = ContentRequest::WaitQuiet { quiet_ms: WAIT_STILL_MS, max_ms: ms, after_change: true };
        if !matches!(self.rpc(wait).await, Ok(ContentResponse::Quiet { .. })) {
            let left = f64::from(ms) - (self.now_ms() - started);
            if left > 0.0 {
                self.browser.sleep(left as u32).await;
            }
        }
    }

    /// Until the page changes and is then quiet for QUIET_MS, at most `ms`: what a hover opens
    /// after a delay is there when the step reads what changed.
    pub async fn wait_for_reaction(&self, ms: u32) {
        let wait = ContentRequest::WaitQuiet { quiet_ms: QUIET_MS, max_ms: ms, after_change: true };
        if !matches!(self.rpc(wait).await, Ok(ContentResponse::Quiet { .. })) {
            self.browser.sleep(ms.min(QUIET_CAP_MS)).await;
        }
    }

    /// The lines of text on screen now, no one's unseen text among them.
    async fn screen_text(&self) -> String {
        match self.rpc(ContentRequest::ScreenText { text_limit: GATE_TEXT }).await {
            Ok(ContentResponse::PageText(p)) => p.text,
            _ => String::new(),
        }
    }

    /// Lets the page react to an action (handlers, renders, a navigation starting) until its DOM
    /// is quiet, within a cap; a page that can't answer gets the old fixed pause.
    async fn settle(&self) {
        let wait = ContentRequest::WaitQuiet { quiet_ms: QUIET_MS, max_ms: QUIET_CAP_MS, after_change: false };
        if !matches!(self.rpc(wait).await, Ok(ContentResponse::Quiet { .. })) {
            self.browser.sleep(40).await;
        }
    }
}
