use super::action::{act, Ctx};
use crate::agent::{Gate, Tool, ToolOutput};
use crate::browser_agent::browser::Browser;
use crate::browser_agent::safety::Action;
use crate::browser_agent::session::BrowserSession;
use crate::protocol::actions::{Modifiers, Target};
use crate::protocol::ContentRequest;
use schemars::JsonSchema;
use serde::Deserialize;

/// Presses a key (e.g. "Enter", "Escape", "ArrowDown", "Tab", "a") on the focused element, or on the element with this index.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct PressKeyArgs {
    pub key: String,
    #[serde(default)]
    pub index: Option<u32>,
    #[serde(default)]
    pub ctrl: bool,
    #[serde(default)]
    pub shift: bool,
    #[serde(default)]
    pub alt: bool,
    #[serde(default)]
    pub meta: bool,
}

pub struct PressKey;

impl<B: Browser> Tool<BrowserSession<'_, B>> for PressKey {
    type Args = PressKeyArgs;
    fn name(&self) -> &'static str {
        "press_key"
    }
    fn describe(&self, a: &PressKeyArgs) -> String {
        format!("Pressing {}", a.key)
    }
    /// Enter submits forms, so it is judged as a submit click on the field (or the page).
    async fn gate(&self, a: &PressKeyArgs, ctx: &Ctx<'_, '_, B>) -> Gate {
        let action = if a.key.eq_ignore_ascii_case("enter") { Action::Submit } else { Action::Other };
        ctx.host.gate(action, a.index).await
    }
    async fn execute(&self, a: PressKeyArgs, ctx: &Ctx<'_, '_, B>) -> Result<ToolOutput, String> {
        let modifiers = Modifiers { ctrl: a.ctrl, shift: a.shift, alt: a.alt, meta: a.meta };
        let target = Target { index: a.index, ..Target::default() };
        let verb = format!("Pressed {}", a.key);
        act(ctx, a.index, &verb, ContentRequest::PressKey { target, key: a.key, modifiers }).await
    }
}
