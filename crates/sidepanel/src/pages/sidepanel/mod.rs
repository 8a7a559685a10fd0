//! The side panel: chat with the page(s), streaming, with Stop, Copy, a tab picker and new chat.

mod agent;
mod connection;
mod history;
mod kept;
mod picker;
mod prefill;
mod starters;
mod view;

use crate::{dom, status};
use connection::Connection;
use dusk_chrome::{i18n, runtime, windows};
use dusk_core::browser_agent::RunKind;
use dusk_core::history::{Body, Item, ItemKind};
use dusk_core::protocol::{ChatEvent, ChatPortRequest, CHAT_PORT};
use starters::Starter;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use view::View;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement, HtmlTextAreaElement};

type OnStarter = Rc<dyn Fn(Starter)>;

struct Ui {
    view: RefCell<View>,
    picker: Element,
    send: Element,
    stop: Element,
    usage: Element,
    running: Cell<bool>,
    /// Re-opens the port and asks for the conversation; set once the connection exists.
    reconnect: RefCell<Option<Rc<dyn Fn()>>>,
    /// What a starter on an empty chat does; set once the connection exists.
    on_starter: RefCell<Option<OnStarter>>,
}

impl Ui {
    fn set_running(&self, running: bool) {
        self.running.set(running);
        let _ = self.stop.toggle_attribute_with_force("hidden", !running);
        let _ = self.send.toggle_attribute_with_force("disabled", running);
    }

    fn handle(&self, event: Result<ChatEvent, String>) -> Result<(), JsValue> {
        let mut view = self.view.borrow_mut();
        match event {
            Ok(ChatEvent::Session { session }) => {
                self.set_running(false);
                view.clear();
                for entry in &session.entries {
                    view.entry(entry)?;
                }
                if let (true, Some(pick)) = (session.entries.is_empty(), self.on_starter.borrow().clone()) {
                    starters::show(&view.messages, pick)?;
                }
                self.show_usage(session.usage.total(), session.priced.then_some(session.cost_usd));
            }
            Ok(ChatEvent::Tabs { tabs }) => picker::fill(&self.picker, &tabs)?,
            Ok(ChatEvent::Asked { text, tabs }) => {
                self.set_running(true);
                view.question(&text, &tabs)?
            }
            Ok(ChatEvent::Delta { text }) => view.delta(&text)?,
            Ok(ChatEvent::ResetAnswer) => view.reset_answer(),
            Ok(ChatEvent::Looking { reason }) => view.step(&format!("{} {reason}", i18n::message("lookingCloser")), None)?,
            Ok(ChatEvent::Step { text, screenshot }) => view.step(&text, screenshot.as_deref())?,
            Ok(ChatEvent::Usage { input_tokens, output_tokens, cost_usd }) => self.show_usage(input_tokens + output_tokens, cost_usd),
            Ok(ChatEvent::Done { text }) => {
                view.finish(Some(&text), None)?;
                self.set_running(false);
            }
            Ok(ChatEvent::Stopped) => {
                view.finish(None, Some(("stopped", &i18n::message("stoppedNote"))))?;
                self.set_running(false);
            }
            Ok(ChatEvent::Failed { message }) => {
                view.finish(None, Some(("error", &message)))?;
                self.set_running(false);
            }
            Ok(ChatEvent::RunExport { run }) => export_run(&run)?,
            Ok(ChatEvent::NoSelection) => {
                self.set_running(false);
                let note = dom::append_i18n(&view.messages, "div", "msg step no-selection", "starterNoSelection")?;
                note.set_attribute("role", "status")?;
            }
            // The worker died mid-answer: reconnecting wakes it, it resumes the run and replays it.
            Err(e) if self.running.get() => match self.reconnect.borrow().clone() {
                Some(reconnect) => {
                    view.reset_answer();
                    reconnect();
                }
                None => {
                    view.finish(None, Some(("error", &format!("{} ({e})", i18n::message("workerRestarted")))))?;
                    self.set_running(false);
                }
            },
            Err(_) => {}
        }
        Ok(())
    }

    fn show_usage(&self, tokens: u64, cost: Option<f64>) {
        let text = if tokens == 0 { String::new() } else { format!("{tokens} {} · {}", i18n::message("tokens"), crate::status::cost_text(cost)) };
        self.usage.set_text_content(Some(&text));
    }
}

