use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = ["chrome", "i18n"], js_name = getMessage)]
    fn get_message_raw(name: &str) -> String;

    #[wasm_bindgen(js_namespace = ["chrome", "i18n"], js_name = getMessage)]
    fn get_message_subs(name: &str, substitutions: js_sys::Array) -> String;

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

/// The localised string for `name` with `$1`… filled from `subs`; the name itself when missing.
pub fn message_with(name: &str, subs: &[&str]) -> String {
    let array = subs.iter().map(|s| wasm_bindgen::JsValue::from_str(s)).collect::<js_sys::Array>();
    let s = get_message_subs(name, array);
    if s.is_empty() {
        name.to_string()
    } else {
        s
    }
}
