//! Small helpers to build elements; text is always set as text, never parsed as HTML.

use dusk_chrome::i18n;
use wasm_bindgen::JsValue;
use web_sys::{Document, Element, HtmlElement};

pub fn document() -> Result<Document, JsValue> {
    web_sys::window()
        .and_then(|w| w.document())
        .ok_or_else(|| JsValue::from_str("no document"))
}

pub fn body() -> Result<HtmlElement, JsValue> {
    document()?.body().ok_or_else(|| JsValue::from_str("no body"))
}

/// `<tag class=class>text</tag>` appended to `parent`.
pub fn append(parent: &Element, tag: &str, class: &str, text: &str) -> Result<Element, JsValue> {
    let el = document()?.create_element(tag)?;
    if !class.is_empty() {
        el.set_class_name(class);
    }
    if !text.is_empty() {
        el.set_text_content(Some(text));
    }
    parent.append_child(&el)?;
    Ok(el)
}

/// Like `append`, with the text taken from _locales by message name.
pub fn append_i18n(parent: &Element, tag: &str, class: &str, message: &str) -> Result<Element, JsValue> {
    append(parent, tag, class, &i18n::message(message))
}
