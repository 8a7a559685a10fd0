use super::action::Ctx;
use crate::agent::{Gate, Tool, ToolOutput};
use crate::browser_agent::browser::Browser;
use crate::browser_agent::safety::Action;
use crate::browser_agent::session::BrowserSession;
use crate::protocol::{ContentRequest, ContentResponse};
use schemars::JsonSchema;
use serde::Deserialize;

/// Attributes, a CSS selector, the XPath and the surrounding text of elements, by index (at most 20).
#[derive(Debug, Deserialize, JsonSchema)]
pub struct DetailsArgs {
    pub indices: Vec<u32>,
}

pub struct GetElementDetails;

impl<B: Browser> Tool<BrowserSession<'_, B>> for GetElementDetails {
    type Args = DetailsArgs;
    fn name(&self) -> &'static str {
        "get_element_details"
    }
    fn describe(&self, a: &DetailsArgs) -> String {
        format!("Reading details of {} elements", a.indices.len())
    }
    async fn gate(&self, _a: &DetailsArgs, ctx: &Ctx<'_, '_, B>) -> Gate {
        ctx.host.gate(Action::Read, None).await
    }
    async fn execute(&self, a: DetailsArgs, ctx: &Ctx<'_, '_, B>) -> Result<ToolOutput, String> {
        if a.indices.is_empty() {
            return Err("give at least one index".into());
        }
        let indices: Vec<u32> = a.indices.into_iter().take(20).collect();
        match ctx.host.rpc(ContentRequest::GetElementDetails { indices }).await? {
            ContentResponse::ElementDetails { details, missing } => {
                let n = details.len();
                let data = serde_json::json!({ "details": details, "stale": missing });
                Ok(ToolOutput::new(data, format!("Read details of {n} elements")))
            }
            other => Err(other.unexpected()),
        }
    }
}
