use crate::agent::{Tool, ToolContext, ToolOutput};
use crate::dark_agent::session::{DarkPage, DarkSession};
use crate::protocol::{ContentRequest, ContentResponse};
use schemars::JsonSchema;
use serde::Deserialize;

/// Finds elements by a description in words, e.g. "site logo", "code blocks", "diagram"; returns selectors to inspect or style.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct QueryArgs {
    pub description: String,
    /// How many matches (1-20, default 8).
    #[serde(default)]
    pub limit: Option<u32>,
}

pub struct QueryElements;

impl<P: DarkPage> Tool<DarkSession<'_, P>> for QueryElements {
    type Args = QueryArgs;
    fn name(&self) -> &'static str {
        "query_elements"
    }
    fn describe(&self, a: &QueryArgs) -> String {
        format!("Looking for {}", a.description)
    }
    async fn execute(&self, a: QueryArgs, ctx: &ToolContext<'_, DarkSession<'_, P>>) -> Result<ToolOutput, String> {
        let limit = a.limit.unwrap_or(8).clamp(1, 20);
        match ctx.host.page.rpc(ContentRequest::QueryElements { description: a.description.clone(), limit }).await? {
            ContentResponse::QueryResults { matches } => {
                let summary = format!("Found {} match(es) for “{}”", matches.len(), a.description);
                Ok(ToolOutput::new(serde_json::to_value(&matches).unwrap_or_default(), summary))
            }
            other => Err(other.unexpected()),
        }
    }
}
