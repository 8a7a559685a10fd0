use crate::agent::{Tool, ToolContext, ToolOutput};
use crate::dark_agent::session::{DarkPage, DarkSession};
use schemars::JsonSchema;
use serde::Deserialize;

/// Applies your whole refinement CSS after the instant theme (replacing your previous one), measures the page and, with vision, shows a screenshot. A version worse than Instant is reverted.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct ApplyCssArgs {
    pub css: String,
}

pub struct ApplyCss;

impl<P: DarkPage> Tool<DarkSession<'_, P>> for ApplyCss {
    type Args = ApplyCssArgs;
    fn name(&self) -> &'static str {
        "apply_css"
    }
    fn describe(&self, a: &ApplyCssArgs) -> String {
        format!("Applying CSS ({} bytes)", a.css.len())
    }
    async fn execute(&self, a: ApplyCssArgs, ctx: &ToolContext<'_, DarkSession<'_, P>>) -> Result<ToolOutput, String> {
        let applied = ctx.host.apply_version(&a.css).await?;
        let summary = if applied.kept {
            format!("Applied: {:.1}% of text meets AA", applied.quality.aa_share * 100.0)
        } else {
            format!("Reverted: {}", applied.reasons.join("; "))
        };
        let mut data = serde_json::to_value(&applied).unwrap_or_default();
        let mut out = ToolOutput::new(serde_json::Value::Null, summary);
        if ctx.vision {
            match ctx.host.page.screenshot().await {
                Ok(image) => out = out.with_image(image),
                Err(e) => data["screenshot"] = format!("not taken: {e}").into(),
            }
        }
        out.data = data;
        Ok(out)
    }
}
