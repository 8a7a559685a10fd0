//! Converting typed messages to and from the JSON values chrome.runtime carries.

use serde::{de::DeserializeOwned, Serialize};
use wasm_bindgen::JsValue;

/// chrome.runtime messages are JSON, so maps must become plain objects, not `Map`.
pub fn to_js<T: Serialize>(value: &T) -> JsValue {
    let serializer = serde_wasm_bindgen::Serializer::json_compatible();
    value.serialize(&serializer).unwrap_or(JsValue::NULL)
}

/// Reads a message from the JSON text the browser writes in one call, so serde's error names the
/// bad field or unknown `type`. Walking the value from wasm instead costs several times as much
/// on a large message, and recursed once per level of nesting: a message nested thousands deep
/// overran the wasm stack, where the text's parser stops at its recursion limit.
pub fn from_js<T: DeserializeOwned>(value: JsValue) -> Result<T, String> {
    let text = js_sys::JSON::stringify(&value).map_err(|e| error_text(&e))?.as_string().ok_or("the message is not JSON")?;
    from_text(&text)
}

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    type TextEncoder;
    #[wasm_bindgen(constructor)]
    fn new() -> TextEncoder;
    #[wasm_bindgen(method)]
    fn encode(this: &TextEncoder, text: &JsValue) -> js_sys::Uint8Array;
}

thread_local! {
    static ENCODER: TextEncoder = TextEncoder::new();
}

/// A JS string's text, or None for any other value. A long text is encoded by the browser and
/// copied in one piece: `as_string` walks it in JS up to its first non-ASCII character.
pub fn long_text(value: &JsValue) -> Option<String> {
    if !value.is_string() {
        return None;
    }
    String::from_utf8(ENCODER.with(|e| e.encode(value)).to_vec()).ok()
}

/// A message sent as its JSON text.
pub fn from_text<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    dusk_core::protocol::from_str(text).map_err(|e| format!("malformed message: {e}"))
}

/// Best-effort text for a JsValue error (an Error's message, or its string form).
pub fn error_text(e: &JsValue) -> String {
    js_sys::Reflect::get(e, &"message".into()).ok().and_then(|m| m.as_string()).or_else(|| e.as_string()).unwrap_or_else(|| format!("{e:?}"))
}
