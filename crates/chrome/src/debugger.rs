//! `chrome.debugger`: attach to a tab, send DevTools protocol commands, detach.

use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = ["chrome", "debugger"], js_name = attach, catch)]
    fn attach_promise(target: &JsValue, version: &str) -> Result<js_sys::Promise, JsValue>;

    #[wasm_bindgen(js_namespace = ["chrome", "debugger"], js_name = detach, catch)]
    fn detach_promise(target: &JsValue) -> Result<js_sys::Promise, JsValue>;

    #[wasm_bindgen(js_namespace = ["chrome", "debugger"], js_name = sendCommand, catch)]
    fn send_command_promise(target: &JsValue, method: &str, params: &JsValue) -> Result<js_sys::Promise, JsValue>;
}

fn tab(tab_id: i32) -> JsValue {
    let target = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&target, &"tabId".into(), &tab_id.into());
    target.into()
}

/// `chrome.debugger.attach({tabId}, "1.3")`.
pub async fn attach(tab_id: i32) -> Result<JsValue, JsValue> {
    JsFuture::from(attach_promise(&tab(tab_id), "1.3")?).await
}

/// `chrome.debugger.detach({tabId})`.
pub async fn detach(tab_id: i32) -> Result<JsValue, JsValue> {
    JsFuture::from(detach_promise(&tab(tab_id))?).await
}

/// `chrome.debugger.sendCommand({tabId}, method, params)`: the command's result.
pub async fn send_command(tab_id: i32, method: &str, params: &JsValue) -> Result<JsValue, JsValue> {
    JsFuture::from(send_command_promise(&tab(tab_id), method, params)?).await
}

/// `send_command` as a promise, for sending many at once (Promise.allSettled).
pub fn command(tab_id: i32, method: &str, params: &JsValue) -> Result<js_sys::Promise, JsValue> {
    send_command_promise(&tab(tab_id), method, params)
}
