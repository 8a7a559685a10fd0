//! One-click starters on an empty chat: Summarise this page, Key points, Explain the selection.

use crate::dom;
use dusk_chrome::i18n;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use web_sys::Element;

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Starter {
    Summarise,
    KeyPoints,
    Selection,
}

impl Starter {
    /// The question each one asks, in the user's language.
    pub fn question(self) -> String {
        i18n::message(match self {
            Starter::Summarise => "starterSummariseQuestion",
            Starter::KeyPoints => "starterKeyPointsQuestion",
            Starter::Selection => "starterSelectionQuestion",
        })
    }
}

/// Shows the starters at the top of an empty conversation.
pub fn show(messages: &Element, on_pick: Rc<dyn Fn(Starter)>) -> Result<(), JsValue> {
    let group = dom::append(messages, "div", "starters", "")?;
    group.set_id("starters");
    group.set_attribute("role", "group")?;
    group.set_attribute("aria-label", &i18n::message("startersLabel"))?;
    dom::append_i18n(&group, "p", "starters-title", "startersLabel")?;
    for (starter, id, label) in [
        (Starter::Summarise, "starter-summarise", "starterSummarise"),
        (Starter::KeyPoints, "starter-key-points", "starterKeyPoints"),
        (Starter::Selection, "starter-selection", "starterSelection"),
    ] {
        let button = dom::append_i18n(&group, "button", "starter", label)?;
        button.set_id(id);
        let on_pick = on_pick.clone();
        dom::on(&button, "click", move || on_pick(starter))?;
    }
    Ok(())
}

/// Takes the starters away once the conversation has begun.
pub fn hide(messages: &Element) {
    if let Ok(Some(el)) = messages.query_selector(".starters") {
        el.remove();
    }
}
