use crate::agent::{Tool, ToolContext, ToolOutput};
use crate::dark_agent::session::{DarkPage, DarkSession};
use crate::protocol::{ContentRequest, ContentResponse};
use schemars::JsonSchema;
use serde::Deserialize;

/// Computed colours, borders, size and text of the elements matching a CSS selector, as they look now.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct InspectArgs {
    /// A CSS selector, e.g. "pre, code" or "header img".
    pub selector: String,
    /// How many elements to describe (1-30, default 10).
    #[serde(default)]
    pub limit: Option<u32>,
}

pub struct Inspect;

impl<P: DarkPage> Tool<DarkSession<'_, P>> for Inspect {
    type Args = InspectArgs;
    fn name(&self) -> &'static str {
        "inspect"
    }
    fn describe(&self, a: &InspectArgs) -> String {
        format!("Inspecting {}", a.selector)
    }
    async fn execute(&self, a: InspectArgs, ctx: &ToolContext<'_, DarkSession<'_, P>>) -> Result<ToolOutput, String> {
        let limit = a.limit.unwrap_or(10).clamp(1, 30);
        match ctx.host.page.rpc(ContentRequest::Inspect { selector: a.selector.clone(), limit }).await? {
            ContentResponse::Inspected { elements, total } => {
                let data = serde_json::json!({ "total": total, "elements": elements });
                Ok(ToolOutput::new(data, format!("Inspected {} of {total} “{}”", elements.len(), a.selector)))
            }
            other => Err(other.unexpected()),
        }
    }
}
