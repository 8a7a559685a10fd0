//! Renders the conversation: entries, the streaming answer, steps and screenshots.

use super::follow::Follow;
use crate::dom;
use dusk_chrome::i18n;
use dusk_core::chat::markdown;
use dusk_core::chat::{ChatEntry, TabInfo};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::Element;

pub struct View {
    pub messages: Element,
    follow: Follow,
    /// The answer being streamed, and its raw Markdown.
    current: Option<(Element, String)>,
    /// Each answer's Retry: asks the last question again.
    on_retry: Rc<dyn Fn()>,
}

impl View {
    pub fn new(messages: Element, follow: Follow, on_retry: Rc<dyn Fn()>) -> Self {
        View { messages, follow, current: None, on_retry }
    }

    pub fn set_retry(&mut self, on_retry: Rc<dyn Fn()>) {
        self.on_retry = on_retry;
    }

    /// No question or answer yet (an empty state or starters may show).
    pub fn is_empty(&self) -> bool {
        self.messages.query_selector(".msg").ok().flatten().is_none()
    }

    pub fn clear(&mut self) {
        self.messages.set_inner_html("");
        self.current = None;
        self.follow.reset();
    }

    pub fn entry(&mut self, entry: &ChatEntry) -> Result<(), JsValue> {
        match entry {
            ChatEntry::User { text, tabs } => self.question(text, tabs),
            ChatEntry::Assistant { text, stopped, error } => {
                let el = self.answer_element()?;
                self.set_answer(&el, text)?;
                self.current = None;
                if *stopped {
                    dom::append_i18n(&el, "div", "note stopped", "stoppedNote")?;
                }
                if let Some(e) = error {
                    dom::append(&el, "div", "note error", e)?;
                }
                Ok(())
            }
            ChatEntry::Step { text, screenshot } => self.step(text, screenshot.as_deref()),
        }
    }

    pub fn question(&mut self, text: &str, tabs: &[TabInfo]) -> Result<(), JsValue> {
        super::starters::hide(&self.messages);
        let el = dom::append(&self.messages, "div", "msg user", text)?;
        if !tabs.is_empty() {
            let names: Vec<&str> = tabs.iter().map(|t| t.title.as_str()).collect();
            dom::append(&el, "div", "tabs", &names.join(" · "))?;
        }
        self.scroll();
        Ok(())
    }

    /// Appends streamed text to the current answer, re-rendering its Markdown.
    pub fn delta(&mut self, text: &str) -> Result<(), JsValue> {
        if self.current.is_none() {
            let el = self.answer_element()?;
            self.current = Some((el, String::new()));
        }
        if let Some((el, raw)) = self.current.as_mut() {
            raw.push_str(text);
            let body = el.query_selector(".md")?.ok_or("no .md")?;
            body.set_inner_html(&markdown::render(raw));
            el.set_attribute("data-raw", raw)?;
        }
        self.scroll();
        Ok(())
    }

    pub fn reset_answer(&mut self) {
        if let Some((el, _)) = self.current.take() {
            el.remove();
        }
    }

    pub fn step(&mut self, text: &str, screenshot: Option<&str>) -> Result<(), JsValue> {
        let el = dom::append(&self.messages, "div", "msg step", text)?;
        if let Some(src) = screenshot {
            let img = dom::append(&el, "img", "shot", "")?;
            img.set_attribute("src", src)?;
            img.set_attribute("alt", text)?;
        }
        self.scroll();
        Ok(())
    }

    /// Ends the streamed answer: the final text replaces what streamed, plus a note if any.
    pub fn finish(&mut self, final_text: Option<&str>, note: Option<(&str, &str)>) -> Result<(), JsValue> {
        let el = match self.current.take() {
            Some((el, _)) => el,
            None => self.answer_element()?,
        };
        if let Some(t) = final_text {
            self.set_answer(&el, t)?;
        }
        if let Some((class, text)) = note {
            dom::append(&el, "div", &format!("note {class}"), text)?;
        }
        el.class_list().remove_1("streaming")?;
        self.scroll();
        Ok(())
    }

    fn answer_element(&self) -> Result<Element, JsValue> {
        let el = dom::append(&self.messages, "div", "msg assistant streaming", "")?;
        dom::append(&el, "div", "md", "")?;
        let actions = dom::append(&el, "div", "msg-actions", "")?;
        let copy = dom::append(&actions, "button", "copy", &i18n::message("copy"))?;
        copy.set_attribute("type", "button")?;
        let (target, button) = (el.clone(), copy.clone());
        dom::on(&copy, "click", move || {
            let raw = target.get_attribute("data-raw").unwrap_or_default();
            if let Some(w) = web_sys::window() {
                let _ = w.navigator().clipboard().write_text(&raw);
            }
            button.set_text_content(Some(&i18n::message("copied")));
        })?;
        let retry = dom::append(&actions, "button", "retry", &i18n::message("retry"))?;
        retry.set_attribute("type", "button")?;
        retry.set_attribute("title", &i18n::message("retryTitle"))?;
        let on_retry = self.on_retry.clone();
        dom::on(&retry, "click", move || on_retry())?;
        Ok(el)
    }

    fn set_answer(&self, el: &Element, text: &str) -> Result<(), JsValue> {
        let body = el.query_selector(".md")?.ok_or("no .md")?;
        body.set_inner_html(&markdown::render(text));
        copy_buttons(&body)?;
        el.set_attribute("data-raw", text)?;
        el.class_list().remove_1("streaming")
    }

    fn scroll(&self) {
        self.follow.changed();
    }
}

/// A Copy button on each finished code block, copying the block's text.
fn copy_buttons(body: &Element) -> Result<(), JsValue> {
    let blocks = body.query_selector_all("pre")?;
    for i in 0..blocks.length() {
        let Some(pre) = blocks.item(i).and_then(|n| n.dyn_into::<Element>().ok()) else { continue };
        // An icon with a label and no text, so the block's own text stays the code.
        let code = pre.query_selector("code")?.unwrap_or_else(|| pre.clone());
        let button = crate::icons::button(&pre, "", crate::icons::Icon::Copy, &i18n::message("copyCode"))?;
        button.remove_attribute("id")?;
        button.set_class_name("icon-button code-copy");
        let label = button.clone();
        dom::on(&button, "click", move || {
            let text = code.text_content().unwrap_or_default();
            if let Some(w) = web_sys::window() {
                let _ = w.navigator().clipboard().write_text(&text);
            }
            let _ = label.set_attribute("aria-label", &i18n::message("copied"));
            let _ = label.set_attribute("data-tip", &i18n::message("copied"));
        })?;
    }
    Ok(())
}