pub async fn render(body: &HtmlElement) -> Result<(), JsValue> {
    let header = dom::append(body, "header", "bar", "")?;
    dom::append_i18n(&header, "h1", "title", "sidepanelTitle")?;
    let modes = dom::append(&header, "div", "modes", "")?;
    let chat_mode = dom::append_i18n(&modes, "button", "mode active", "modeChat")?;
    chat_mode.set_id("mode-chat");
    let agent_mode = dom::append_i18n(&modes, "button", "mode", "modeAgent")?;
    agent_mode.set_id("mode-agent");
    let customize_mode = dom::append_i18n(&modes, "button", "mode", "modeCustomize")?;
    customize_mode.set_id("mode-customize");
    let history_button = dom::append_i18n(&header, "button", "icon", "historyButton")?;
    history_button.set_id("open-history");
    history_button.set_attribute("title", &i18n::message("historyButtonTitle"))?;
    history_button.set_attribute("aria-pressed", "false")?;
    let export = dom::append_i18n(&header, "button", "icon", "exportRun")?;
    export.set_id("export-run");
    export.set_attribute("title", &i18n::message("exportRunTitle"))?;
    let new_chat = dom::append_i18n(&header, "button", "icon", "newChat")?;
    new_chat.set_id("new-chat");
    let settings = dom::append_i18n(&header, "a", "settings-link", "openSettings")?;
    settings.set_id("open-settings");
    settings.set_attribute("href", "#")?;
    dom::on(&settings, "click", || {
        wasm_bindgen_futures::spawn_local(async {
            let _ = runtime::open_options_page().await;
        })
    })?;
    let chat_pane = dom::append(body, "section", "pane", "")?;
    chat_pane.set_id("chat-pane");
    let agent_pane = dom::append(body, "section", "pane", "")?;
    agent_pane.set_id("agent-pane");
    agent_pane.set_attribute("hidden", "")?;
    let history_pane = dom::append(body, "section", "pane history-pane", "")?;
    history_pane.set_id("history-pane");
    history_pane.set_attribute("hidden", "")?;
    // Bound before the first await, so a click as soon as the button shows is never lost.
    let kind = Rc::new(Cell::new(RunKind::Act));
    let show =
        bind_modes([&chat_mode, &agent_mode, &customize_mode, &history_button], &[&chat_pane, &new_chat, &export], &agent_pane, &history_pane, kind.clone())?;
    status::render(body).await?;
    let window_id = windows::current_id().await.unwrap_or(-1);
    let agent = agent::render(&agent_pane, window_id)?;
    agent.set_kind(kind.get());
    // A mode picked while the page was starting applies now; later picks apply at once.
    PANE.with(|p| *p.borrow_mut() = Some(agent));

    let body: &Element = &chat_pane;
    let picker_box = dom::append(body, "details", "picker", "")?;
    dom::append_i18n(&picker_box, "summary", "", "pickTabs")?;
    let picker = dom::append(&picker_box, "div", "tab-list", "")?;
    picker.set_id("tab-picker");
    let messages = dom::append(body, "div", "messages", "")?;
    messages.set_id("messages");
    let composer = dom::append(body, "div", "composer", "")?;
    let question: HtmlTextAreaElement = dom::append(&composer, "textarea", "", "")?.dyn_into()?;
    question.set_id("question");
    question.set_placeholder(&i18n::message("askPlaceholder"));
    question.set_attribute("aria-label", &i18n::message("askPlaceholder"))?;
    prefill::follow(question.clone(), window_id);
    let send = dom::append_i18n(&composer, "button", "primary", "send")?;
    send.set_id("send");
    // Enabled once its handler is bound, after the awaits below.
    send.set_attribute("disabled", "")?;
    let stop = dom::append_i18n(&composer, "button", "stop", "stop")?;
    stop.set_id("stop");
    stop.set_attribute("hidden", "")?;
    let usage = dom::append(body, "div", "usage", "")?;
    usage.set_id("usage");

    let conn_slot: Rc<RefCell<Option<Connection<ChatPortRequest, ChatEvent>>>> = Rc::new(RefCell::new(None));
    let on_retry: Rc<dyn Fn()> = {
        let slot = conn_slot.clone();
        Rc::new(move || {
            if let Some(conn) = slot.borrow().as_ref() {
                let _ = conn.send(&ChatPortRequest::Retry { window_id });
            }
        })
    };
    let ui = Rc::new(Ui {
        view: RefCell::new(View::new(messages, on_retry)),
        picker,
        send: send.clone(),
        stop: stop.clone(),
        usage,
        running: Cell::new(false),
        reconnect: RefCell::new(None),
        on_starter: RefCell::new(None),
    });
    let handler_ui = ui.clone();
    let conn: Connection<ChatPortRequest, ChatEvent> = Connection::new(CHAT_PORT, move |event| {
        if let Err(e) = handler_ui.handle(event) {
            web_sys::console::error_1(&e);
        }
    });
    *conn_slot.borrow_mut() = Some(conn.clone());
    {
        let (conn, me) = (conn.clone(), ui.clone());
        *ui.on_starter.borrow_mut() = Some(Rc::new(move |starter: Starter| {
            if me.running.get() {
                return;
            }
            me.set_running(true);
            let (question, tab_ids) = (starter.question(), picker::checked(&me.picker));
            let request = match starter {
                Starter::Selection => ChatPortRequest::AskSelection { window_id, question, tab_ids },
                _ => ChatPortRequest::Ask { window_id, question, tab_ids },
            };
            if let Err(e) = conn.send(&request) {
                let _ = me.handle(Ok(ChatEvent::Failed { message: format!("{e:?}") }));
            }
        }));
    }
    conn.send(&ChatPortRequest::Load { window_id })?;
    conn.send(&ChatPortRequest::ListTabs { window_id })?;
    {
        let conn = conn.clone();
        *ui.reconnect.borrow_mut() = Some(Rc::new(move || {
            let _ = conn.send(&ChatPortRequest::Load { window_id });
        }));
    }
    {
        let conn = conn.clone();
        dom::on(&export, "click", move || {
            let _ = conn.send(&ChatPortRequest::ExportRun { window_id });
        })?;
    }

    let ask = {
        let (conn, ui, question) = (conn.clone(), ui.clone(), question.clone());
        move || {
            let text = question.value().trim().to_string();
            if text.is_empty() || ui.running.get() {
                return;
            }
            question.set_value("");
            ui.set_running(true);
            let tab_ids = picker::checked(&ui.picker);
            if let Err(e) = conn.send(&ChatPortRequest::Ask { window_id, question: text, tab_ids }) {
                let _ = ui.handle(Ok(ChatEvent::Failed { message: format!("{e:?}") }));
            }
        }
    };
    let ask = Rc::new(ask);
    {
        let ask = ask.clone();
        dom::on(&send, "click", move || ask())?;
        send.remove_attribute("disabled")?;
    }
    let on_key = Closure::<dyn Fn(web_sys::KeyboardEvent)>::new(move |e: web_sys::KeyboardEvent| {
        if e.key() == "Enter" && !e.shift_key() && !e.is_composing() {
            e.prevent_default();
            ask();
        }
    });
    question.add_event_listener_with_callback("keydown", on_key.as_ref().unchecked_ref())?;
    on_key.forget();
    {
        let conn = conn.clone();
        dom::on(&stop, "click", move || {
            let _ = conn.send(&ChatPortRequest::Stop { window_id });
        })?;
    }
    {
        let conn = conn.clone();
        dom::on(&new_chat, "click", move || {
            let _ = conn.send(&ChatPortRequest::Clear { window_id });
            let _ = conn.send(&ChatPortRequest::ListTabs { window_id });
        })?;
    }
    bind_escape(conn.clone(), ui.clone(), window_id)?;
    let open: Rc<dyn Fn(Item)> = Rc::new(move |item: Item| open_kept(&conn, &show, window_id, item));
    let history = history::render(&history_pane, open)?;
    HISTORY.with(|h| *h.borrow_mut() = Some(history.clone()));
    if !history_pane.has_attribute("hidden") {
        history.refresh();
    }
    Ok(())
}

