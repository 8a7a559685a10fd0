use crate::agent::{Tool, ToolContext, ToolOutput};
use crate::dark_agent::session::{DarkPage, DarkSession};
use crate::protocol::{ContentRequest, ContentResponse};
use schemars::JsonSchema;
use serde::Deserialize;

/// Scrolls the page so that `y` (CSS pixels from the top) is at the top of the viewport, then takes a screenshot.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct ScrollArgs {
    pub y: f64,
}

pub struct ScrollAndCapture;

impl<P: DarkPage> Tool<DarkSession<'_, P>> for ScrollAndCapture {
    type Args = ScrollArgs;
    fn name(&self) -> &'static str {
        "scroll_and_capture"
    }
    fn describe(&self, a: &ScrollArgs) -> String {
        format!("Scrolling to {} px", a.y.round())
    }
    async fn execute(&self, a: ScrollArgs, ctx: &ToolContext<'_, DarkSession<'_, P>>) -> Result<ToolOutput, String> {
        let message = match ctx.host.page.rpc(ContentRequest::ScrollTo { y: a.y.max(0.0) }).await? {
            ContentResponse::Action(r) if r.success => r.message,
            other => return Err(other.unexpected()),
        };
        let out = ToolOutput::new(message, format!("Scrolled to {} px", a.y.round()));
        if !ctx.vision {
            return Ok(out);
        }
        Ok(out.with_image(ctx.host.page.screenshot().await?))
    }
}
