//! The chat pane: the tab picker, the conversation (a log), the composer with its provider chip,
//! the empty state, and a kept chat opened while this window's answer is still being written.

use super::composer::{self, Composer};
use super::connection::Connection;
use super::follow::Follow;
use super::starters::{self, Starter};
use super::view::View;
use super::{picker, prefill};
use crate::icons::{self, Icon};
use crate::{dom, status};
use dusk_chrome::{i18n, runtime};
use dusk_core::chat::ChatSession;
use dusk_core::protocol::{ChatEvent, ChatPortRequest, Status, CHAT_PORT};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use web_sys::Element;

type Conn = Connection<ChatPortRequest, ChatEvent>;

pub struct Chat {
    window_id: i32,
    view: RefCell<View>,
    picker: Element,
    composer: Composer,
    usage: Element,
    chip: Element,
    /// A kept chat shown while this window's own answer goes on: its id, and the bar that leads back.
    viewing: RefCell<Option<String>>,
    banner: Element,
    /// Whether a provider is set: no provider shows "Set up a provider" on an empty chat.
    configured: Cell<Option<bool>>,
    conn: RefCell<Option<Conn>>,
}

pub fn render(pane: &Element, window_id: i32) -> Result<Rc<Chat>, JsValue> {
    let picker_box = dom::append(pane, "details", "picker", "")?;
    dom::append_i18n(&picker_box, "summary", "", "pickTabs")?;
    let picker = dom::append(&picker_box, "div", "tab-list", "")?;
    picker.set_id("tab-picker");
    let banner = dom::append(pane, "div", "confirm-row live-banner", "")?;
    banner.set_id("live-banner");
    banner.set_attribute("role", "status")?;
    banner.set_attribute("hidden", "")?;
    dom::append(&banner, "p", "", "")?;
    let back = dom::append_i18n(&banner, "button", "", "liveReturn")?;
    back.set_id("back-to-live");
    let resume = dom::append_i18n(&banner, "button", "primary", "keptContinue")?;
    resume.set_id("continue-kept");
    let messages = dom::append(pane, "div", "messages", "")?;
    messages.set_id("messages");
    messages.set_attribute("role", "log")?;
    messages.set_attribute("aria-label", &i18n::message("conversationLabel"))?;
    messages.set_attribute("tabindex", "0")?;
    let follow = Follow::new(&messages, pane, "jump-latest")?;
    let usage = dom::append(pane, "div", "usage", "")?;
    usage.set_id("usage");
    let composer = Composer::new(pane, "question", "send", "askPlaceholder")?;
    prefill::follow(composer.text.clone(), window_id);
    let chip = composer.chip("provider-chip", Icon::Spark)?;
    dom::on(&chip, "click", open_provider_settings)?;
    let chat = Rc::new(Chat {
        window_id,
        view: RefCell::new(View::new(messages, follow, Rc::new(|| {}))),
        picker,
        composer: composer.clone(),
        usage,
        chip,
        viewing: RefCell::new(None),
        banner,
        configured: Cell::new(None),
        conn: RefCell::new(None),
    });
    let me = chat.clone();
    let conn: Conn = Connection::new(CHAT_PORT, move |event| {
        if let Err(e) = me.handle(event) {
            web_sys::console::error_1(&e);
        }
    });
    *chat.conn.borrow_mut() = Some(conn.clone());
    let retry = chat.clone();
    chat.view.borrow_mut().set_retry(Rc::new(move || retry.send(&ChatPortRequest::Retry { window_id })));
    conn.send(&ChatPortRequest::Load { window_id })?;
    conn.send(&ChatPortRequest::ListTabs { window_id })?;
    let (ask, stop) = (chat.clone(), chat.clone());
    composer.bind(Rc::new(move || ask.ask()), Rc::new(move || stop.send(&ChatPortRequest::Stop { window_id })))?;
    let me = chat.clone();
    dom::on(&back, "click", move || {
        me.viewing.borrow_mut().take();
        me.send(&ChatPortRequest::Load { window_id });
    })?;
    let me = chat.clone();
    dom::on(&resume, "click", move || {
        if let Some(id) = me.viewing.borrow_mut().take() {
            me.send(&ChatPortRequest::Reopen { window_id, id });
        }
    })?;
    chat.refresh_status();
    // A provider set (or removed) in options shows here at once: the chip and the empty state.
    let me = chat.clone();
    dusk_chrome::storage::on_changed(move |changes, area| {
        if area == "local" && js_sys::Reflect::has(&changes, &dusk_core::settings::STORAGE_KEY.into()).unwrap_or(false) {
            me.refresh_status();
        }
    });
    Ok(chat)
}

