//! Fetches a cross-origin stylesheet's text for a content script, which may not read its rules.

use crate::fetch::{controller_with_timeout, fetch};
use dusk_chrome::message::error_text;
use dusk_core::dark::foreign::{check_response, may_fetch_for, Refusal, FETCH_TIMEOUT_MS, MAX_CSS_BYTES};
use dusk_core::protocol::dark::DarkResponse;
use dusk_core::protocol::Sender;
use wasm_bindgen::JsValue;

/// `sender` is the content script of the frame that asked (core's sender table allows only them).
pub async fn handle(url: String, sender: &Sender) -> DarkResponse {
    match text(&url, sender).await {
        Ok(css) => DarkResponse::DarkCss { url, css },
        Err(message) => DarkResponse::Error { message: format!("{url}: {message}") },
    }
}

/// Whether the asking frame's document links or imports `url` (`duskSheetLinked`, worker.js,
/// run in that frame).
async fn linked(url: &str, sender: &Sender) -> bool {
    let Some(tab) = sender.tab_id() else { return false };
    let set = |o: &js_sys::Object, k: &str, v: &JsValue| js_sys::Reflect::set(o, &k.into(), v).is_ok();
    let target = js_sys::Object::new();
    set(&target, "tabId", &tab.into());
    set(&target, "frameIds", &js_sys::Array::of1(&sender.frame_id.unwrap_or(0).into()));
    let injection = js_sys::Object::new();
    set(&injection, "target", &target);
    set(&injection, "func", &js_sys::Reflect::get(&js_sys::global(), &"duskSheetLinked".into()).unwrap_or_default());
    set(&injection, "args", &js_sys::Array::of1(&url.into()));
    let Ok(results) = dusk_chrome::scripting::execute_script(&injection).await else { return false };
    let first = js_sys::Reflect::get(&results, &0.into()).unwrap_or_default();
    js_sys::Reflect::get(&first, &"result".into()).ok().and_then(|r| r.as_bool()) == Some(true)
}

async fn text(url: &str, sender: &Sender) -> Result<String, String> {
    may_fetch_for(sender.url.as_deref().unwrap_or_default(), url).map_err(|r| r.to_string())?;
    if !linked(url, sender).await {
        return Err(Refusal::NotLinked.to_string());
    }
    let controller = controller_with_timeout(FETCH_TIMEOUT_MS).map_err(|e| error_text(&e))?;
    let late = |e: JsValue| if controller.signal().aborted() { format!("no answer within {} s", FETCH_TIMEOUT_MS / 1000) } else { error_text(&e) };
    let mut response = fetch("GET", url, &[], "", &controller.signal()).await.map_err(late)?;
    let length = response.header("content-length").and_then(|v| v.trim().parse().ok());
    check_response(response.status, response.header("content-type").as_deref(), length).map_err(|r| r.to_string())?;
    let mut body = Vec::new();
    while let Some(chunk) = response.next_chunk().await {
        body.extend(chunk.map_err(late)?);
        if body.len() > MAX_CSS_BYTES {
            controller.abort();
            return Err(Refusal::TooBig.to_string());
        }
    }
    Ok(String::from_utf8_lossy(&body).into_owned())
}
