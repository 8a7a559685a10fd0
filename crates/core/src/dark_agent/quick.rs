//! Quick: one model call, no tools. The model sees the page under Instant and answers with CSS,
//! which goes through the same guard as every Thorough version.

use super::prompt::{context_message, css_from_reply, system_quick};
use super::session::{Applied, DarkContext, DarkPage, DarkSession};
use crate::agent::{Host, Model};
use crate::llm::{ChatRequest, LlmError, Message, Usage};

#[derive(Debug, Clone, PartialEq)]
pub struct QuickOutcome {
    /// None when the model proposed no CSS.
    pub applied: Option<Applied>,
    pub usage: Usage,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum QuickError {
    #[error("stopped")]
    Stopped,
    #[error("{0}")]
    Model(LlmError),
    #[error("{0}")]
    Page(String),
}

pub async fn quick<P: DarkPage>(session: &DarkSession<'_, P>, ctx: &DarkContext, model: &impl Model) -> Result<QuickOutcome, QuickError> {
    let request = ChatRequest::new(vec![Message::system(system_quick()), context_message(ctx)]).streaming(true);
    let mut ignore = |_: &crate::llm::StreamEvent| {};
    let call = model.complete(&request, &mut ignore);
    let reply = match session.stop_signal().race(call).await {
        None | Some(Err(LlmError::Aborted)) => return Err(QuickError::Stopped),
        Some(Err(e)) => return Err(QuickError::Model(e)),
        Some(Ok(r)) => r,
    };
    let usage = reply.usage.unwrap_or_default();
    let css = css_from_reply(&reply.text);
    if css.is_empty() {
        return Ok(QuickOutcome { applied: None, usage });
    }
    let applied = session.apply_version(&css).await.map_err(QuickError::Page)?;
    Ok(QuickOutcome { applied: Some(applied), usage })
}
