use crate::agent::{Tool, ToolContext, ToolOutput};
use crate::dark_agent::session::{DarkPage, DarkSession};
use crate::protocol::{ContentRequest, ContentResponse};
use schemars::JsonSchema;
use serde::Deserialize;

/// The colours visible in the viewport now, grouped into backgrounds, text, accents and borders, weighted by painted area.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct PaletteArgs {}

pub struct GetColorPalette;

impl<P: DarkPage> Tool<DarkSession<'_, P>> for GetColorPalette {
    type Args = PaletteArgs;
    fn name(&self) -> &'static str {
        "get_color_palette"
    }
    fn describe(&self, _: &PaletteArgs) -> String {
        "Reading the colours".into()
    }
    async fn execute(&self, _: PaletteArgs, ctx: &ToolContext<'_, DarkSession<'_, P>>) -> Result<ToolOutput, String> {
        match ctx.host.page.rpc(ContentRequest::GetColorPalette).await? {
            ContentResponse::ColorPalette(p) => Ok(ToolOutput::new(serde_json::to_value(&p).unwrap_or_default(), "Read the colours")),
            other => Err(other.unexpected()),
        }
    }
}
