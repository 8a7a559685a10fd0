use super::action::{act, Ctx};
use crate::agent::ToolOutput;
use crate::agent::{Gate, Tool};
use crate::browser_agent::browser::Browser;
use crate::browser_agent::safety::Action;
use crate::browser_agent::session::BrowserSession;
use crate::protocol::actions::{Modifiers, Target};
use crate::protocol::ContentRequest;
use schemars::JsonSchema;
use serde::Deserialize;

/// Clicks the element with this index (from get_elements or a screenshot label).
#[derive(Debug, Deserialize, JsonSchema)]
pub struct ClickArgs {
    pub index: u32,
}

pub struct Click;

impl<B: Browser> Tool<BrowserSession<'_, B>> for Click {
    type Args = ClickArgs;
    fn name(&self) -> &'static str {
        "click"
    }
    fn describe(&self, a: &ClickArgs) -> String {
        format!("Clicking element {}", a.index)
    }
    async fn gate(&self, a: &ClickArgs, ctx: &Ctx<'_, '_, B>) -> Gate {
        ctx.host.gate(Action::Click, Some(a.index)).await
    }
    async fn execute(&self, a: ClickArgs, ctx: &Ctx<'_, '_, B>) -> Result<ToolOutput, String> {
        act(ctx, Some(a.index), "Clicked", ContentRequest::Click { target: Target::index(a.index), modifiers: Modifiers::default() }).await
    }
}
