//! Agent mode (and Customize): the tab to act on, the run as one card (run_card.rs), approval
//! cards in words (approval.rs), and the composer with the provider and permission chips. The
//! worker owns the run; this page only shows it.

use super::approval;
use super::chips;
use super::composer::Composer;
use super::connection::Connection;
use super::follow::Follow;
use super::run_card::{self, RunCard};
use crate::dom;
use crate::icons::{self, Icon};
use dusk_chrome::{i18n, storage};
use dusk_core::agent::AgentEvent;
use dusk_core::browser_agent::mode::STORAGE_KEY as AGENT_SETTINGS;
use dusk_core::browser_agent::{RunKind, TabView};
use dusk_core::chat::markdown;
use dusk_core::history::KeptRun;
use dusk_core::protocol::{AgentPortEvent, AgentPortRequest, AGENT_PORT};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlSelectElement};

type Conn = Connection<AgentPortRequest, AgentPortEvent>;

pub struct Pane {
    window_id: i32,
    /// Agent (act on pages) or Customize (change the site), picked by the tabs.
    kind: Cell<RunKind>,
    composer: Composer,
    tab: HtmlSelectElement,
    /// The run's log: the task, its card, approval cards (`#agent-steps`).
    log: Element,
    follow: Follow,
    card: RefCell<Option<RunCard>>,
    answer: Element,
    export: Element,
    status: Element,
    permission: Element,
    /// Text streamed in the current model turn (the final answer, when no tool follows).
    streamed: RefCell<String>,
    /// The host of the tab the run acts on, for each step's row.
    site: RefCell<String>,
    conn: RefCell<Option<Conn>>,
}

pub fn render(pane: &Element, window_id: i32) -> Result<Rc<Pane>, JsValue> {
    let row = dom::append(pane, "div", "agent-row", "")?;
    let tab_label = dom::append_i18n(&row, "label", "", "agentTab")?;
    tab_label.set_attribute("for", "agent-tab")?;
    let tab: HtmlSelectElement = dom::append(&row, "select", "", "")?.dyn_into()?;
    tab.set_id("agent-tab");
    let log = dom::append(pane, "div", "run-log", "")?;
    log.set_id("agent-steps");
    log.set_attribute("role", "log")?;
    log.set_attribute("aria-label", &i18n::message("runLogLabel"))?;
    log.set_attribute("tabindex", "0")?;
    let follow = Follow::new(&log, pane, "agent-jump-latest")?;
    let answer = dom::append(pane, "div", "agent-answer", "")?;
    answer.set_id("agent-answer");
    answer.set_attribute("hidden", "")?;
    let export = icons::button(pane, "agent-export", Icon::Export, &i18n::message("exportRun"))?;
    export.set_attribute("hidden", "")?;
    let status = dom::append(pane, "div", "usage", "")?;
    status.set_id("agent-status");
    status.set_attribute("role", "status")?;
    let composer = Composer::new(pane, "agent-task", "agent-run", "agentPlaceholder")?;
    let chip = composer.chip("agent-provider-chip", Icon::Spark)?;
    dom::on(&chip, "click", || {
        if let Some(w) = web_sys::window() {
            let _ = w.open_with_url_and_target(&dusk_chrome::runtime::get_url("options.html#provider"), "_blank");
        }
    })?;
    let permission = composer.chip("permission-chip", Icon::Shield)?;
    let ui = Rc::new(Pane {
        window_id,
        kind: Cell::new(RunKind::Act),
        composer: composer.clone(),
        tab,
        log,
        follow,
        card: RefCell::new(None),
        answer,
        export: export.clone(),
        status,
        permission: permission.clone(),
        streamed: RefCell::new(String::new()),
        site: RefCell::new(String::new()),
        conn: RefCell::new(None),
    });
    let handler = ui.clone();
    let conn: Conn = Connection::new(AGENT_PORT, move |event| {
        if let Err(e) = handler.handle(event) {
            web_sys::console::error_1(&e);
        }
    });
    *ui.conn.borrow_mut() = Some(conn.clone());
    conn.send(&AgentPortRequest::ListTabs { window_id })?;
    conn.send(&AgentPortRequest::Load { window_id })?;
    let (start, stop) = (ui.clone(), ui.clone());
    composer.bind(Rc::new(move || start.start()), Rc::new(move || stop.send(&AgentPortRequest::Stop { window_id })))?;
    {
        let ui = ui.clone();
        dom::on(&export, "click", move || ui.export_run())?;
    }
    {
        let refresh = ui.clone();
        dom::on(ui.tab.as_ref(), "focus", move || refresh.send(&AgentPortRequest::ListTabs { window_id }))?;
    }
    {
        let (chip, status) = (permission.clone(), ui.status.clone());
        dom::on(&permission, "click", move || chips::toggle_permission(&chip, &status))?;
    }
    chips::follow_permission(&permission);
    chips::show_provider(&chip);
    // A provider set in options, or the chip changed in another window, shows here at once.
    let me = ui.clone();
    storage::on_changed(move |changes, area| {
        let has = |key: &str| js_sys::Reflect::has(&changes, &key.into()).unwrap_or(false);
        if area != "local" {
            return;
        }
        if has(dusk_core::settings::STORAGE_KEY) {
            chips::show_provider(&chip);
        }
        if has(AGENT_SETTINGS) {
            chips::follow_permission(&me.permission);
        }
    });
    Ok(ui)
}

