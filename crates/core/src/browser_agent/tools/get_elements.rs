use super::action::Ctx;
use crate::agent::{Gate, Tool, ToolOutput};
use crate::browser_agent::browser::Browser;
use crate::browser_agent::context::{element_lines, left_out_lines};
use crate::browser_agent::safety::Action;
use crate::browser_agent::session::{BrowserSession, Listing};
use crate::protocol::page::ElementFilter;
use schemars::JsonSchema;
use serde::Deserialize;

/// Lists the page's interactive elements with their indices: one line each, e.g. `[3] input type=text "Username" value=""`. A name guessed from an icon reads `icon="star"`, as does an icon inside a named element; a link on this site shows its path (`/wiki/Firefox`, `#History` on this page); a value's line breaks read `\n`; a cut name or value says its length and that get_element_details gives it whole; a custom drop-down reads `role=combobox` with its value (use select on it), and a button or label that opens a file picker reads `type=file` (use upload_file on it); `in [12]` is the listed row or card an element sits in, `in "…"` the text of its row. Elements that appeared since an earlier listing of this page are marked `new`. The listing ends with what it left out: scroll boxes with more inside (scroll them by their index) and the rest of the page.
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
        let Listing { elements, total, truncated, left_out, hidden_text } = ctx.host.listing(a.filter, a.visible_only, a.offset, limit).await?;
        let from = if a.offset > 0 { format!(", from number {}", a.offset + 1) } else { String::new() };
        let hidden = match hidden_text {
            0 => String::new(),
            1 => "; 1 piece of text no one can see left out".to_string(),
            n => format!("; {n} pieces of text no one can see left out"),
        };
        let head = if a.visible_only {
            format!("{} elements on screen, of {total} on the page{from}{hidden}:", elements.len())
        } else {
            format!("{} of {total} elements on the page{from}{hidden}:", elements.len())
        };
        let mut text = format!("{head}\n{}", element_lines(&elements, &ctx.host.page_url()));
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