fn open_provider_settings() {
    if let Some(w) = web_sys::window() {
        let _ = w.open_with_url_and_target(&runtime::get_url("options.html#provider"), "_blank");
    }
}

impl Chat {
    fn send(&self, request: &ChatPortRequest) {
        if let Some(conn) = self.conn.borrow().as_ref() {
            if let Err(e) = conn.send(request) {
                web_sys::console::error_1(&e);
            }
        }
    }

    fn ask(&self) {
        if self.composer.running() || self.composer.text.value().trim().is_empty() {
            return;
        }
        // The question goes out first: the box and the button change while the worker starts on it.
        let question = self.composer.text.value().trim().to_string();
        let tab_ids = picker::checked(&self.picker);
        self.send(&ChatPortRequest::Ask { window_id: self.window_id, question, tab_ids });
        self.composer.take();
        self.composer.set_running(true);
    }

    fn pick(&self, starter: Starter) {
        if self.composer.running() {
            return;
        }
        self.composer.set_running(true);
        let (question, tab_ids, window_id) = (starter.question(), picker::checked(&self.picker), self.window_id);
        self.send(&match starter {
            Starter::Selection => ChatPortRequest::AskSelection { window_id, question, tab_ids },
            _ => ChatPortRequest::Ask { window_id, question, tab_ids },
        });
    }

    pub fn new_chat(&self) {
        self.viewing.borrow_mut().take();
        self.send(&ChatPortRequest::Clear { window_id: self.window_id });
        self.send(&ChatPortRequest::ListTabs { window_id: self.window_id });
    }

    pub fn export_run(&self) {
        self.send(&ChatPortRequest::ExportRun { window_id: self.window_id });
    }

    /// Esc: stops the answer if one is going; whether it did.
    pub fn stop_if_running(&self) -> bool {
        let running = self.composer.running();
        if running {
            self.send(&ChatPortRequest::Stop { window_id: self.window_id });
        }
        running
    }

    /// A kept chat: the window's conversation, unless an answer is being written here; then it
    /// is shown on its own and the answer goes on, one click away.
    pub fn open_kept(self: &Rc<Self>, id: &str, session: &ChatSession) {
        if !self.composer.running() {
            self.viewing.borrow_mut().take();
            return self.send(&ChatPortRequest::Reopen { window_id: self.window_id, id: id.to_string() });
        }
        *self.viewing.borrow_mut() = Some(id.to_string());
        let mut view = self.view.borrow_mut();
        view.clear();
        for entry in &session.entries {
            let _ = view.entry(entry);
        }
        drop(view);
        self.show_banner();
    }

    fn show_banner(&self) {
        let running = self.composer.running();
        let key = if running { "liveStillWriting" } else { "liveFinished" };
        if let Ok(Some(p)) = self.banner.query_selector("p") {
            p.set_text_content(Some(&i18n::message(key)));
        }
        if let Ok(Some(b)) = self.banner.query_selector("#continue-kept") {
            let _ = b.toggle_attribute_with_force("hidden", running);
        }
        let _ = self.banner.toggle_attribute_with_force("hidden", self.viewing.borrow().is_none());
    }

    fn refresh_status(self: &Rc<Self>) {
        let me = self.clone();
        wasm_bindgen_futures::spawn_local(async move {
            if let Ok(s) = status::fetch().await {
                let label = super::chips::provider_label(&s).await;
                me.show_status(&s, label);
            }
        });
    }

