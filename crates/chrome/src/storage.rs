use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = ["chrome", "storage", "local"], js_name = get, catch)]
    fn local_get_promise(keys: &JsValue) -> Result<js_sys::Promise, JsValue>;

    #[wasm_bindgen(js_namespace = ["chrome", "storage", "local"], js_name = set, catch)]
    fn local_set_promise(items: &JsValue) -> Result<js_sys::Promise, JsValue>;
}

/// `chrome.storage.local.get(key)`: the stored value, or undefined.
pub async fn local_get(key: &str) -> Result<JsValue, JsValue> {
    let all = JsFuture::from(local_get_promise(&JsValue::from_str(key))?).await?;
    js_sys::Reflect::get(&all, &JsValue::from_str(key))
}

/// `chrome.storage.local.set({key: value})`.
pub async fn local_set(key: &str, value: &JsValue) -> Result<(), JsValue> {
    let items = js_sys::Object::new();
    js_sys::Reflect::set(&items, &JsValue::from_str(key), value)?;
    JsFuture::from(local_set_promise(&items)?).await.map(|_| ())
}
