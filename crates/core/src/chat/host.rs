//! What pass 2 runs on: the browser the chat may drive and the pages it re-reads. Below both the
//! chat's loop (agent.rs) and its tools, which each take it.

use super::{PageContext, TabInfo};
use crate::agent::{self, Host, RunState};
use crate::llm::Image;
use crate::protocol::page::PageText;
use std::cell::RefCell;

/// What the chat may do to tabs, on top of what the runtime needs.
#[allow(async_fn_in_trait)]
pub trait ChatBrowser: Host {
    /// The page measured as boxes and blocks of text, read up to about `max_chars` characters.
    async fn read_page(&self, tab: &TabInfo, max_chars: u32) -> Result<PageText, String>;
    async fn screenshot(&self, tab: &TabInfo) -> Result<Image, String>;
    async fn scroll(&self, tab: &TabInfo, down: bool, screens: f64) -> Result<String, String>;
    async fn tab_exists(&self, tab: &TabInfo) -> bool;
    /// One chat run at a time per browser window, so the window names the run.
    fn run_id(&self) -> String;
}

/// Pass 2's host: the browser plus the pages, which refresh_page_state re-reads.
pub struct ChatHost<'a, B> {
    pub browser: &'a B,
    pub contexts: RefCell<Vec<PageContext>>,
}

impl<B> ChatHost<'_, B> {
    /// A tab by its 1-based number in the page list.
    pub fn tab(&self, n: usize) -> Option<TabInfo> {
        self.contexts.borrow().get(n.checked_sub(1)?).map(|c| c.tab.clone())
    }
}

impl<B: ChatBrowser> Host for ChatHost<'_, B> {
    fn now_ms(&self) -> f64 {
        self.browser.now_ms()
    }
    fn stop_signal(&self) -> &agent::StopSignal {
        self.browser.stop_signal()
    }
    async fn save_checkpoint(&self, state: &RunState) {
        self.browser.save_checkpoint(state).await
    }
    async fn check_target(&self) -> Result<(), String> {
        let tabs: Vec<TabInfo> = self.contexts.borrow().iter().map(|c| c.tab.clone()).collect();
        for tab in &tabs {
            if !self.browser.tab_exists(tab).await {
                return Err("the tab was closed".into());
            }
        }
        Ok(())
    }
}
