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
