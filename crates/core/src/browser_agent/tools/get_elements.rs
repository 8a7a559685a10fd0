use super::Ctx;
use crate::agent::{Gate, Tool, ToolOutput};
use crate::browser_agent::browser::Browser;
use crate::browser_agent::context::element_lines;
use crate::browser_agent::safety::Action;
use crate::browser_agent::session::BrowserSession;
use crate::protocol::page::ElementFilter;
use schemars::JsonSchema;
use serde::Deserialize;

/// Lists the page's interactive elements with their indices: one line each, e.g. `[3] input type=text "Username" value=""`. Elements that appeared since the last listing are marked `new`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct GetElementsArgs {
    #[serde(default)]
    pub filter: ElementFilter,
    /// Only elements on screen now (default true); false lists the whole page.
    #[serde(default = "yes")]
    pub visible_only: bool,
    #[serde(default)]
    pub offset: u32,
    /// At most 300; 100 when omitted.
    #[serde(default)]
    pub limit: Option<u32>,
}

fn yes() -> bool {
    true
}

pub struct GetElements;

impl<B: Browser> Tool<BrowserSession<'_, B>> for GetElements {
    type Args = GetElementsArgs;
    fn name(&self) -> &'static str {
        "get_elements"
    }
    fn describe(&self, _a: &GetElementsArgs) -> String {
        "Listing the page's elements".into()
    }
    async fn gate(&self, _a: &GetElementsArgs, ctx: &Ctx<'_, '_, B>) -> Gate {
        ctx.host.gate(Action::Read, None).await
    }
    async fn execute(&self, a: GetElementsArgs, ctx: &Ctx<'_, '_, B>) -> Result<ToolOutput, String> {
        let limit = a.limit.unwrap_or(100).clamp(1, 300);
        let (elements, total) = ctx.host.elements(a.filter, a.visible_only, a.offset, limit).await?;
        let scope = if a.visible_only { "on screen" } else { "on the page" };
        let from = if a.offset > 0 { format!(", from number {}", a.offset + 1) } else { String::new() };
        let mut text = format!("{} of {total} elements {scope}{from}:\n{}", elements.len(), element_lines(&elements));
        if (a.offset as usize + elements.len()) < total as usize {
            text.push_str(&format!("\n… more: call get_elements with offset {}", a.offset as usize + elements.len()));
        }
        if elements.is_empty() && a.visible_only {
            text.push_str("\nNothing on screen: scroll, or call get_elements with visible_only false.");
        }
        Ok(ToolOutput::new(text, format!("Listed {} elements", elements.len())))
    }
}
