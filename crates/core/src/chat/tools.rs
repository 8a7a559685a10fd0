//! The three pass-2 tools. Their schemas and argument parsing come from these types.

use super::host::{ChatBrowser, ChatHost};
use super::prompt;
use crate::agent::{Registry, Tool, ToolContext, ToolOutput};
use schemars::JsonSchema;
use serde::Deserialize;

/// Takes a screenshot of what the tab shows now, to see images, charts or layout.
#[derive(Debug, Deserialize, JsonSchema, PartialEq)]
pub struct ScreenshotArgs {
    /// Which tab, by its number in the page list (1 when there is one tab).
    #[serde(default = "first_tab")]
    pub tab: usize,
}

#[derive(Debug, Clone, Copy, Deserialize, JsonSchema, PartialEq)]
#[serde(rename_all = "lowercase")]
pub enum ScrollDirection {
    Up,
    Down,
}

/// Scrolls the tab, e.g. to reach content below the fold before a screenshot.
#[derive(Debug, Deserialize, JsonSchema, PartialEq)]
pub struct ScrollArgs {
    #[serde(default = "first_tab")]
    pub tab: usize,
    pub direction: ScrollDirection,
    /// Screens to scroll; 1 when omitted.
    #[serde(default)]
    pub screens: Option<f64>,
}

/// Re-reads the tab's text, after it changed (new content loaded, a different view).
#[derive(Debug, Deserialize, JsonSchema, PartialEq)]
pub struct RefreshArgs {
    #[serde(default = "first_tab")]
    pub tab: usize,
}

fn first_tab() -> usize {
    1
}

pub const SCREENSHOT: &str = "screenshot";
pub const SCROLL: &str = "scroll";
pub const REFRESH: &str = "refresh_page_state";

/// Exactly the three tools pass 2 binds, in the order the model sees them.
pub fn registry<'h, B: ChatBrowser>() -> Registry<ChatHost<'h, B>> {
    Registry::new().with(Screenshot).with(Scroll).with(Refresh)
}

pub struct Screenshot;
pub struct Scroll;
pub struct Refresh;

const UNKNOWN_TAB: &str = "unknown tab; use a number from the page list";

impl<B: ChatBrowser> Tool<ChatHost<'_, B>> for Screenshot {
    type Args = ScreenshotArgs;
    fn name(&self) -> &'static str {
        SCREENSHOT
    }
    fn describe(&self, a: &ScreenshotArgs) -> String {
        format!("Taking a screenshot of tab {}", a.tab)
    }
    async fn execute(&self, a: ScreenshotArgs, ctx: &ToolContext<'_, ChatHost<'_, B>>) -> Result<ToolOutput, String> {
        let tab = ctx.host.tab(a.tab).ok_or(UNKNOWN_TAB)?;
        let image = ctx.host.browser.screenshot(&tab).await.map_err(|e| format!("screenshot failed: {e}"))?;
        Ok(ToolOutput::new(format!("Screenshot of tab “{}”.", tab.title), format!("Took a screenshot of “{}”", tab.title)).with_image(image))
    }
}

impl<B: ChatBrowser> Tool<ChatHost<'_, B>> for Scroll {
    type Args = ScrollArgs;
    fn name(&self) -> &'static str {
        SCROLL
    }
    fn describe(&self, a: &ScrollArgs) -> String {
        format!("Scrolling {}", if a.direction == ScrollDirection::Down { "down" } else { "up" })
    }
    async fn execute(&self, a: ScrollArgs, ctx: &ToolContext<'_, ChatHost<'_, B>>) -> Result<ToolOutput, String> {
        let tab = ctx.host.tab(a.tab).ok_or(UNKNOWN_TAB)?;
        let down = a.direction == ScrollDirection::Down;
        let message = ctx.host.browser.scroll(&tab, down, a.screens.unwrap_or(1.0)).await.map_err(|e| format!("scroll failed: {e}"))?;
        Ok(ToolOutput::new(message, format!("Scrolled {}", if down { "down" } else { "up" })))
    }
}

impl<B: ChatBrowser> Tool<ChatHost<'_, B>> for Refresh {
    type Args = RefreshArgs;
    fn name(&self) -> &'static str {
        REFRESH
    }
    fn describe(&self, a: &RefreshArgs) -> String {
        format!("Re-reading tab {}", a.tab)
    }
    async fn execute(&self, a: RefreshArgs, ctx: &ToolContext<'_, ChatHost<'_, B>>) -> Result<ToolOutput, String> {
        let tab = ctx.host.tab(a.tab).ok_or(UNKNOWN_TAB)?;
        let budget = prompt::budget_per_tab(ctx.host.contexts.borrow().len());
        let text = ctx.host.browser.text_snapshot(&tab, budget).await.map_err(|e| format!("could not read the page: {e}"))?;
        let page = {
            let mut contexts = ctx.host.contexts.borrow_mut();
            contexts[a.tab - 1].text = text;
            prompt::pages_message(&contexts[a.tab - 1..a.tab])
        };
        Ok(ToolOutput::new(page, format!("Re-read “{}”", tab.title)))
    }
}
