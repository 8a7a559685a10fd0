use super::action::{act, Ctx};
use crate::agent::{Gate, Tool, ToolOutput};
use crate::browser_agent::browser::Browser;
use crate::browser_agent::safety::Action;
use crate::browser_agent::session::BrowserSession;
use crate::protocol::actions::{Direction, Target};
use crate::protocol::ContentRequest;
use schemars::JsonSchema;
use serde::Deserialize;

/// Scrolls the page, or the scrollable element with this index, to reveal more; the result says what text came into view or left it.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct ScrollArgs {
    pub direction: Direction,
    #[serde(default)]
    pub index: Option<u32>,
    /// Pixels; most of a screen when omitted.
    #[serde(default)]
    pub amount: Option<f64>,
}

pub struct Scroll;

impl<B: Browser> Tool<BrowserSession<'_, B>> for Scroll {
    type Args = ScrollArgs;
    fn name(&self) -> &'static str {
        "scroll"
    }
    fn describe(&self, a: &ScrollArgs) -> String {
        format!("Scrolling {:?}", a.direction).to_lowercase()
    }
    async fn gate(&self, _a: &ScrollArgs, ctx: &Ctx<'_, '_, B>) -> Gate {
        ctx.host.gate(Action::Read, None).await
    }
    async fn execute(&self, a: ScrollArgs, ctx: &Ctx<'_, '_, B>) -> Result<ToolOutput, String> {
        let target = Target { index: a.index, ..Target::default() };
        let amount = a.amount.filter(|v| v.is_finite()).map(|v| v.clamp(1.0, 100_000.0));
        let verb = format!("Scrolled {}", serde_json::to_value(a.direction).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default());
        ctx.host.read_text_before(true).await;
        act(ctx, a.index, &verb, ContentRequest::Scroll { target, direction: a.direction, amount }).await
    }
}