    fn show_status(self: &Rc<Self>, s: &Status, (text, description): (String, String)) {
        self.configured.set(Some(s.provider_configured));
        composer::set_chip(&self.chip, &text, &description);
        if let Ok(Some(span)) = self.chip.query_selector(".chip-text") {
            span.set_id(if s.on_device { "on-device-badge" } else { "" });
        }
        let view = self.view.borrow();
        if view.is_empty() {
            let _ = self.show_empty(&view.messages);
        }
    }

    /// An empty chat: "Set up a provider" without one, else three starters for this page.
    fn show_empty(self: &Rc<Self>, messages: &Element) -> Result<(), JsValue> {
        if let Some(old) = messages.query_selector(".empty, .starters")? {
            old.remove();
        }
        match self.configured.get() {
            Some(false) => {
                let empty = dom::append(messages, "div", "empty", "")?;
                empty.set_id("empty-state");
                icons::append(&empty, Icon::Chat)?;
                dom::append_i18n(&empty, "h2", "", "emptyTitle")?;
                dom::append_i18n(&empty, "p", "", "emptyNoProvider")?;
                let setup = dom::append_i18n(&empty, "button", "primary", "setUpProvider")?;
                setup.set_id("setup-provider");
                dom::on(&setup, "click", open_provider_settings)
            }
            Some(true) => {
                let me = self.clone();
                starters::show(messages, Rc::new(move |s: Starter| me.pick(s)))
            }
            None => Ok(()),
        }
    }

    fn set_running(&self, running: bool) {
        self.composer.set_running(running);
        if self.viewing.borrow().is_some() {
            self.show_banner();
        }
    }

    fn handle(self: &Rc<Self>, event: Result<ChatEvent, String>) -> Result<(), JsValue> {
        // A kept chat is on screen: the live answer goes on in the worker, not into this view.
        if self.viewing.borrow().is_some() {
            match &event {
                Ok(ChatEvent::Session { .. }) => {
                    self.viewing.borrow_mut().take();
                    self.show_banner();
                }
                Ok(ChatEvent::Done { .. } | ChatEvent::Stopped | ChatEvent::Failed { .. }) => {
                    self.set_running(false);
                    return Ok(());
                }
                Ok(ChatEvent::Tabs { tabs }) => return picker::fill(&self.picker, tabs),
                Ok(ChatEvent::RunExport { run }) => return super::export_run(run),
                _ => return Ok(()),
            }
        }
        let mut view = self.view.borrow_mut();
        match event {
            Ok(ChatEvent::Session { session }) => {
                self.set_running(false);
                view.clear();
                for entry in &session.entries {
                    view.entry(entry)?;
                }
                if session.entries.is_empty() {
                    self.show_empty(&view.messages)?;
                }
                self.show_usage(session.usage.total(), session.priced.then_some(session.cost_usd));
            }
            Ok(ChatEvent::Tabs { tabs }) => picker::fill(&self.picker, &tabs)?,
            Ok(ChatEvent::Asked { text, tabs }) => {
                self.set_running(true);
                if let Some(e) = view.messages.query_selector(".empty")? {
                    e.remove();
                }
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
            Ok(ChatEvent::RunExport { run }) => super::export_run(&run)?,
            Ok(ChatEvent::NoSelection) => {
                self.set_running(false);
                let note = dom::append_i18n(&view.messages, "div", "msg step no-selection", "starterNoSelection")?;
                note.set_attribute("role", "status")?;
            }
            // The worker died mid-answer: reconnecting wakes it, it resumes the run and replays it.
            Err(_) if self.composer.running() => {
                view.reset_answer();
                drop(view);
                self.send(&ChatPortRequest::Load { window_id: self.window_id });
            }
            Err(_) => {}
        }
        Ok(())
    }

    fn show_usage(&self, tokens: u64, cost: Option<f64>) {
        let text = if tokens == 0 { String::new() } else { format!("{tokens} {} · {}", i18n::message("tokens"), status::cost_text(cost)) };
        self.usage.set_text_content(Some(&text));
    }
}
