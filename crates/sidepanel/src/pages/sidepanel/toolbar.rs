//! The panel's one 44 px toolbar: the Chat | Agent | Customize tablist on the left (arrow keys
//! move between tabs, one Tab stop), then New, History and More (Export run, Settings, Help) as
//! icon buttons with their names as labels and tooltips. Esc closes the menu and returns focus.

use crate::dom;
use crate::icons::{self, Icon};
use dusk_chrome::i18n;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement, KeyboardEvent};

pub struct Toolbar {
    pub tabs: [Element; 3],
    pub new: Element,
    pub history: Element,
    pub export: Element,
    pub settings: Element,
    pub help: Element,
}

pub fn render(body: &Element) -> Result<Toolbar, JsValue> {
    // Chrome draws the panel's title; this one is for screen readers' heading list.
    dom::append_i18n(body, "h1", "visually-hidden", "sidepanelTitle")?;
    let bar = dom::append(body, "header", "toolbar", "")?;
    let list = dom::append(&bar, "div", "tabs", "")?;
    list.set_attribute("role", "tablist")?;
    list.set_attribute("aria-label", &i18n::message("modesLabel"))?;
    let mut tabs = Vec::new();
    for (i, (id, key, pane)) in
        [("mode-chat", "modeChat", "chat-pane"), ("mode-agent", "modeAgent", "agent-pane"), ("mode-customize", "modeCustomize", "agent-pane")]
            .into_iter()
            .enumerate()
    {
        let tab = dom::append_i18n(&list, "button", "mode", key)?;
        tab.set_id(id);
        tab.set_attribute("type", "button")?;
        tab.set_attribute("role", "tab")?;
        tab.set_attribute("aria-controls", pane)?;
        tab.set_attribute("aria-selected", if i == 0 { "true" } else { "false" })?;
        tab.set_attribute("tabindex", if i == 0 { "0" } else { "-1" })?;
        tabs.push(tab);
    }
    let tabs: [Element; 3] = [tabs[0].clone(), tabs[1].clone(), tabs[2].clone()];
    arrow_keys(&list, tabs.clone())?;
    dom::append(&bar, "span", "spacer", "")?;
    let new = icons::button(&bar, "new-chat", Icon::New, &i18n::message("newChat"))?;
    let history = icons::button(&bar, "open-history", Icon::History, &i18n::message("historyButton"))?;
    history.set_attribute("aria-pressed", "false")?;
    let wrap = dom::append(&bar, "div", "menu-wrap", "")?;
    let more = icons::button(&wrap, "more", Icon::More, &i18n::message("moreButton"))?;
    more.set_attribute("aria-haspopup", "menu")?;
    more.set_attribute("aria-expanded", "false")?;
    more.set_attribute("aria-controls", "more-menu")?;
    let menu = dom::append(&wrap, "div", "menu", "")?;
    menu.set_id("more-menu");
    menu.set_attribute("role", "menu")?;
    menu.set_attribute("aria-label", &i18n::message("moreButton"))?;
    menu.set_attribute("hidden", "")?;
    let item = |id: &str, icon: Icon, key: &str| -> Result<Element, JsValue> {
        let b = dom::append(&menu, "button", "", "")?;
        b.set_id(id);
        b.set_attribute("type", "button")?;
        b.set_attribute("role", "menuitem")?;
        b.set_attribute("tabindex", "-1")?;
        icons::append(&b, icon)?;
        dom::append_i18n(&b, "span", "", key)?;
        Ok(b)
    };
    let export = item("export-run", Icon::Export, "exportRun")?;
    export.set_attribute("title", &i18n::message("exportRunTitle"))?;
    let settings = item("open-settings", Icon::Settings, "settingsMenu")?;
    let help = item("open-help", Icon::Help, "helpButton")?;
    bind_menu(&more, &menu)?;
    Ok(Toolbar { tabs, new, history, export, settings, help })
}

