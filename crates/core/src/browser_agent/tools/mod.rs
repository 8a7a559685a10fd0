//! The 19 actions (seed 001's 18 and read_text), one module each. Each argument type derives the schema the model
//! sees; every action that changes the page reports what changed (`context::Changes`).

pub mod click;
pub mod drag_drop;
pub mod execute_js;
pub mod get_element_details;
pub mod get_elements;
pub mod history;
pub mod hover;
pub mod navigate;
pub mod press_key;
pub mod read_text;
pub mod screenshot;
pub mod scroll;
pub mod select;
pub mod switch_tab;
pub mod type_text;
pub mod upload_file;
pub mod wait;

use super::browser::Browser;
use super::context::Changes;
use super::session::BrowserSession;
use crate::agent::{GateTarget, Registry, ToolContext, ToolOutput};
use crate::llm::Image;
use crate::protocol::{ContentRequest, ContentResponse};
use schemars::JsonSchema;
use serde::Deserialize;

pub type Ctx<'a, 'b, B> = ToolContext<'a, BrowserSession<'b, B>>;

/// No arguments.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct NoArgs {}

/// All 19, in the order the model sees them: reading first, then acting, then tabs and script.
pub fn registry<'h, B: Browser>() -> Registry<BrowserSession<'h, B>> {
    Registry::new()
        .with(get_elements::GetElements)
        .with(get_element_details::GetElementDetails)
        .with(read_text::ReadText)
        .with(click::Click)
        .with(type_text::TypeText)
        .with(select::Select)
        .with(press_key::PressKey)
        .with(hover::Hover)
        .with(scroll::Scroll)
        .with(drag_drop::DragDrop)
        .with(navigate::Navigate)
        .with(history::GoBack)
        .with(history::GoForward)
        .with(history::Refresh)
        .with(switch_tab::SwitchTab)
        .with(wait::Wait)
        .with(screenshot::Screenshot)
        .with(upload_file::UploadFile)
        .with(execute_js::ExecuteJs)
}

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
    let s = ctx.host;
    let label = match index {
        Some(i) => format!(" {}", label_of(ctx, i).await),
        None => String::new(),
    };
    s.before_action(index).await;
    let result = match s.rpc(request).await? {
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
    let used: Vec<u32> = index.into_iter().collect();
    let (changes, image) = s.after_action(result.message.clone(), &used).await;
    let mut summary = format!("{verb}{label}");
    if let Some(url) = &changes.url {
        summary.push_str(&format!(" → {url}"));
    }
    Ok(output(changes, image, summary))
}
