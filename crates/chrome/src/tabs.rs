use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = ["chrome", "tabs"], js_name = sendMessage, catch)]
    fn send_message_promise(tab_id: i32, message: &JsValue) -> Result<js_sys::Promise, JsValue>;
}

/// Sends a message to the content script of `tab_id` (top frame) and awaits the reply.
pub async fn send_message(tab_id: i32, message: &JsValue) -> Result<JsValue, JsValue> {
    JsFuture::from(send_message_promise(tab_id, message)?).await
}

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = ["chrome", "tabs"], js_name = get, catch)]
    fn get_promise(tab_id: i32) -> Result<js_sys::Promise, JsValue>;

    #[wasm_bindgen(js_namespace = ["chrome", "tabs"], js_name = query, catch)]
    fn query_promise(query: &JsValue) -> Result<js_sys::Promise, JsValue>;
}

/// `chrome.tabs.get(tabId)`: the Tab object (its `url` is absent where we lack access).
pub async fn get(tab_id: i32) -> Result<JsValue, JsValue> {
    JsFuture::from(get_promise(tab_id)?).await
}

/// `chrome.tabs.query(queryInfo)`: an array of Tab objects.
pub async fn query(query: &JsValue) -> Result<JsValue, JsValue> {
    JsFuture::from(query_promise(query)?).await
}
