use super::action::{act, Ctx};
use crate::agent::{Gate, Tool, ToolOutput};
use crate::browser_agent::browser::Browser;
use crate::browser_agent::safety::Action;
use crate::browser_agent::session::BrowserSession;
use crate::protocol::actions::Target;
use crate::protocol::ContentRequest;
use schemars::JsonSchema;
use serde::Deserialize;

/// Types text into the field with this index. Dates, times, colours and ranges are set whole.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct TypeArgs {
    pub index: u32,
    pub text: String,
    /// Replace what the field holds (true, the default) or add to it (false).
    #[serde(default = "yes")]
    pub clear: bool,
}

fn yes() -> bool {
    true
}

pub struct TypeText;

impl<B: Browser> Tool<BrowserSession<'_, B>> for TypeText {
    type Args = TypeArgs;
    fn name(&self) -> &'static str {
        "type"
    }
    fn describe(&self, a: &TypeArgs) -> String {
        format!("Typing into element {}", a.index)
    }
    async fn gate(&self, a: &TypeArgs, ctx: &Ctx<'_, '_, B>) -> Gate {
        ctx.host.gate(Action::Type { text: a.text.clone() }, Some(a.index)).await
    }
    async fn execute(&self, a: TypeArgs, ctx: &Ctx<'_, '_, B>) -> Result<ToolOutput, String> {
        let request = ContentRequest::TypeText { target: Target::index(a.index), text: a.text, clear: a.clear };
        act(ctx, Some(a.index), "Typed into", request).await
    }
}
