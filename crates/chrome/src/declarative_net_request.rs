//! `chrome.declarativeNetRequest`: session rules, which Chrome applies before a request leaves.
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = ["chrome", "declarativeNetRequest"], js_name = updateSessionRules, catch)]
    fn update_session_rules_promise(options: &JsValue) -> Result<js_sys::Promise, JsValue>;

    #[wasm_bindgen(js_namespace = ["chrome", "declarativeNetRequest"], js_name = getSessionRules, catch)]
    fn get_session_rules_promise() -> Result<js_sys::Promise, JsValue>;
}

/// Adds and removes session rules in one atomic update.
pub async fn update_session_rules(options: &JsValue) -> Result<JsValue, JsValue> {
    JsFuture::from(update_session_rules_promise(options)?).await
}

/// The session rules in force (each with its `id`).
pub async fn get_session_rules() -> Result<JsValue, JsValue> {
    JsFuture::from(get_session_rules_promise()?).await
}
