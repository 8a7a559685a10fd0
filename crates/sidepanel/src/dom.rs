//! Small helpers to build elements; text is always set as text, never parsed as HTML.

use dusk_chrome::i18n;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Document, Element, HtmlElement, HtmlInputElement, HtmlSelectElement};

pub fn document() -> Result<Document, JsValue> {
    web_sys::window().and_then(|w| w.document()).ok_or_else(|| JsValue::from_str("no document"))
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

/// A labelled `<input>` inside `parent`.
pub fn input(parent: &Element, id: &str, label: &str, kind: &str) -> Result<HtmlInputElement, JsValue> {
    let row = append(parent, "label", "field", "")?;
    append_i18n(&row, "span", "label", label)?;
    let input: HtmlInputElement = append(&row, "input", "", "")?.dyn_into()?;
    input.set_id(id);
    input.set_type(kind);
    input.set_autocomplete("off");
    Ok(input)
}

/// A labelled `<select>` with (value, text) options inside `parent`.
pub fn select(parent: &Element, id: &str, label: &str, options: &[(&str, String)]) -> Result<HtmlSelectElement, JsValue> {
    let row = append(parent, "label", "field", "")?;
    append_i18n(&row, "span", "label", label)?;
    let select: HtmlSelectElement = append(&row, "select", "", "")?.dyn_into()?;
    select.set_id(id);
    for (value, text) in options {
        let option = append(&select, "option", "", text)?;
        option.set_attribute("value", value)?;
    }
    Ok(select)
}

/// Runs `f` on every `event` of `target`, for the page's lifetime.
pub fn on(target: &Element, event: &str, f: impl FnMut() + 'static) -> Result<(), JsValue> {
    let closure = Closure::<dyn FnMut()>::new(f);
    target.add_event_listener_with_callback(event, closure.as_ref().unchecked_ref())?;
    closure.forget();
    Ok(())
}

/// Saves `text` as a file of type `mime` through a hidden link `#id` (kept, so tests can read it).
pub fn download_text(parent: &Element, id: &str, filename: &str, mime: &str, text: &str) -> Result<(), JsValue> {
    if let Some(old) = document()?.get_element_by_id(id) {
        old.remove();
    }
    let link: HtmlElement = append(parent, "a", "", "")?.dyn_into()?;
    link.set_id(id);
    link.set_attribute("hidden", "")?;
    link.set_attribute("download", filename)?;
    link.set_attribute("href", &format!("data:{mime};charset=utf-8,{}", js_sys::encode_uri_component(text)))?;
    link.click();
    Ok(())
}

/// Saves `value` as a JSON file through a hidden link `#id` (kept, so tests can read it).
pub fn download_json(parent: &Element, id: &str, filename: &str, value: &serde_json::Value) -> Result<(), JsValue> {
    if let Some(old) = document()?.get_element_by_id(id) {
        old.remove();
    }
    let text = serde_json::to_string_pretty(value).unwrap_or_default();
    let link: HtmlElement = append(parent, "a", "", "")?.dyn_into()?;
    link.set_id(id);
    link.set_attribute("hidden", "")?;
    link.set_attribute("download", filename)?;
    link.set_attribute("href", &format!("data:application/json;charset=utf-8,{}", js_sys::encode_uri_component(&text)))?;
    link.click();
    Ok(())
}
