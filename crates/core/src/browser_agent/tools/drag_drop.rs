use super::action::{act, Ctx};
use crate::agent::{Gate, Tool, ToolOutput};
use crate::browser_agent::browser::Browser;
use crate::browser_agent::safety::Action;
use crate::browser_agent::session::BrowserSession;
use crate::protocol::page::Point;
use crate::protocol::ContentRequest;
use schemars::JsonSchema;
use serde::Deserialize;

/// Drags the element with index `from_index` and drops it on the element with index `to_index`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct DragDropArgs {
    pub from_index: u32,
    pub to_index: u32,
}

pub struct DragDrop;

impl<B: Browser> Tool<BrowserSession<'_, B>> for DragDrop {
    type Args = DragDropArgs;
    fn name(&self) -> &'static str {
        "drag_drop"
    }
    fn describe(&self, a: &DragDropArgs) -> String {
        format!("Dragging element {} onto element {}", a.from_index, a.to_index)
    }
    async fn gate(&self, a: &DragDropArgs, ctx: &Ctx<'_, '_, B>) -> Gate {
        ctx.host.gate(Action::Other, Some(a.from_index)).await
    }
    async fn execute(&self, a: DragDropArgs, ctx: &Ctx<'_, '_, B>) -> Result<ToolOutput, String> {
        let (_, from) = ctx.host.target(a.from_index).await?;
        let (_, to) = ctx.host.target(a.to_index).await?;
        let center = |r: crate::protocol::page::Rect| {
            let (x, y) = r.center();
            Point { x, y }
        };
        let verb = format!("Dragged onto [{}]", a.to_index);
        act(ctx, Some(a.from_index), &verb, ContentRequest::DragDrop { from: center(from.rect), to: center(to.rect) }).await
    }
}
