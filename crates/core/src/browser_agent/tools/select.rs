use super::action::{act, Ctx};
use crate::agent::{Gate, Tool, ToolOutput};
use crate::browser_agent::browser::Browser;
use crate::browser_agent::safety::Action;
use crate::browser_agent::session::BrowserSession;
use crate::protocol::actions::Target;
use crate::protocol::ContentRequest;
use schemars::JsonSchema;
use serde::Deserialize;

/// Chooses an option of the drop-down (select) with this index, by its visible text or its value.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct SelectArgs {
    pub index: u32,
    #[serde(default)]
    pub text: Option<String>,
    #[serde(default)]
    pub value: Option<String>,
}

pub struct Select;

impl<B: Browser> Tool<BrowserSession<'_, B>> for Select {
    type Args = SelectArgs;
    fn name(&self) -> &'static str {
        "select"
    }
    fn describe(&self, a: &SelectArgs) -> String {
        format!("Choosing “{}” in element {}", a.text.as_deref().or(a.value.as_deref()).unwrap_or(""), a.index)
    }
    async fn gate(&self, a: &SelectArgs, ctx: &Ctx<'_, '_, B>) -> Gate {
        ctx.host.gate(Action::Select, Some(a.index)).await
    }
    async fn execute(&self, a: SelectArgs, ctx: &Ctx<'_, '_, B>) -> Result<ToolOutput, String> {
        if a.text.is_none() && a.value.is_none() {
            return Err("give the option's text or value".into());
        }
        let verb = format!("Chose “{}” in", a.text.as_deref().or(a.value.as_deref()).unwrap_or(""));
        act(ctx, Some(a.index), &verb, ContentRequest::Select { target: Target::index(a.index), value: a.value, text: a.text }).await
    }
}
