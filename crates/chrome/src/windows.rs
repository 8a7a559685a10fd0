use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = ["chrome", "windows"], js_name = getCurrent, catch)]
    fn get_current_promise() -> Result<js_sys::Promise, JsValue>;
}

/// The id of the window this page lives in.
pub async fn current_id() -> Result<i32, JsValue> {
    let w = JsFuture::from(get_current_promise()?).await?;
    js_sys::Reflect::get(&w, &"id".into())?.as_f64().map(|n| n as i32).ok_or_else(|| "window without id".into())
}
