use super::action::Ctx;
use crate::agent::{Gate, Tool, ToolOutput};
use crate::browser_agent::browser::Browser;
use crate::browser_agent::context::{element_lines, left_out_lines};
use crate::browser_agent::safety::Action;
use crate::browser_agent::session::{BrowserSession, Listing};
use crate::protocol::page::ElementFilter;
use schemars::JsonSchema;
use serde::Deserialize;

/// Lists the page's interactive elements with their indices: one line each, e.g. `[3] input type=text "Username" value=""`. A name guessed from an icon reads `icon="star"`; `in [12]` is the listed row or card an element sits in, `in "…"` the text of its row. Elements that appeared since the last listing are marked `new`. The listing ends with what it left out: scroll boxes with more inside (scroll them by their index) and the rest of the page.
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
        let Listing { elements, total, truncated, left_out } = ctx.host.listing(a.filter, a.visible_only, a.offset, limit).await?;
        let from = if a.offset > 0 { format!(", from number {}", a.offset + 1) } else { String::new() };
        let head = if a.visible_only {
            format!("{} elements on screen, of {total} on the page{from}:", elements.len())
        } else {
            format!("{} of {total} elements on the page{from}:", elements.len())
        };
        let mut text = format!("{head}\n{}", element_lines(&elements));
        if truncated {
            text.push_str(&format!("\n… more: call get_elements with offset {}", a.offset as usize + elements.len()));
        }
        if elements.is_empty() && a.visible_only {
            text.push_str("\nNothing on screen: scroll, or call get_elements with visible_only false.");
        }
        for line in left_out.as_ref().map(left_out_lines).unwrap_or_default().iter() {
            text.push('\n');
            text.push_str(line);
        }
        Ok(ToolOutput::new(text, format!("Listed {} elements", elements.len())))
    }
}