/// Reopens a kept item: a chat becomes the window's conversation, a run shows in its pane.
fn open_kept(conn: &Connection<ChatPortRequest, ChatEvent>, show: &Rc<dyn Fn(usize)>, window_id: i32, item: Item) {
    let date = history::date_text(item.summary.updated_ms);
    match (&item.body, item.summary.kind) {
        (Body::Chat { .. }, _) => {
            let _ = conn.send(&ChatPortRequest::Reopen { window_id, id: item.summary.id.clone() });
            show(0);
        }
        (Body::Run { run }, kind) => {
            show(if kind == ItemKind::Customize { 2 } else { 1 });
            PANE.with(|p| p.borrow().as_ref().map(|pane| pane.show_kept(run, &date)));
        }
    }
}

/// Esc anywhere in the panel stops what is running: the answer, or the agent's run.
fn bind_escape(conn: Connection<ChatPortRequest, ChatEvent>, ui: Rc<Ui>, window_id: i32) -> Result<(), JsValue> {
    let on_key = Closure::<dyn Fn(web_sys::KeyboardEvent)>::new(move |e: web_sys::KeyboardEvent| {
        if e.key() != "Escape" || e.is_composing() {
            return;
        }
        let agent = PANE.with(|p| p.borrow().as_ref().is_some_and(|pane| pane.stop_if_running()));
        if ui.running.get() {
            let _ = conn.send(&ChatPortRequest::Stop { window_id });
        }
        if agent || ui.running.get() {
            e.prevent_default();
        }
    });
    dom::document()?.add_event_listener_with_callback("keydown", on_key.as_ref().unchecked_ref())?;
    on_key.forget();
    Ok(())
}

