//! Options' navigation: one link and one hash route per section, sticky on the left, a drawer
//! below 980 px. The hash picks the section (a link, the address bar, Back); arrow keys move
//! along the links.

use crate::dom;
use crate::icons::{self, Icon};
use dusk_chrome::i18n;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement, KeyboardEvent};

/// The sections, in order: (hash, title key, icon).
const SECTIONS: [(&str, &str, Icon); 6] = [
    ("provider", "optNavProvider", Icon::Spark),
    ("dark-mode", "optNavDark", Icon::Moon),
    ("browser-agent", "optNavAgent", Icon::Agent),
    ("customised-sites", "optNavCustom", Icon::Palette),
    ("data", "optNavData", Icon::Data),
    ("about", "optNavAbout", Icon::Info),
];

pub struct Sections {
    pub provider: Element,
    pub dark: Element,
    pub agent: Element,
    pub custom: Element,
    pub data: Element,
    pub about: Element,
}

pub fn render(body: &HtmlElement) -> Result<Sections, JsValue> {
    let top = dom::append(body, "header", "options-top", "")?;
    let toggle = icons::button(&top, "nav-toggle", Icon::Menu, &i18n::message("optNavOpen"))?;
    toggle.set_attribute("aria-expanded", "false")?;
    toggle.set_attribute("aria-controls", "options-nav")?;
    dom::append_i18n(&top, "span", "options-top-title", "optionsTitle")?;
    let layout = dom::append(body, "div", "options-layout", "")?;
    let nav = dom::append(&layout, "nav", "options-nav", "")?;
    nav.set_id("options-nav");
    nav.set_attribute("aria-label", &i18n::message("optNavLabel"))?;
    let brand = dom::append(&nav, "h1", "brand", "")?;
    icons::append(&brand, Icon::Moon)?;
    dom::append_i18n(&brand, "span", "", "optionsTitle")?;
    let main = dom::append(&layout, "main", "options-main", "")?;
    let mut out = Vec::new();
    for (hash, key, icon) in SECTIONS {
        let link = dom::append(&nav, "a", "", "")?;
        link.set_attribute("href", &format!("#{hash}"))?;
        link.set_id(&format!("nav-{hash}"));
        icons::append(&link, icon)?;
        dom::append_i18n(&link, "span", "", key)?;
        let section = dom::append(&main, "section", "", "")?;
        // `sec-`: the provider form's own select is `#provider`; the hash still names the section.
        section.set_id(&format!("sec-{hash}"));
        section.set_attribute("aria-labelledby", &format!("{hash}-title"))?;
        section.set_attribute("tabindex", "-1")?;
        dom::append_i18n(&section, "h2", "", key)?.set_id(&format!("{hash}-title"));
        out.push(section);
    }
    bind(&nav, &toggle)?;
    mark_current();
    let mut it = out.into_iter();
    let mut next = || it.next().ok_or_else(|| JsValue::from_str("section"));
    Ok(Sections { provider: next()?, dark: next()?, agent: next()?, custom: next()?, data: next()?, about: next()? })
}

/// The section the hash names (Data's import reloads with `#imported`); Provider when none.
fn current() -> &'static str {
    let hash = web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default();
    match hash.trim_start_matches('#') {
        "imported" => "data",
        h => SECTIONS.iter().find(|s| s.0 == h).map_or("provider", |s| s.0),
    }
}

fn mark_current() {
    let at = current();
    for (hash, _, _) in SECTIONS {
        if let Some(link) = dom::document().ok().and_then(|d| d.get_element_by_id(&format!("nav-{hash}"))) {
            let _ = if hash == at { link.set_attribute("aria-current", "page") } else { link.remove_attribute("aria-current") };
        }
    }
}

/// The page has all its sections: go to the one the address names (rendered after the browser's
/// own jump, which found nothing to scroll to).
pub fn arrived() {
    let at = current();
    // No hash: the page starts at its top, where Provider is.
    if at == "provider" && web_sys::window().and_then(|w| w.location().hash().ok()).is_none_or(|h| h != "#provider") {
        return;
    }
    if let Some(section) = dom::document().ok().and_then(|d| d.get_element_by_id(&format!("sec-{at}"))) {
        section.scroll_into_view();
    }
}

fn bind(nav: &Element, toggle: &Element) -> Result<(), JsValue> {
    let window = web_sys::window().ok_or("no window")?;
    let (drawer, button) = (nav.clone(), toggle.clone());
    let on_hash = Closure::<dyn Fn()>::new(move || {
        mark_current();
        close(&drawer, &button, false);
        if let Some(section) = dom::document().ok().and_then(|d| d.get_element_by_id(&format!("sec-{}", current()))) {
            section.scroll_into_view();
            let _ = section.dyn_ref::<HtmlElement>().map(|s| s.focus());
        }
    });
    window.add_event_listener_with_callback("hashchange", on_hash.as_ref().unchecked_ref())?;
    on_hash.forget();
    let (drawer, button) = (nav.clone(), toggle.clone());
    dom::on(toggle, "click", move || {
        let open = !drawer.class_list().contains("open");
        let _ = drawer.class_list().toggle_with_force("open", open);
        let _ = button.set_attribute("aria-expanded", if open { "true" } else { "false" });
        if open {
            if let Ok(Some(first)) = drawer.query_selector("a[aria-current]") {
                let _ = first.dyn_ref::<HtmlElement>().map(|a| a.focus());
            }
        }
    })?;
    let (drawer, button) = (nav.clone(), toggle.clone());
    let on_key = Closure::<dyn Fn(KeyboardEvent)>::new(move |e: KeyboardEvent| {
        let Ok(links) = drawer.query_selector_all("a") else { return };
        let links: Vec<HtmlElement> = (0..links.length()).filter_map(|i| links.item(i)?.dyn_into::<HtmlElement>().ok()).collect();
        let focused = dom::document().ok().and_then(|d| d.active_element());
        let at = links.iter().position(|l| focused.as_ref().is_some_and(|f| f.is_same_node(Some(l))));
        let to = match (e.key().as_str(), at) {
            ("ArrowDown", Some(a)) => (a + 1) % links.len(),
            ("ArrowUp", Some(a)) => (a + links.len() - 1) % links.len(),
            ("Home", Some(_)) => 0,
            ("End", Some(_)) => links.len() - 1,
            ("Escape", _) => {
                close(&drawer, &button, true);
                return;
            }
            _ => return,
        };
        e.prevent_default();
        let _ = links[to].focus();
    });
    nav.add_event_listener_with_callback("keydown", on_key.as_ref().unchecked_ref())?;
    on_key.forget();
    Ok(())
}

/// Closes the drawer (a no-op when the navigation is not one); focus back on its button.
fn close(drawer: &Element, button: &Element, refocus: bool) {
    if !drawer.class_list().contains("open") {
        return;
    }
    let _ = drawer.class_list().remove_1("open");
    let _ = button.set_attribute("aria-expanded", "false");
    if refocus {
        let _ = button.dyn_ref::<HtmlElement>().map(|b| b.focus());
    }
}