/// Left/Right (and Home/End) move the selection along the tablist and focus the new tab.
fn arrow_keys(list: &Element, tabs: [Element; 3]) -> Result<(), JsValue> {
    let on_key = Closure::<dyn Fn(KeyboardEvent)>::new(move |e: KeyboardEvent| {
        let Some(at) = tabs.iter().position(|t| t.get_attribute("aria-selected").as_deref() == Some("true")) else { return };
        let next = match e.key().as_str() {
            "ArrowRight" | "ArrowDown" => (at + 1) % 3,
            "ArrowLeft" | "ArrowUp" => (at + 2) % 3,
            "Home" => 0,
            "End" => 2,
            _ => return,
        };
        e.prevent_default();
        if let Some(tab) = tabs[next].dyn_ref::<HtmlElement>() {
            tab.click();
            let _ = tab.focus();
        }
    });
    list.add_event_listener_with_callback("keydown", on_key.as_ref().unchecked_ref())?;
    on_key.forget();
    Ok(())
}

/// Opens and closes the More menu: arrows move inside, Esc or a pick closes it and focus goes
/// back to More; a click elsewhere closes it.
fn bind_menu(more: &Element, menu: &Element) -> Result<(), JsValue> {
    let (button, list) = (more.clone(), menu.clone());
    dom::on(more, "click", move || {
        let open = list.has_attribute("hidden");
        set_open(&button, &list, open, open);
    })?;
    let (button, list) = (more.clone(), menu.clone());
    let on_key = Closure::<dyn Fn(KeyboardEvent)>::new(move |e: KeyboardEvent| {
        let Ok(items) = menu_items(&list) else { return };
        let focused = dom::document().ok().and_then(|d| d.active_element());
        let at = items.iter().position(|i| focused.as_ref().is_some_and(|f| f.is_same_node(Some(i))));
        let go = |i: usize| {
            let _ = items[i].focus();
        };
        match e.key().as_str() {
            "Escape" => {
                e.prevent_default();
                e.stop_propagation();
                set_open(&button, &list, false, true);
            }
            "ArrowDown" => {
                e.prevent_default();
                go(at.map_or(0, |a| (a + 1) % items.len()));
            }
            "ArrowUp" => {
                e.prevent_default();
                go(at.map_or(items.len() - 1, |a| (a + items.len() - 1) % items.len()));
            }
            "Home" => go(0),
            "End" => go(items.len() - 1),
            "Tab" => set_open(&button, &list, false, false),
            _ => {}
        }
    });
    menu.add_event_listener_with_callback("keydown", on_key.as_ref().unchecked_ref())?;
    on_key.forget();
    let (button, list) = (more.clone(), menu.clone());
    dom::on(menu, "click", move || set_open(&button, &list, false, true))?;
    // A click outside the menu and its button closes it.
    let (button, list) = (more.clone(), menu.clone());
    let outside = Closure::<dyn Fn(web_sys::Event)>::new(move |e: web_sys::Event| {
        let inside = e.target().and_then(|t| t.dyn_into::<web_sys::Node>().ok()).is_some_and(|n| list.contains(Some(&n)) || button.contains(Some(&n)));
        if !inside && !list.has_attribute("hidden") {
            set_open(&button, &list, false, false);
        }
    });
    dom::document()?.add_event_listener_with_callback("pointerdown", outside.as_ref().unchecked_ref())?;
    outside.forget();
    Ok(())
}

fn menu_items(menu: &Element) -> Result<Vec<HtmlElement>, JsValue> {
    let nodes = menu.query_selector_all("[role=menuitem]")?;
    Ok((0..nodes.length()).filter_map(|i| nodes.item(i)?.dyn_into::<HtmlElement>().ok()).collect())
}

fn set_open(button: &Element, menu: &Element, open: bool, move_focus: bool) {
    let _ = menu.toggle_attribute_with_force("hidden", !open);
    let _ = button.set_attribute("aria-expanded", if open { "true" } else { "false" });
    if !move_focus {
        return;
    }
    if open {
        if let Some(first) = menu_items(menu).ok().and_then(|m| m.into_iter().next()) {
            let _ = first.focus();
        }
    } else if let Some(b) = button.dyn_ref::<HtmlElement>() {
        let _ = b.focus();
    }
}
