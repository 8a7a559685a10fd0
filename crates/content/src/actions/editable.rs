//! Which elements take typed text, and how: a form field, or a rich editor (contenteditable).

use crate::dom::tag;
use web_sys::Element;

pub const EDITABLE: &str = "input,textarea,[contenteditable]:not([contenteditable=false])";
const NON_TEXT_INPUTS: [&str; 10] = ["checkbox", "radio", "button", "submit", "reset", "file", "image", "color", "range", "hidden"];

pub enum Editable {
    Field,
    Rich,
}

pub fn editable_kind(el: &Element) -> Option<Editable> {
    match tag(el).as_str() {
        "input" => {
            let t = el.get_attribute("type").unwrap_or_default().to_ascii_lowercase();
            (!NON_TEXT_INPUTS.contains(&t.as_str())).then_some(Editable::Field)
        }
        "textarea" => Some(Editable::Field),
        _ if crate::dom::as_html(el).is_some_and(|h| h.is_content_editable()) => Some(Editable::Rich),
        _ => None,
    }
}