/// Downloads the run as `dusk-run.json`; the link stays (hidden) so the last export can be found.
pub(super) fn export_run(run: &serde_json::Value) -> Result<(), JsValue> {
    let document = web_sys::window().and_then(|w| w.document()).ok_or("no document")?;
    let body = document.body().ok_or("no body")?;
    if let Some(old) = document.get_element_by_id("run-export") {
        old.remove();
    }
    if run.is_null() {
        let note = dom::append_i18n(&body, "p", "notice", "noRun")?;
        note.set_id("run-export");
        return Ok(());
    }
    dom::download_json(&body, "run-export", "dusk-run.json", run)
}

thread_local! {
    static PANE: RefCell<Option<Rc<agent::Pane>>> = const { RefCell::new(None) };
    static HISTORY: RefCell<Option<Rc<history::History>>> = const { RefCell::new(None) };
}

/// The Chat / Agent / Customize / History switch: chat has its pane (and header buttons); Agent
/// and Customize share the agent pane, which runs the one or the other; History lists kept work.
/// Returns the switch, so History can open what it lists.
fn bind_modes(
    buttons: [&Element; 4],
    chat_parts: &[&Element],
    agent_pane: &Element,
    history_pane: &Element,
    kind: Rc<Cell<RunKind>>,
) -> Result<Rc<dyn Fn(usize)>, JsValue> {
    let buttons: Vec<Element> = buttons.iter().map(|e| (*e).clone()).collect();
    let targets = buttons.clone();
    let chat_parts: Vec<Element> = chat_parts.iter().map(|e| (*e).clone()).collect();
    let (agent_pane, history_pane) = (agent_pane.clone(), history_pane.clone());
    let show: Rc<dyn Fn(usize)> = Rc::new(move |picked: usize| {
        for (i, b) in buttons.iter().enumerate() {
            let _ = b.class_list().toggle_with_force("active", i == picked);
            let _ = b.set_attribute("aria-pressed", if i == picked { "true" } else { "false" });
        }
        let _ = agent_pane.toggle_attribute_with_force("hidden", !(picked == 1 || picked == 2));
        let _ = history_pane.toggle_attribute_with_force("hidden", picked != 3);
        for part in &chat_parts {
            let _ = part.toggle_attribute_with_force("hidden", picked != 0);
        }
        if picked == 3 {
            HISTORY.with(|h| h.borrow().as_ref().map(|h| h.refresh()));
            return;
        }
        let k = if picked == 2 { RunKind::Customize } else { RunKind::Act };
        kind.set(k);
        PANE.with(|p| p.borrow().as_ref().map(|pane| pane.set_kind(k)));
    });
    for (i, b) in targets.into_iter().enumerate() {
        let show = show.clone();
        dom::on(&b, "click", move || show(i))?;
    }
    Ok(show)
}
