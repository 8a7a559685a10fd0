//! The tab's frames that the top frame's layer can't reach (other origins): found with one
//! `executeScript` over every frame, and given the router (content.js) and a page layer of their
//! own on first use. Other extensions' frames give no answer and are left out.

use dusk_chrome::message::{error_text, from_js, to_js};
use dusk_chrome::{scripting, tabs};
use dusk_core::browser_agent::FrameView;
use dusk_core::protocol::layer::{Layer, Presence};
use dusk_core::protocol::{ContentRequest, ContentResponse};
use js_sys::{Array, Object, Reflect};
use serde::Deserialize;
use wasm_bindgen::JsValue;

#[derive(Deserialize)]
struct FrameInfo {
    url: String,
    reachable: bool,
}

fn set(o: &Object, key: &str, value: &JsValue) {
    let _ = Reflect::set(o, &key.into(), value);
}

fn run_in(tab_id: i32, frames: Option<i32>, func: &str) -> Object {
    let target = Object::new();
    set(&target, "tabId", &tab_id.into());
    match frames {
        Some(frame) => set(&target, "frameIds", &Array::of1(&frame.into())),
        None => set(&target, "allFrames", &true.into()),
    }
    let injection = Object::new();
    set(&injection, "target", &target);
    set(&injection, "injectImmediately", &true.into());
    set(&injection, "func", &Reflect::get(&js_sys::global(), &func.into()).unwrap_or_default());
    injection
}

/// Web frames whose parent can't reach into them, nested ones included.
pub async fn other_origin(tab_id: i32) -> Result<Vec<FrameView>, String> {
    let results = scripting::execute_script(&run_in(tab_id, None, "duskFrameInfo")).await.map_err(|e| error_text(&e))?;
    Ok(Array::from(&results)
        .iter()
        .filter_map(|r| {
            let info: FrameInfo = from_js(Reflect::get(&r, &"result".into()).ok()?).ok()?;
            let frame_id = Reflect::get(&r, &"frameId".into()).ok()?.as_f64()? as i32;
            let web = info.url.starts_with("http://") || info.url.starts_with("https://");
            (frame_id != 0 && !info.reachable && web).then_some(FrameView { frame_id, url: info.url })
        })
        .collect())
}

/// One RPC to one such frame; a frame without Dusk's router or page layer gets them first.
pub async fn rpc(tab_id: i32, frame_id: i32, request: &ContentRequest) -> Result<ContentResponse, String> {
    let message = to_js(request);
    let first = tabs::send_message_to_frame(tab_id, frame_id, &message).await;
    let ready =
        matches!(first.as_ref().ok().map(|r| from_js::<ContentResponse>(r.clone())), Some(Ok(ref r)) if !matches!(r, ContentResponse::LayerMissing { .. }));
    let reply = if ready {
        first.map_err(|e| error_text(&e))?
    } else {
        equip(tab_id, frame_id).await?;
        tabs::send_message_to_frame(tab_id, frame_id, &message).await.map_err(|e| format!("the frame did not answer ({})", error_text(&e)))?
    };
    match from_js::<ContentResponse>(reply)? {
        ContentResponse::Error { message } => Err(message),
        other => Ok(other),
    }
}

/// The router and the page layer, in that frame only: WebAssembly first, wasm2js where its CSP refuses it.
async fn equip(tab_id: i32, frame_id: i32) -> Result<(), String> {
    scripting::execute_script(&run_in(tab_id, Some(frame_id), "duskMarkFrame")).await.map_err(|e| error_text(&e))?;
    let files = |file: &str| {
        let injection = run_in(tab_id, Some(frame_id), "");
        let _ = Reflect::delete_property(&injection, &"func".into());
        set(&injection, "files", &Array::of1(&file.into()));
        injection
    };
    scripting::execute_script(&files("content.js")).await.map_err(|e| error_text(&e))?;
    for file in Layer::Page.bundles(Presence::Missing) {
        let results = scripting::execute_script(&files(file)).await.map_err(|e| error_text(&e))?;
        let loaded = Reflect::get(&Array::from(&results).get(0), &"result".into()).ok().and_then(|v| v.as_bool()) == Some(true);
        if loaded {
            return Ok(());
        }
    }
    Err("the frame's page layer could not be loaded".into())
}
