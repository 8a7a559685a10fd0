//! The composer, pinned at the bottom: the text box, a row of chips (provider/model, and in Agent
//! mode the permission chip), and one 32 px button that never moves. It shows Send, disabled
//! while the box is empty, and turns into Stop while something runs.

use crate::dom;
use crate::icons::{self, Icon};
use dusk_chrome::i18n;
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlTextAreaElement};

#[derive(Clone)]
pub struct Composer {
    pub text: HtmlTextAreaElement,
    pub chips: Element,
    pub button: Element,
    running: Rc<Cell<bool>>,
}

impl Composer {
    pub fn new(parent: &Element, text_id: &str, button_id: &str, placeholder: &str) -> Result<Composer, JsValue> {
        let root = dom::append(parent, "div", "composer", "")?;
        let text: HtmlTextAreaElement = dom::append(&root, "textarea", "", "")?.dyn_into()?;
        text.set_id(text_id);
        text.set_rows(2);
        let bar = dom::append(&root, "div", "composer-bar", "")?;
        let chips = dom::append(&bar, "div", "chips", "")?;
        let button = dom::append(&bar, "button", "send", "")?;
        button.set_id(button_id);
        button.set_attribute("type", "button")?;
        let composer = Composer { text, chips, button, running: Rc::new(Cell::new(false)) };
        composer.set_placeholder(placeholder);
        composer.show();
        let me = composer.clone();
        dom::on(composer.text.as_ref(), "input", move || me.show())?;
        Ok(composer)
    }

    pub fn set_placeholder(&self, key: &str) {
        let text = i18n::message(key);
        self.text.set_placeholder(&text);
        let _ = self.text.set_attribute("aria-label", &text);
    }

    pub fn running(&self) -> bool {
        self.running.get()
    }

    pub fn set_running(&self, running: bool) {
        self.running.set(running);
        self.show();
    }

    /// Empties the box (after a send) and updates the button.
    pub fn take(&self) -> String {
        let text = self.text.value().trim().to_string();
        self.text.set_value("");
        self.show();
        text
    }

    /// Send or Stop, by state; Send is disabled while the box is empty.
    pub fn show(&self) {
        let b = &self.button;
        let (state, key, icon) = if self.running.get() { ("stop", "stop", Icon::Stop) } else { ("send", "send", Icon::Send) };
        if b.get_attribute("data-state").as_deref() != Some(state) {
            let _ = b.set_attribute("data-state", state);
            let label = i18n::message(key);
            let _ = b.set_attribute("aria-label", &label);
            let _ = b.set_attribute("data-tip", &label);
            let _ = icons::replace(b, icon);
        }
        let empty = self.text.value().trim().is_empty();
        let _ = b.toggle_attribute_with_force("disabled", !self.running.get() && empty);
    }

    /// Enter sends (Shift+Enter adds a line; ignored while an IME composes); the button sends or stops.
    pub fn bind(&self, send: Rc<dyn Fn()>, stop: Rc<dyn Fn()>) -> Result<(), JsValue> {
        let me = self.clone();
        let (on_send, on_stop) = (send.clone(), stop);
        dom::on(&self.button, "click", move || if me.running.get() { on_stop() } else { on_send() })?;
        let on_key = Closure::<dyn Fn(web_sys::KeyboardEvent)>::new(move |e: web_sys::KeyboardEvent| {
            if e.key() == "Enter" && !e.shift_key() && !e.is_composing() {
                e.prevent_default();
                send();
            }
        });
        self.text.add_event_listener_with_callback("keydown", on_key.as_ref().unchecked_ref())?;
        on_key.forget();
        Ok(())
    }

    /// A chip: a small round button with an icon and a label.
    pub fn chip(&self, id: &str, icon: Icon) -> Result<Element, JsValue> {
        let chip = dom::append(&self.chips, "button", "chip", "")?;
        chip.set_id(id);
        chip.set_attribute("type", "button")?;
        icons::append(&chip, icon)?;
        dom::append(&chip, "span", "chip-text", "")?;
        Ok(chip)
    }
}

/// Sets a chip's visible text (its name) and its longer description (tooltip and screen readers).
pub fn set_chip(chip: &Element, text: &str, description: &str) {
    if let Ok(Some(span)) = chip.query_selector(".chip-text") {
        span.set_text_content(Some(text));
    }
    let _ = chip.set_attribute("title", description);
}
