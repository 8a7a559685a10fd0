//! What every tool shares: its context, the empty argument list, the step list's label, the
//! answer's shape, and the common path of a page action (mask, RPC, what changed).

use crate::agent::{GateTarget, ToolContext, ToolOutput};
use crate::browser_agent::browser::Browser;
use crate::browser_agent::context::Changes;
use crate::browser_agent::session::BrowserSession;
use crate::llm::Image;
use crate::protocol::{ContentRequest, ContentResponse};
use schemars::JsonSchema;
use serde::Deserialize;

pub type Ctx<'a, 'b, B> = ToolContext<'a, BrowserSession<'b, B>>;

/// No arguments.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct NoArgs {}

/// `[5] button “Pay now”`, for the step list.
pub fn target_label(t: &GateTarget) -> String {
    if t.text.is_empty() {
        format!("[{}] {}", t.index, t.tag)
    } else {
        format!("[{}] {} “{}”", t.index, t.tag, t.text)
    }
}

/// The target for the step list: what the gate read, or the page asked now.
async fn label_of<B: Browser>(ctx: &Ctx<'_, '_, B>, index: u32) -> String {
    let gated = ctx.host.gated.borrow_mut().take().filter(|t| t.index == index);
    match gated {
        Some(t) => target_label(&t),
        None => match ctx.host.target(index).await {
            Ok((_, t)) => target_label(&t),
            Err(_) => format!("[{index}]"),
        },
    }
}

/// The tool's answer: the changes for the model, one line for the user, the labelled screenshot.
pub fn output(changes: Changes, image: Option<Image>, summary: String) -> ToolOutput {
    let data = serde_json::to_value(&changes).unwrap_or_default();
    let out = ToolOutput::new(data, summary);
    match image {
        Some(i) => out.with_image(i),
        None => out,
    }
}

/// The common shape of a page action: mask and highlight, the RPC, then what changed.
/// A failed action is an Err naming its reason, e.g. "stale: element 5 is no longer on the page".
pub async fn act<B: Browser>(ctx: &Ctx<'_, '_, B>, index: Option<u32>, verb: &str, request: ContentRequest) -> Result<ToolOutput, String> {
    act_then_wait(ctx, index, verb, request, 0).await
}

/// `act`, then up to `wait_ms` for the page to change (a menu that opens a moment after a hover)
/// before what changed is read.
pub async fn act_then_wait<B: Browser>(
    ctx: &Ctx<'_, '_, B>,
    index: Option<u32>,
    verb: &str,
    request: ContentRequest,
    wait_ms: u32,
) -> Result<ToolOutput, String> {
    let s = ctx.host;
    let label = match index {
        Some(i) => format!(" {}", label_of(ctx, i).await),
        None => String::new(),
    };
    // The mask, the outline and the action go out together: the page takes them in that order,
    // so the action waits for no round trip of its own before it.
    let (_, answer) = crate::browser_agent::session::both(s.before_action(index), s.rpc(request)).await;
    let result = match answer? {
        ContentResponse::Action(r) => r,
        other => return Err(other.unexpected()),
    };
    if !result.success {
        let reason = result.reason.and_then(|r| serde_json::to_value(r).ok()).and_then(|v| v.as_str().map(str::to_string));
        return Err(match reason {
            Some(r) => format!("{r}: {}", result.message),
            None => result.message,
        });
    }
    if wait_ms > 0 {
        s.wait_for_reaction(wait_ms).await;
    }
    let used: Vec<u32> = index.into_iter().collect();
    let (changes, image) = s.after_action(result.message.clone(), &used).await;
    let mut summary = format!("{verb}{label}");
    if let Some(url) = &changes.url {
        summary.push_str(&format!(" → {url}"));
    }
    Ok(output(changes, image, summary))
}
