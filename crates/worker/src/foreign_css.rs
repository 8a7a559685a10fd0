//! Fetches a cross-origin stylesheet's text for a content script, which may not read its rules.

use crate::fetch::{controller_with_timeout, fetch};
use dusk_chrome::message::error_text;
use dusk_core::dark::foreign::{check_response, may_fetch, Refusal, MAX_CSS_BYTES};
use dusk_core::protocol::dark::DarkResponse;

const TIMEOUT_MS: u32 = 15_000;

pub async fn handle(url: String) -> DarkResponse {
    match text(&url).await {
        Ok(css) => DarkResponse::DarkCss { url, css },
        Err(message) => DarkResponse::Error { message: format!("{url}: {message}") },
    }
}

async fn text(url: &str) -> Result<String, String> {
    may_fetch(url).map_err(|r| r.to_string())?;
    let controller = controller_with_timeout(TIMEOUT_MS).map_err(|e| error_text(&e))?;
    let mut response = fetch("GET", url, &[], "", &controller.signal()).await.map_err(|e| error_text(&e))?;
    let length = response.header("content-length").and_then(|v| v.trim().parse().ok());
    check_response(response.status, response.header("content-type").as_deref(), length).map_err(|r| r.to_string())?;
    let mut body = Vec::new();
    while let Some(chunk) = response.next_chunk().await {
        body.extend(chunk.map_err(|e| error_text(&e))?);
        if body.len() > MAX_CSS_BYTES {
            controller.abort();
            return Err(Refusal::TooBig.to_string());
        }
    }
    Ok(String::from_utf8_lossy(&body).into_owned())
}
