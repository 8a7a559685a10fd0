use crate::agent::{Tool, ToolContext, ToolOutput};
use crate::dark_agent::contrast;
use crate::dark_agent::session::{DarkPage, DarkSession};
use schemars::JsonSchema;
use serde::Deserialize;

/// WCAG contrast of a text colour on a background colour, in any CSS colour syntax; says whether it meets AA and AAA.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct ContrastArgs {
    pub foreground: String,
    pub background: String,
}

pub struct CheckContrast;

impl<P: DarkPage> Tool<DarkSession<'_, P>> for CheckContrast {
    type Args = ContrastArgs;
    fn name(&self) -> &'static str {
        "check_contrast"
    }
    fn describe(&self, a: &ContrastArgs) -> String {
        format!("Checking {} on {}", a.foreground, a.background)
    }
    async fn execute(&self, a: ContrastArgs, _: &ToolContext<'_, DarkSession<'_, P>>) -> Result<ToolOutput, String> {
        let c = contrast::check_contrast(&a.foreground, &a.background)?;
        let summary = format!("{} on {}: {:.2}:1{}", a.foreground, a.background, c.ratio, if c.aa { " (AA)" } else { " (fails AA)" });
        Ok(ToolOutput::new(serde_json::to_value(&c).unwrap_or_default(), summary))
    }
}