impl Pane {
    /// The tabs: the same pane runs either agent; only the words change.
    pub fn set_kind(&self, kind: RunKind) {
        self.kind.set(kind);
        let placeholder = match kind {
            RunKind::Act => "agentPlaceholder",
            RunKind::Customize => "customizePlaceholder",
        };
        self.composer.set_placeholder(placeholder);
        // The permission chip is the browser agent's; Customize asks before every save anyway.
        let _ = self.permission.toggle_attribute_with_force("hidden", kind == RunKind::Customize);
    }

    /// Esc: stops the run if one is going; whether it did.
    pub fn stop_if_running(&self) -> bool {
        let running = self.composer.running();
        if running {
            self.send(&AgentPortRequest::Stop { window_id: self.window_id });
        }
        running
    }

    pub fn export_run(&self) {
        self.send(&AgentPortRequest::ExportRun { window_id: self.window_id });
    }

    /// New: an empty view for the next task (a run still going keeps its card).
    pub fn clear(&self) {
        if self.composer.running() {
            return;
        }
        self.log.set_inner_html("");
        self.card.borrow_mut().take();
        let _ = self.answer.set_attribute("hidden", "");
        let _ = self.export.set_attribute("hidden", "");
        self.status.set_text_content(None);
        let _ = self.composer.text.focus();
    }

    /// A kept run from History, read-only; refused while a run is going here.
    pub fn show_kept(&self, run: &KeptRun, date: &str) -> Result<(), JsValue> {
        if self.composer.running() {
            self.status.set_text_content(Some(&i18n::message("historyBusy")));
            return Ok(());
        }
        self.log.set_inner_html("");
        self.log.class_list().add_1("kept")?;
        let card = run_card::start(&self.log, &run.task, &self.answer, &self.export)?;
        super::kept::fill(&card, &self.answer, &self.status, run, date)?;
        *self.card.borrow_mut() = Some(card);
        self.follow.reset();
        Ok(())
    }

    fn send(&self, request: &AgentPortRequest) {
        if let Some(conn) = self.conn.borrow().as_ref() {
            if let Err(e) = conn.send(request) {
                self.status.set_text_content(Some(&format!("{e:?}")));
            }
        }
    }

    fn start(&self) {
        if self.composer.running() || self.composer.text.value().trim().is_empty() {
            return;
        }
        let text = self.composer.take();
        let tab_id = self.tab.value().parse().ok();
        *self.site.borrow_mut() = self.tab.query_selector("option:checked").ok().flatten().and_then(|o| o.get_attribute("data-host")).unwrap_or_default();
        self.composer.set_running(true);
        self.send(&AgentPortRequest::Start { window_id: self.window_id, task: text, tab_id, kind: self.kind.get() });
    }

    fn handle(&self, event: Result<AgentPortEvent, String>) -> Result<(), JsValue> {
        match event {
            Ok(AgentPortEvent::Tabs { tabs, active }) => self.fill_tabs(&tabs, active),
            Ok(AgentPortEvent::Idle) => Ok(()),
            Ok(AgentPortEvent::Event { event }) => self.event(event),
            Ok(AgentPortEvent::Confirm { card }) => {
                let conn = self.conn.borrow().clone().ok_or("no connection")?;
                approval::render(&self.log, card, self.window_id, conn)?;
                if let Some(c) = self.card.borrow().as_ref() {
                    c.set_state("waiting");
                }
                self.follow.changed();
                Ok(())
            }
            Ok(AgentPortEvent::ConfirmClosed { step, approved }) => {
                if let Some(card) = self.log.query_selector(&format!(".confirm-card[data-step=\"{step}\"]"))? {
                    card.remove();
                }
                let key = if approved { "agentApproved" } else { "agentDeclined" };
                if let Some(c) = self.card.borrow().as_ref() {
                    c.set_state("running");
                    c.step(step, "", &self.site.borrow())?.set_attribute("data-decision", &i18n::message(key))?;
                }
                Ok(())
            }
            Ok(AgentPortEvent::RunExport { run }) => super::export_run(&run),
            Ok(AgentPortEvent::Error { message }) => {
                self.status.set_text_content(Some(&message));
                self.status.class_list().add_1("error")
            }
            // The worker went away mid-run: reconnecting wakes it; it resumes and replays the run.
            Err(_) if self.composer.running() => {
                self.send(&AgentPortRequest::Load { window_id: self.window_id });
                Ok(())
            }
            Err(_) => Ok(()),
        }
    }

