use super::action::{Ctx, NoArgs};
use crate::agent::{Gate, Tool, ToolOutput};
use crate::browser_agent::browser::Browser;
use crate::browser_agent::safety::Action;
use crate::browser_agent::session::BrowserSession;
use crate::protocol::page::ElementFilter;

pub struct Screenshot;

impl<B: Browser> Tool<BrowserSession<'_, B>> for Screenshot {
    type Args = NoArgs;
    fn name(&self) -> &'static str {
        "screenshot"
    }
    fn description(&self) -> &'static str {
        "Takes a screenshot of the current tab, with each interactive element labelled by its index."
    }
    fn describe(&self, _a: &NoArgs) -> String {
        "Taking a screenshot".into()
    }
    async fn gate(&self, _a: &NoArgs, ctx: &Ctx<'_, '_, B>) -> Gate {
        ctx.host.gate(Action::Read, None).await
    }
    async fn execute(&self, _a: NoArgs, ctx: &Ctx<'_, '_, B>) -> Result<ToolOutput, String> {
        let s = ctx.host;
        s.summary(200).await?;
        let (marks, _) = s.elements(ElementFilter::All, true, 0, 200).await?;
        let labelled = marks.len();
        let image = s.labelled_screenshot(marks).await?;
        Ok(ToolOutput::new(format!("Screenshot of the visible part of the page; {labelled} elements labelled with their index."), "Took a screenshot")
            .with_image(image))
    }
}
