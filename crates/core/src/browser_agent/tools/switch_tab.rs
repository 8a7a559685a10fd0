use super::action::{output, Ctx};
use crate::agent::{Gate, Tool, ToolOutput};
use crate::browser_agent::browser::Browser;
use crate::browser_agent::safety::Action;
use crate::browser_agent::session::BrowserSession;
use schemars::JsonSchema;
use serde::Deserialize;

/// Moves the run to another tab of this window, by the id shown in brackets in the tab list.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct SwitchTabArgs {
    pub tab_id: i32,
}

pub struct SwitchTab;

impl<B: Browser> Tool<BrowserSession<'_, B>> for SwitchTab {
    type Args = SwitchTabArgs;
    fn name(&self) -> &'static str {
        "switch_tab"
    }
    fn describe(&self, a: &SwitchTabArgs) -> String {
        format!("Switching to tab {}", a.tab_id)
    }
    /// A tab of another site is judged as going there.
    async fn gate(&self, a: &SwitchTabArgs, ctx: &Ctx<'_, '_, B>) -> Gate {
        let to_url = ctx.host.browser.tabs().await.ok().and_then(|tabs| tabs.into_iter().find(|t| t.tab_id == a.tab_id)).map(|t| t.url);
        match to_url {
            Some(to_url) => ctx.host.gate(Action::SwitchTab { to_url }, None).await,
            None => ctx.host.gate(Action::Read, None).await,
        }
    }
    async fn execute(&self, a: SwitchTabArgs, ctx: &Ctx<'_, '_, B>) -> Result<ToolOutput, String> {
        let s = ctx.host;
        let tabs = s.browser.tabs().await?;
        let Some(tab) = tabs.iter().find(|t| t.tab_id == a.tab_id).cloned() else {
            let ids: Vec<String> = tabs.iter().map(|t| format!("[{}] {}", t.tab_id, t.title)).collect();
            return Err(format!("no tab {} in this window; the tabs are: {}", a.tab_id, ids.join("; ")));
        };
        s.join_tab(tab.tab_id).await?;
        s.switch_to(tab.tab_id).await?;
        let (mut changes, image) = s.after_action(format!("switched to tab [{}] {}", tab.tab_id, tab.title), &[]).await;
        changes.tab = Some(tab.clone());
        Ok(output(changes, image, format!("Switched to tab “{}”", tab.title)))
    }
}
