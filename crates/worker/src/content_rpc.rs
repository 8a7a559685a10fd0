//! One content-script RPC to a tab's top frame, the way every agent and the chat send them.

use dusk_chrome::message::{error_text, from_js, to_js};
use dusk_chrome::tabs;
use dusk_core::protocol::{ContentRequest, ContentResponse};

/// The page's answer; its `error` replies, and a page that can't answer, are Err for the caller.
pub async fn rpc(tab_id: i32, request: &ContentRequest) -> Result<ContentResponse, String> {
    let reply = tabs::send_message_to_frame(tab_id, 0, &to_js(request)).await.map_err(|e| {
        format!("the page did not answer ({}); pages like chrome:// and the Web Store can't be used, and a loading page may need a moment", error_text(&e))
    })?;
    match from_js::<ContentResponse>(reply)? {
        ContentResponse::Error { message } => Err(message),
        other => Ok(other),
    }
}
