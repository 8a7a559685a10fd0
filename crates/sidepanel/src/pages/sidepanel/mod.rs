//! The side panel: one toolbar (Chat | Agent | Customize, New, History, More), then the chat, the
//! agent's pane or History in place, each with its composer pinned at the bottom.

mod agent;
mod approval;
mod chat;
mod chips;
mod composer;
mod connection;
mod follow;
mod history;
mod kept;
mod picker;
mod prefill;
mod run_card;
mod starters;
mod toolbar;
mod view;

use crate::dom;
use dusk_chrome::{runtime, windows};
use dusk_core::browser_agent::RunKind;
use dusk_core::history::{Body, Item, ItemKind};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use web_sys::{Element, HtmlElement};

pub async fn render(body: &HtmlElement) -> Result<(), JsValue> {
    let bar = toolbar::render(body)?;
    let chat_pane = dom::append(body, "section", "pane", "")?;
    chat_pane.set_id("chat-pane");
    chat_pane.set_attribute("role", "tabpanel")?;
    chat_pane.set_attribute("aria-labelledby", "mode-chat")?;
    let agent_pane = dom::append(body, "section", "pane", "")?;
    agent_pane.set_id("agent-pane");
    agent_pane.set_attribute("role", "tabpanel")?;
    agent_pane.set_attribute("aria-labelledby", "mode-agent")?;
    agent_pane.set_attribute("hidden", "")?;
    let history_pane = dom::append(body, "section", "pane history-pane", "")?;
    history_pane.set_id("history-pane");
    history_pane.set_attribute("hidden", "")?;
    // Bound before the first await, so a click as soon as the toolbar shows is never lost.
    let kind = Rc::new(Cell::new(RunKind::Act));
    let show = bind_modes(&bar, &chat_pane, &agent_pane, &history_pane, kind.clone())?;
    bind_menu_items(&bar)?;
    let window_id = windows::current_id().await.unwrap_or(-1);
    let agent = agent::render(&agent_pane, window_id)?;
    agent.set_kind(kind.get());
    // A mode picked while the page was starting applies now; later picks apply at once.
    PANE.with(|p| *p.borrow_mut() = Some(agent.clone()));
    let chat = chat::render(&chat_pane, window_id)?;
    CHAT.with(|c| *c.borrow_mut() = Some(chat.clone()));
    {
        let (chat, agent, show) = (chat.clone(), agent.clone(), show.clone());
        dom::on(&bar.new, "click", move || {
            if MODE.with(Cell::get) == 0 {
                chat.new_chat();
            } else {
                agent.clear();
                show(MODE.with(Cell::get));
            }
        })?;
    }
    {
        let (chat, agent) = (chat.clone(), agent.clone());
        dom::on(&bar.export, "click", move || if MODE.with(Cell::get) == 0 { chat.export_run() } else { agent.export_run() })?;
    }
    bind_escape(chat.clone(), agent)?;
    let open: Rc<dyn Fn(Item)> = Rc::new(move |item: Item| open_kept(&chat, &show, item));
    let back: Rc<dyn Fn()> = {
        let history_button = bar.history.clone();
        Rc::new(move || {
            if let Some(b) = wasm_bindgen::JsCast::dyn_ref::<HtmlElement>(&history_button) {
                b.click();
            }
        })
    };
    let history = history::render(&history_pane, open, back)?;
    HISTORY.with(|h| *h.borrow_mut() = Some(history.clone()));
    if !history_pane.has_attribute("hidden") {
        history.refresh();
    }
    Ok(())
}

/// Settings and Help from the More menu.
fn bind_menu_items(bar: &toolbar::Toolbar) -> Result<(), JsValue> {
    dom::on(&bar.settings, "click", || {
        wasm_bindgen_futures::spawn_local(async {
            let _ = runtime::open_options_page().await;
        })
    })?;
    dom::on(&bar.help, "click", || {
        if let Some(w) = web_sys::window() {
            let _ = w.open_with_url_and_target(&runtime::get_url("options.html#about"), "_blank");
        }
    })
}

/// Reopens a kept item: a chat in the chat pane, a run in its pane.
fn open_kept(chat: &Rc<chat::Chat>, show: &Rc<dyn Fn(usize)>, item: Item) {
    let date = history::date_text(item.summary.updated_ms);
    match (&item.body, item.summary.kind) {
        (Body::Chat { session }, _) => {
            show(0);
            chat.open_kept(&item.summary.id, session);
        }
        (Body::Run { run }, kind) => {
            show(if kind == ItemKind::Customize { 2 } else { 1 });
            PANE.with(|p| p.borrow().as_ref().map(|pane| pane.show_kept(run, &date)));
        }
    }
}

