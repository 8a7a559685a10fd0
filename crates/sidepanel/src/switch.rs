//! The one on/off switch every page draws: a button with `role="switch"` (Space and Enter toggle
//! it), labelled by the text beside it.

use crate::dom;
use wasm_bindgen::JsValue;
use web_sys::Element;

/// A labelled switch in a `label.switch-row` appended to `parent`; returns its button.
pub fn switch(parent: &Element, id: &str, message_key: &str, on: bool) -> Result<Element, JsValue> {
    let row = dom::append(parent, "label", "switch-row", "")?;
    let text = dom::append_i18n(&row, "span", "switch-text", message_key)?;
    text.set_id(&format!("{id}-label"));
    let button = dom::append(&row, "button", "switch small", "")?;
    button.set_id(id);
    button.set_attribute("type", "button")?;
    button.set_attribute("role", "switch")?;
    button.set_attribute("aria-labelledby", &format!("{id}-label"))?;
    set_on(&button, on);
    Ok(button)
}

pub fn set_on(switch: &Element, on: bool) {
    let _ = switch.set_attribute("aria-checked", if on { "true" } else { "false" });
}

pub fn is_on(switch: &Element) -> bool {
    switch.get_attribute("aria-checked").as_deref() == Some("true")
}
