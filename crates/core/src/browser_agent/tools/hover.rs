use super::action::{act, Ctx};
use crate::agent::{Gate, Tool, ToolOutput};
use crate::browser_agent::browser::Browser;
use crate::browser_agent::safety::Action;
use crate::browser_agent::session::BrowserSession;
use crate::protocol::actions::Target;
use crate::protocol::ContentRequest;
use schemars::JsonSchema;
use serde::Deserialize;

/// Moves the pointer over the element with this index, e.g. to open a hover menu.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct HoverArgs {
    pub index: u32,
}

pub struct Hover;

impl<B: Browser> Tool<BrowserSession<'_, B>> for Hover {
    type Args = HoverArgs;
    fn name(&self) -> &'static str {
        "hover"
    }
    fn describe(&self, a: &HoverArgs) -> String {
        format!("Hovering over element {}", a.index)
    }
    async fn gate(&self, _a: &HoverArgs, ctx: &Ctx<'_, '_, B>) -> Gate {
        ctx.host.gate(Action::Read, None).await
    }
    async fn execute(&self, a: HoverArgs, ctx: &Ctx<'_, '_, B>) -> Result<ToolOutput, String> {
        act(ctx, Some(a.index), "Hovered over", ContentRequest::Hover { target: Target::index(a.index) }).await
    }
}
