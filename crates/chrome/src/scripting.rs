use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = ["chrome", "scripting"], js_name = registerContentScripts, catch)]
    fn register_promise(scripts: &JsValue) -> Result<js_sys::Promise, JsValue>;

    #[wasm_bindgen(js_namespace = ["chrome", "scripting"], js_name = unregisterContentScripts, catch)]
    fn unregister_promise(filter: &JsValue) -> Result<js_sys::Promise, JsValue>;
}

/// `chrome.scripting.registerContentScripts(scripts)`.
pub async fn register_content_scripts(scripts: &JsValue) -> Result<JsValue, JsValue> {
    JsFuture::from(register_promise(scripts)?).await
}

/// `chrome.scripting.unregisterContentScripts(filter)`.
pub async fn unregister_content_scripts(filter: &JsValue) -> Result<JsValue, JsValue> {
    JsFuture::from(unregister_promise(filter)?).await
}

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = ["chrome", "scripting"], js_name = executeScript, catch)]
    fn execute_script_promise(injection: &JsValue) -> Result<js_sys::Promise, JsValue>;
}

/// `chrome.scripting.executeScript(injection)`: one InjectionResult per frame.
pub async fn execute_script(injection: &JsValue) -> Result<JsValue, JsValue> {
    JsFuture::from(execute_script_promise(injection)?).await
}

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = ["chrome", "scripting"], js_name = getRegisteredContentScripts, catch)]
    fn get_registered_promise() -> Result<js_sys::Promise, JsValue>;
}

/// `chrome.scripting.getRegisteredContentScripts()`: every script this extension registered.
pub async fn get_registered_content_scripts() -> Result<JsValue, JsValue> {
    JsFuture::from(get_registered_promise()?).await
}
