use super::action::{output, Ctx};
use crate::agent::{Gate, Tool, ToolOutput};
use crate::browser_agent::browser::Browser;
use crate::browser_agent::safety::Action;
use crate::browser_agent::session::BrowserSession;
use schemars::JsonSchema;
use serde::Deserialize;

/// Waits for the page to finish something (loading, an animation): until it has changed and then been still, at most `seconds` (10 at most); the result says what text appeared or went meanwhile.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct WaitArgs {
    #[serde(default = "one")]
    pub seconds: f64,
}

fn one() -> f64 {
    1.0
}

pub struct Wait;

impl<B: Browser> Tool<BrowserSession<'_, B>> for Wait {
    type Args = WaitArgs;
    fn name(&self) -> &'static str {
        "wait"
    }
    fn describe(&self, a: &WaitArgs) -> String {
        format!("Waiting {} s", a.seconds)
    }
    async fn gate(&self, _a: &WaitArgs, ctx: &Ctx<'_, '_, B>) -> Gate {
        ctx.host.gate(Action::Read, None).await
    }
    async fn execute(&self, a: WaitArgs, ctx: &Ctx<'_, '_, B>) -> Result<ToolOutput, String> {
        let seconds = if a.seconds.is_finite() { a.seconds.clamp(0.0, 10.0) } else { 1.0 };
        ctx.host.read_text_before(false).await;
        ctx.host.wait_for_change((seconds * 1000.0) as u32).await;
        let (changes, image) = ctx.host.after_action(format!("waited {seconds} s"), &[]).await;
        Ok(output(changes, image, format!("Waited {seconds} s")))
    }
}
