//! `chrome.contextMenus`: items are created once per install; clicks arrive in worker.js.

use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = ["chrome", "contextMenus"], js_name = removeAll, catch)]
    fn remove_all_raw() -> Result<js_sys::Promise, JsValue>;
    #[wasm_bindgen(js_namespace = ["chrome", "contextMenus"], js_name = create, catch)]
    fn create_raw(properties: &JsValue) -> Result<JsValue, JsValue>;
}

pub async fn remove_all() -> Result<(), JsValue> {
    JsFuture::from(remove_all_raw()?).await.map(|_| ())
}

/// `contextMenus.create({id, title, contexts: [context]})`.
pub fn create(id: &str, title: &str, context: &str) -> Result<(), JsValue> {
    let o = js_sys::Object::new();
    js_sys::Reflect::set(&o, &"id".into(), &id.into())?;
    js_sys::Reflect::set(&o, &"title".into(), &title.into())?;
    js_sys::Reflect::set(&o, &"contexts".into(), &js_sys::Array::of1(&context.into()))?;
    create_raw(&o).map(|_| ())
}
