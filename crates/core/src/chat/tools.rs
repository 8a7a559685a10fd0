//! The three pass-2 tools. Their schemas and argument parsing come from these types.

use crate::llm::ToolSpec;
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

/// Exactly the three tools pass 2 binds.
pub fn specs() -> Vec<ToolSpec> {
    vec![
        ToolSpec::of::<ScreenshotArgs>(SCREENSHOT, ""),
        ToolSpec::of::<ScrollArgs>(SCROLL, ""),
        ToolSpec::of::<RefreshArgs>(REFRESH, ""),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_tools_with_documented_schemas() {
        let s = specs();
        assert_eq!(s.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), [SCREENSHOT, SCROLL, REFRESH]);
        assert!(s[0].description.contains("screenshot"));
        assert_eq!(s[1].parameters["properties"]["direction"]["enum"], serde_json::json!(["up", "down"]));
    }
}
