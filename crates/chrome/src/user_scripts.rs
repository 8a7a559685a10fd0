use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = ["chrome", "userScripts"], js_name = execute, catch)]
    fn execute_promise(injection: &JsValue) -> Result<js_sys::Promise, JsValue>;

    #[wasm_bindgen(js_namespace = ["chrome", "userScripts"], js_name = register, catch)]
    fn register_promise(scripts: &JsValue) -> Result<js_sys::Promise, JsValue>;

    #[wasm_bindgen(js_namespace = ["chrome", "userScripts"], js_name = getScripts, catch)]
    fn get_scripts_promise() -> Result<js_sys::Promise, JsValue>;

    #[wasm_bindgen(js_namespace = ["chrome", "userScripts"], js_name = unregister, catch)]
    fn unregister_promise(filter: &JsValue) -> Result<js_sys::Promise, JsValue>;
}

/// Whether `chrome.userScripts` exists: the user has allowed user scripts for Dusk.
pub fn available() -> bool {
    let chrome = js_sys::Reflect::get(&js_sys::global(), &"chrome".into()).unwrap_or(JsValue::UNDEFINED);
    let api = js_sys::Reflect::get(&chrome, &"userScripts".into()).unwrap_or(JsValue::UNDEFINED);
    !api.is_undefined() && js_sys::Reflect::has(&api, &"execute".into()).unwrap_or(false)
}

/// Whether user scripts are allowed now: the API stays defined after the user switches the
/// toggle off, but then refuses every call.
pub async fn allowed() -> bool {
    if !available() {
        return false;
    }
    match get_scripts_promise() {
        Ok(p) => JsFuture::from(p).await.is_ok(),
        Err(_) => false,
    }
}

/// `chrome.userScripts.execute(injection)` (Chrome 135+): one InjectionResult per frame.
pub async fn execute(injection: &JsValue) -> Result<JsValue, JsValue> {
    JsFuture::from(execute_promise(injection)?).await
}

/// `chrome.userScripts.register(scripts)`.
pub async fn register(scripts: &JsValue) -> Result<JsValue, JsValue> {
    JsFuture::from(register_promise(scripts)?).await
}

/// `chrome.userScripts.unregister(filter)`.
pub async fn unregister(filter: &JsValue) -> Result<JsValue, JsValue> {
    JsFuture::from(unregister_promise(filter)?).await
}
