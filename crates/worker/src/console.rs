//! Warnings to the worker's console, for failures that are Dusk's own and not the user's to see.

use wasm_bindgen::{JsCast, JsValue};

pub(crate) fn web_sys_log(message: &str) {
    js_sys::Reflect::get(&js_sys::global(), &"console".into())
        .ok()
        .and_then(|c| js_sys::Reflect::get(&c, &"warn".into()).ok())
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .map(|f| f.call1(&JsValue::NULL, &message.into()));
}
