//! Whether the user has acted in the popup since a moment: a delayed redraw must not take the
//! control they are using from under them.

use crate::dom;
use wasm_bindgen::JsValue;
use web_sys::Element;

thread_local! {
    /// How many times the user has pressed, typed or pointed in the popup.
    static TOUCHES: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

pub fn note_touches(body: &Element) -> Result<(), JsValue> {
    for event in ["keydown", "pointerdown", "input"] {
        dom::on(body, event, || TOUCHES.with(|t| t.set(t.get().wrapping_add(1))))?;
    }
    Ok(())
}

pub fn touches() -> u32 {
    TOUCHES.with(|t| t.get())
}
