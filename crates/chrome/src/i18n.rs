use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = ["chrome", "i18n"], js_name = getMessage)]
    fn get_message_raw(name: &str) -> String;

    #[wasm_bindgen(js_namespace = ["chrome", "i18n"], js_name = getMessage)]
    fn get_message_with(name: &str, substitutions: &js_sys::Array) -> String;

    /// The browser's UI language, e.g. "en-US" or "zh-CN".
    #[wasm_bindgen(js_namespace = ["chrome", "i18n"], js_name = getUILanguage)]
    pub fn ui_language() -> String;
}

/// The localised string for `name`, or the name itself when _locales lacks it.
pub fn message(name: &str) -> String {
    let s = get_message_raw(name);
    if s.is_empty() {
        name.to_string()
    } else {
        s
    }
}

/// The localised string for `name` with `$1`, `$2`… filled from `values`.
pub fn message_with(name: &str, values: &[&str]) -> String {
    let subs: js_sys::Array = values.iter().map(|v| JsValue::from_str(v)).collect();
    let s = get_message_with(name, &subs);
    if s.is_empty() {
        name.to_string()
    } else {
        s
    }
}
