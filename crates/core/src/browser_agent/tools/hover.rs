use super::action::{act_then_wait, Ctx};
use crate::agent::{Gate, Tool, ToolOutput};
use crate::browser_agent::browser::Browser;
use crate::browser_agent::safety::Action;
use crate::browser_agent::session::BrowserSession;
use crate::protocol::actions::Target;
use crate::protocol::ContentRequest;
use schemars::JsonSchema;
use serde::Deserialize;

/// Moves the pointer over the element with this index, e.g. to open a hover menu. The result says what appeared, waiting a moment for a menu that opens late.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct HoverArgs {
    pub index: u32,
}

/// How long a hover waits for what it opens: menus open up to a few hundred ms after the pointer comes.
pub const HOVER_WAIT_MS: u32 = 600;

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
        ctx.host.read_text_before(true).await;
        act_then_wait(ctx, Some(a.index), "Hovered over", ContentRequest::Hover { target: Target::index(a.index) }, HOVER_WAIT_MS).await
    }
}
