use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = ["chrome", "sidePanel"], js_name = open, catch)]
    fn open_raw(options: &JsValue) -> Result<js_sys::Promise, JsValue>;
}

/// Opens the side panel in a window. Must run inside the user's click, before any await.
pub fn open(window_id: i32) -> Result<js_sys::Promise, JsValue> {
    let options = js_sys::Object::new();
    js_sys::Reflect::set(&options, &"windowId".into(), &window_id.into())?;
    open_raw(&options)
}
