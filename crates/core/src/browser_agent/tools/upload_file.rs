use super::action::{act, Ctx};
use crate::agent::{Gate, Tool, ToolOutput};
use crate::browser_agent::browser::Browser;
use crate::browser_agent::safety::Action;
use crate::browser_agent::session::BrowserSession;
use crate::protocol::ContentRequest;
use schemars::JsonSchema;
use serde::Deserialize;

/// Asks the user to pick a file and puts it into the file input with this index. The user chooses the file; you never name one.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct UploadArgs {
    pub index: u32,
}

pub struct UploadFile;

impl<B: Browser> Tool<BrowserSession<'_, B>> for UploadFile {
    type Args = UploadArgs;
    fn name(&self) -> &'static str {
        "upload_file"
    }
    fn describe(&self, a: &UploadArgs) -> String {
        format!("Uploading a file you pick into element {}", a.index)
    }
    async fn gate(&self, a: &UploadArgs, ctx: &Ctx<'_, '_, B>) -> Gate {
        ctx.host.gate(Action::UploadFile, Some(a.index)).await
    }
    async fn execute(&self, a: UploadArgs, ctx: &Ctx<'_, '_, B>) -> Result<ToolOutput, String> {
        let files = ctx.host.browser.picked_files(ctx.step);
        if files.is_empty() {
            return Err("the user picked no file".into());
        }
        act(ctx, Some(a.index), "Attached a file to", ContentRequest::SetFiles { index: a.index, files }).await
    }
}
