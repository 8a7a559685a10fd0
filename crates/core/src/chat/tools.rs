//! The pass-2 tools. Their schemas and argument parsing come from these types.

use super::host::{ChatBrowser, ChatHost};
use super::prompt;
use crate::agent::{Registry, Tool, ToolContext, ToolOutput};
use crate::page::snapshot::{main_text, part_text, text_snapshot};
use crate::page::text::{cut_to_tokens, snapshot_chars};
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

/// Reads one part of the page whole: part 0 is the main content (from a token on, where the page
/// text said it continues); 1, 2… are the parts the page's outline numbers.
#[derive(Debug, Deserialize, JsonSchema, PartialEq)]
pub struct ReadPartArgs {
    #[serde(default = "first_tab")]
    pub tab: usize,
    /// 0 for the main content, else the number of an outlined part.
    #[serde(default)]
    pub part: usize,
    /// For the main content: the token to read on from (the "from" its continuation line gives).
    #[serde(default)]
    pub from: Option<u32>,
}

fn first_tab() -> usize {
    1
}

pub const SCREENSHOT: &str = "screenshot";
pub const SCROLL: &str = "scroll";
pub const REFRESH: &str = "refresh_page_state";
pub const READ_PART: &str = crate::page::snapshot::READ_PART_TOOL;

/// Exactly the tools pass 2 binds, in the order the model sees them.
pub fn registry<'h, B: ChatBrowser>() -> Registry<ChatHost<'h, B>> {
    Registry::new().with(Screenshot).with(Scroll).with(Refresh).with(ReadPart)
}

pub struct Screenshot;
pub struct Scroll;
pub struct Refresh;
pub struct ReadPart;

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
        let budget = prompt::budget_per_tab(ctx.host.contexts.borrow().len()) as u32;
        let page = ctx.host.browser.read_page(&tab, snapshot_chars(budget)).await.map_err(|e| format!("could not read the page: {e}"))?;
        let text = text_snapshot(&page, budget).block;
        let page = {
            let mut contexts = ctx.host.contexts.borrow_mut();
            contexts[a.tab - 1].text = text;
            prompt::pages_message(&contexts[a.tab - 1..a.tab])
        };
        Ok(ToolOutput::new(page, format!("Re-read “{}”", tab.title)))
    }
}

impl<B: ChatBrowser> Tool<ChatHost<'_, B>> for ReadPart {
    type Args = ReadPartArgs;
    fn name(&self) -> &'static str {
        READ_PART
    }
    fn describe(&self, a: &ReadPartArgs) -> String {
        match a.part {
            0 => format!("Reading on in tab {}", a.tab),
            n => format!("Reading part {n} of tab {}", a.tab),
        }
    }
    async fn execute(&self, a: ReadPartArgs, ctx: &ToolContext<'_, ChatHost<'_, B>>) -> Result<ToolOutput, String> {
        let tab = ctx.host.tab(a.tab).ok_or(UNKNOWN_TAB)?;
        let budget = prompt::budget_per_tab(ctx.host.contexts.borrow().len()) as u32;
        let from = a.from.unwrap_or(0);
        let page = ctx.host.browser.read_page(&tab, snapshot_chars(from.saturating_add(budget))).await.map_err(|e| format!("could not read the page: {e}"))?;
        let (whole, what) = match a.part {
            0 => (main_text(&page), "the main content".to_string()),
            n => (part_text(&page, n).ok_or("no such part; use a number from the page's outline")?, format!("part {n}")),
        };
        let rest: String = whole.chars().skip(from as usize * 4).collect();
        let text = cut_to_tokens(&rest, budget);
        let left = rest.chars().count().saturating_sub(text.chars().count()).div_ceil(4);
        let more = if left > 0 { format!("\n[about {left} more tokens; read on with from={}]", from + budget) } else { String::new() };
        let page_text = format!("{text}{more}");
        let contexts = ctx.host.contexts.borrow();
        let c = &contexts[a.tab - 1];
        let quoted = prompt::pages_message(&[super::PageContext { tab: c.tab.clone(), text: page_text }]);
        Ok(ToolOutput::new(quoted, format!("Read {what} of “{}”", tab.title)))
    }
}