/// Esc anywhere in the panel stops what is running: the answer, or the agent's run.
fn bind_escape(chat: Rc<chat::Chat>, agent: Rc<agent::Pane>) -> Result<(), JsValue> {
    let on_key = Closure::<dyn Fn(web_sys::KeyboardEvent)>::new(move |e: web_sys::KeyboardEvent| {
        if e.key() != "Escape" || e.is_composing() || e.default_prevented() {
            return;
        }
        let stopped_agent = agent.stop_if_running();
        let stopped_chat = chat.stop_if_running();
        if stopped_agent || stopped_chat {
            e.prevent_default();
        }
    });
    dom::document()?.add_event_listener_with_callback("keydown", on_key.as_ref().unchecked_ref())?;
    on_key.forget();
    Ok(())
}

/// Downloads the run as `dusk-run.json`; the link stays (hidden) so the last export can be found.
pub(super) fn export_run(run: &serde_json::Value) -> Result<(), JsValue> {
    let document = dom::document()?;
    let body = document.body().ok_or("no body")?;
    if let Some(old) = document.get_element_by_id("run-export") {
        old.remove();
    }
    if run.is_null() {
        let note = dom::append_i18n(&body, "p", "notice run-export-note visually-hidden", "noRun")?;
        note.set_id("run-export");
        note.set_attribute("role", "status")?;
        return Ok(());
    }
    dom::download_json(&body, "run-export", "dusk-run.json", run)
}

thread_local! {
    static PANE: RefCell<Option<Rc<agent::Pane>>> = const { RefCell::new(None) };
    static CHAT: RefCell<Option<Rc<chat::Chat>>> = const { RefCell::new(None) };
    static HISTORY: RefCell<Option<Rc<history::History>>> = const { RefCell::new(None) };
    /// 0 chat, 1 agent, 2 customize: the tab last picked (History keeps it, for Back).
    static MODE: Cell<usize> = const { Cell::new(0) };
}

/// The tabs and History: chat has its pane; Agent and Customize share the agent pane, which runs
/// the one or the other; History replaces the body until Back (or History again).
fn bind_modes(
    bar: &toolbar::Toolbar,
    chat_pane: &Element,
    agent_pane: &Element,
    history_pane: &Element,
    kind: Rc<Cell<RunKind>>,
) -> Result<Rc<dyn Fn(usize)>, JsValue> {
    let tabs = bar.tabs.clone();
    let history_button = bar.history.clone();
    let (chat_pane, agent_pane, history_pane) = (chat_pane.clone(), agent_pane.clone(), history_pane.clone());
    let show: Rc<dyn Fn(usize)> = Rc::new(move |picked: usize| {
        let in_history = picked == 3;
        if !in_history {
            MODE.with(|m| m.set(picked));
        }
        let mode = MODE.with(Cell::get);
        for (i, t) in tabs.iter().enumerate() {
            let _ = t.set_attribute("aria-selected", if i == mode { "true" } else { "false" });
            let _ = t.set_attribute("tabindex", if i == mode { "0" } else { "-1" });
        }
        let _ = agent_pane.set_attribute("aria-labelledby", if mode == 2 { "mode-customize" } else { "mode-agent" });
        let _ = history_button.set_attribute("aria-pressed", if in_history { "true" } else { "false" });
        let _ = history_pane.toggle_attribute_with_force("hidden", !in_history);
        let _ = chat_pane.toggle_attribute_with_force("hidden", in_history || mode != 0);
        let _ = agent_pane.toggle_attribute_with_force("hidden", in_history || mode == 0);
        if in_history {
            HISTORY.with(|h| h.borrow().as_ref().map(|h| h.refresh()));
            return;
        }
        let k = if mode == 2 { RunKind::Customize } else { RunKind::Act };
        kind.set(k);
        PANE.with(|p| p.borrow().as_ref().map(|pane| pane.set_kind(k)));
    });
    for (i, t) in bar.tabs.iter().enumerate() {
        let show = show.clone();
        dom::on(t, "click", move || show(i))?;
    }
    let (toggle, button) = (show.clone(), bar.history.clone());
    dom::on(&bar.history, "click", move || {
        let open = button.get_attribute("aria-pressed").as_deref() == Some("true");
        toggle(if open { MODE.with(Cell::get) } else { 3 });
    })?;
    Ok(show)
}