    fn fill_tabs(&self, tabs: &[TabView], active: Option<i32>) -> Result<(), JsValue> {
        let keep = self.tab.value();
        let select: &Element = self.tab.as_ref();
        select.set_inner_html("");
        for t in tabs {
            let option = dom::append(select, "option", "", if t.title.is_empty() { &t.url } else { &t.title })?;
            option.set_attribute("value", &t.tab_id.to_string())?;
            option.set_attribute("data-host", &dusk_core::browser_agent::safety::site::host(&t.url).unwrap_or_default())?;
        }
        let pick = if keep.is_empty() { active.map(|a| a.to_string()).unwrap_or_default() } else { keep };
        if !pick.is_empty() {
            self.tab.set_value(&pick);
        }
        Ok(())
    }

    fn with_card(&self, f: impl FnOnce(&RunCard) -> Result<(), JsValue>) -> Result<(), JsValue> {
        match self.card.borrow().as_ref() {
            Some(c) => f(c),
            None => Ok(()),
        }
    }

    fn event(&self, event: AgentEvent) -> Result<(), JsValue> {
        match event {
            AgentEvent::Started { task, .. } => {
                self.composer.set_running(true);
                self.log.set_inner_html("");
                self.log.class_list().remove_1("kept")?;
                self.answer.set_attribute("hidden", "")?;
                self.answer.set_class_name("agent-answer");
                self.status.class_list().remove_1("error")?;
                self.status.set_text_content(None);
                self.export.remove_attribute("hidden")?;
                *self.card.borrow_mut() = Some(run_card::start(&self.log, &task, &self.answer, &self.export)?);
                self.follow.reset();
            }
            AgentEvent::ModelTurn { n, of } => {
                self.streamed.borrow_mut().clear();
                let text = format!("{} {n}/{of}", i18n::message("agentThinking"));
                self.with_card(|c| {
                    c.live(&text);
                    c.update();
                    Ok(())
                })?;
            }
            AgentEvent::TextDelta { text } => self.streamed.borrow_mut().push_str(&text),
            AgentEvent::TextReset => self.streamed.borrow_mut().clear(),
            AgentEvent::ToolStarted { step, tool, summary } => self.with_card(|c| {
                let el = c.step(step, &tool, &self.site.borrow())?;
                el.class_list().add_1("running")?;
                set_text(&el, &summary)?;
                c.live(&summary);
                Ok(())
            })?,
            AgentEvent::ToolFinished { step, tool, success, summary } => self.with_card(|c| {
                let el = c.step(step, &tool, &self.site.borrow())?;
                el.class_list().remove_1("running")?;
                el.class_list().toggle_with_force("failed", !success)?;
                // A failure's summary is only the reason: keep what was being tried before it.
                let tried = el.query_selector(".text")?.and_then(|t| t.text_content()).filter(|t| !t.is_empty() && !success);
                set_text(&el, &tried.map_or(summary.clone(), |t| format!("{t} — {summary}")))
            })?,
            AgentEvent::Screenshot { step, data_url } => self.with_card(|c| {
                let el = c.step(step, "screenshot", &self.site.borrow())?;
                let img = dom::append(&el, "img", "thumb", "")?;
                img.set_attribute("src", &data_url)?;
                img.set_attribute("alt", &i18n::message("agentScreenshot"))?;
                Ok(())
            })?,
            AgentEvent::Note { text } => self.with_card(|c| c.note(&text))?,
            AgentEvent::ConfirmRequest { .. } => self.status.set_text_content(Some(&i18n::message("agentWaiting"))),
            AgentEvent::Usage { input_tokens, output_tokens, cost_usd } => {
                let text = format!("{} {} · {}", input_tokens + output_tokens, i18n::message("tokens"), crate::status::cost_text(cost_usd));
                self.status.set_text_content(Some(&text));
            }
            AgentEvent::Finished { text } => self.end("done", &markdown::render(&text))?,
            AgentEvent::Failed { message } => self.end("failed", &html_escape(&message))?,
            AgentEvent::Stopped => self.end("stopped", &html_escape(&i18n::message("stoppedNote")))?,
        }
        self.follow.changed();
        Ok(())
    }

    fn end(&self, class: &str, html: &str) -> Result<(), JsValue> {
        self.composer.set_running(false);
        for card in list(&self.log, ".confirm-card") {
            card.remove();
        }
        self.with_card(|c| {
            c.set_state(class);
            Ok(())
        })?;
        self.answer.set_inner_html(html);
        self.answer.set_class_name(&format!("agent-answer {class}"));
        self.answer.remove_attribute("hidden")
    }
}

fn set_text(el: &Element, text: &str) -> Result<(), JsValue> {
    el.query_selector(".text")?.ok_or("no .text")?.set_text_content(Some(text));
    Ok(())
}

fn list(root: &Element, selector: &str) -> Vec<Element> {
    let Ok(nodes) = root.query_selector_all(selector) else { return vec![] };
    (0..nodes.length()).filter_map(|i| nodes.item(i)?.dyn_into::<Element>().ok()).collect()
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}
