use super::action::{output, Ctx};
use crate::agent::{Gate, Tool, ToolOutput};
use crate::browser_agent::browser::Browser;
use crate::browser_agent::safety::Action;
use crate::browser_agent::session::BrowserSession;
use schemars::JsonSchema;
use serde::Deserialize;

/// Runs JavaScript in the page's main world: an expression (`document.title`) or statements that end with `return value;`. Promises are awaited; the value comes back as JSON. Always needs the user's approval; prefer the other actions.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct ExecuteJsArgs {
    pub code: String,
}

/// Script longer than this is refused: the user must be able to read what they approve.
pub const MAX_CODE: usize = 20_000;

pub struct ExecuteJs;

impl<B: Browser> Tool<BrowserSession<'_, B>> for ExecuteJs {
    type Args = ExecuteJsArgs;
    fn name(&self) -> &'static str {
        "execute_js"
    }
    fn describe(&self, _a: &ExecuteJsArgs) -> String {
        "Running script in the page".into()
    }
    async fn gate(&self, a: &ExecuteJsArgs, ctx: &Ctx<'_, '_, B>) -> Gate {
        let mut gate = ctx.host.gate(Action::ExecuteJs, None).await;
        gate.detail = Some(a.code.clone());
        gate
    }
    async fn execute(&self, a: ExecuteJsArgs, ctx: &Ctx<'_, '_, B>) -> Result<ToolOutput, String> {
        if a.code.len() > MAX_CODE {
            return Err(format!("the script is longer than {MAX_CODE} characters"));
        }
        let s = ctx.host;
        s.before_action(None).await;
        let value = s.browser.execute_js(s.tab(), &a.code).await?;
        let mut shown = value.to_string();
        if shown.len() > 4000 {
            shown = format!("{}… (cut)", shown.chars().take(4000).collect::<String>());
        }
        let (changes, image) = s.after_action(format!("the script returned {shown}"), &[]).await;
        Ok(output(changes, image, "Ran script in the page".into()))
    }
}
