//! Agent mode: a task for a tab, the live step list with thumbnails, confirmation cards, Stop,
//! the final answer and the run's export. The worker owns the run; this page only shows it.

use super::connection::Connection;
use crate::dom;
use dusk_chrome::i18n;
use dusk_core::agent::AgentEvent;
use dusk_core::browser_agent::{RunKind, TabView};
use dusk_core::chat::markdown;
use dusk_core::protocol::actions::FilePayload;
use dusk_core::protocol::{AgentPortEvent, AgentPortRequest, ConfirmCard, AGENT_PORT};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Element, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};

type Conn = Connection<AgentPortRequest, AgentPortEvent>;

pub struct Pane {
    window_id: i32,
    /// Agent (act on pages) or Customize (change the site), picked by the mode buttons.
    kind: Cell<RunKind>,
    task: HtmlTextAreaElement,
    tab: HtmlSelectElement,
    run: Element,
    stop: Element,
    status: Element,
    steps: Element,
    answer: Element,
    /// Text streamed in the current model turn (the final answer, when no tool follows).
    streamed: RefCell<String>,
    running: Cell<bool>,
    conn: RefCell<Option<Conn>>,
}

pub fn render(pane: &Element, window_id: i32) -> Result<Rc<Pane>, JsValue> {
    let row = dom::append(pane, "div", "agent-row", "")?;
    let tab_label = dom::append_i18n(&row, "label", "", "agentTab")?;
    tab_label.set_attribute("for", "agent-tab")?;
    let tab: HtmlSelectElement = dom::append(&row, "select", "", "")?.dyn_into()?;
    tab.set_id("agent-tab");
    let export = dom::append_i18n(&row, "button", "icon", "exportRun")?;
    export.set_id("agent-export");
    let steps = dom::append(pane, "ol", "agent-steps", "")?;
    steps.set_id("agent-steps");
    steps.set_attribute("aria-live", "polite")?;
    let answer = dom::append(pane, "div", "agent-answer", "")?;
    answer.set_id("agent-answer");
    answer.set_attribute("hidden", "")?;
    let status = dom::append(pane, "div", "usage", "")?;
    status.set_id("agent-status");
    let composer = dom::append(pane, "div", "composer", "")?;
    let task: HtmlTextAreaElement = dom::append(&composer, "textarea", "", "")?.dyn_into()?;
    task.set_id("agent-task");
    task.set_placeholder(&i18n::message("agentPlaceholder"));
    task.set_attribute("aria-label", &i18n::message("agentPlaceholder"))?;
    let run = dom::append_i18n(&composer, "button", "primary", "agentRun")?;
    run.set_id("agent-run");
    let stop = dom::append_i18n(&composer, "button", "stop", "stop")?;
    stop.set_id("agent-stop");
    stop.set_attribute("hidden", "")?;

    let ui = Rc::new(Pane {
        window_id,
        kind: Cell::new(RunKind::Act),
        task: task.clone(),
        tab,
        run: run.clone(),
        stop: stop.clone(),
        status,
        steps,
        answer,
        streamed: RefCell::new(String::new()),
        running: Cell::new(false),
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
    {
        let (ui, task) = (ui.clone(), task.clone());
        dom::on(&run, "click", move || ui.start(&task))?;
    }
    {
        let (ui, field) = (ui.clone(), task.clone());
        let on_key = Closure::<dyn Fn(web_sys::KeyboardEvent)>::new(move |e: web_sys::KeyboardEvent| {
            if e.key() == "Enter" && !e.shift_key() && !e.is_composing() {
                e.prevent_default();
                ui.start(&field);
            }
        });
        task.add_event_listener_with_callback("keydown", on_key.as_ref().unchecked_ref())?;
        on_key.forget();
    }
    {
        let ui = ui.clone();
        dom::on(&stop, "click", move || ui.send(&AgentPortRequest::Stop { window_id }))?;
    }
    {
        let ui = ui.clone();
        dom::on(&export, "click", move || ui.send(&AgentPortRequest::ExportRun { window_id }))?;
    }
    {
        let refresh = ui.clone();
        dom::on(ui.tab.as_ref(), "focus", move || refresh.send(&AgentPortRequest::ListTabs { window_id }))?;
    }
    Ok(ui)
}

impl Pane {
    /// The mode buttons: the same pane runs either agent; only the words change.
    pub fn set_kind(&self, kind: RunKind) {
        self.kind.set(kind);
        let (placeholder, run) = match kind {
            RunKind::Act => ("agentPlaceholder", "agentRun"),
            RunKind::Customize => ("customizePlaceholder", "customizeRun"),
        };
        self.task.set_placeholder(&i18n::message(placeholder));
        let _ = self.task.set_attribute("aria-label", &i18n::message(placeholder));
        self.run.set_text_content(Some(&i18n::message(run)));
    }

    /// Esc: stops the run if one is going; whether it did.
    pub fn stop_if_running(&self) -> bool {
        if self.running.get() {
            self.send(&AgentPortRequest::Stop { window_id: self.window_id });
        }
        self.running.get()
    }

    /// A kept run from History, read-only; refused while a run is going here.
    pub fn show_kept(&self, run: &dusk_core::history::KeptRun, date: &str) -> Result<(), JsValue> {
        if self.running.get() {
            self.status.set_text_content(Some(&i18n::message("historyBusy")));
            return Ok(());
        }
        super::kept::render(&self.steps, &self.answer, &self.status, run, date)
    }

    fn send(&self, request: &AgentPortRequest) {
        if let Some(conn) = self.conn.borrow().as_ref() {
            if let Err(e) = conn.send(request) {
                self.status.set_text_content(Some(&format!("{e:?}")));
            }
        }
    }

    fn start(&self, task: &HtmlTextAreaElement) {
        let text = task.value().trim().to_string();
        if text.is_empty() || self.running.get() {
            return;
        }
        task.set_value("");
        let tab_id = self.tab.value().parse().ok();
        self.set_running(true);
        self.send(&AgentPortRequest::Start { window_id: self.window_id, task: text, tab_id, kind: self.kind.get() });
    }

    fn set_running(&self, running: bool) {
        self.running.set(running);
        let _ = self.stop.toggle_attribute_with_force("hidden", !running);
        let _ = self.run.toggle_attribute_with_force("disabled", running);
    }

    fn handle(&self, event: Result<AgentPortEvent, String>) -> Result<(), JsValue> {
        match event {
            Ok(AgentPortEvent::Tabs { tabs, active }) => self.fill_tabs(&tabs, active),
            Ok(AgentPortEvent::Idle) => Ok(()),
            Ok(AgentPortEvent::Event { event }) => self.event(event),
            Ok(AgentPortEvent::Confirm { card }) => self.card(card),
            Ok(AgentPortEvent::ConfirmClosed { step, approved }) => {
                if let Some(card) = self.steps.query_selector(&format!(".confirm-card[data-step=\"{step}\"]"))? {
                    card.parent_element().unwrap_or(card).remove();
                }
                let key = if approved { "agentApproved" } else { "agentDeclined" };
                self.step_el(step)?.set_attribute("data-decision", &i18n::message(key))
            }
            Ok(AgentPortEvent::RunExport { run }) => super::export_run(&run),
            Ok(AgentPortEvent::Error { message }) => {
                self.status.set_text_content(Some(&message));
                self.status.class_list().add_1("error")
            }
            // The worker went away mid-run: reconnecting wakes it; it resumes and replays the run.
            Err(_) if self.running.get() => {
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
        }
        let pick = if keep.is_empty() { active.map(|a| a.to_string()).unwrap_or_default() } else { keep };
        if !pick.is_empty() {
            self.tab.set_value(&pick);
        }
        Ok(())
    }

    fn step_el(&self, step: u32) -> Result<Element, JsValue> {
        if let Some(el) = self.steps.query_selector(&format!(".agent-step[data-step=\"{step}\"]"))? {
            return Ok(el);
        }
        let el = dom::append(&self.steps, "li", "agent-step", "")?;
        el.set_attribute("data-step", &step.to_string())?;
        dom::append(&el, "span", "text", "")?;
        Ok(el)
    }

    fn event(&self, event: AgentEvent) -> Result<(), JsValue> {
        match event {
            AgentEvent::Started { task, .. } => {
                self.set_running(true);
                self.steps.set_inner_html("");
                self.steps.class_list().remove_1("kept")?;
                self.answer.set_attribute("hidden", "")?;
                self.answer.set_class_name("agent-answer");
                self.status.class_list().remove_1("error")?;
                dom::append(&self.steps, "li", "agent-task", &task)?;
            }
            AgentEvent::ModelTurn { n, of } => {
                self.streamed.borrow_mut().clear();
                self.status.set_text_content(Some(&format!("{} {n}/{of}", i18n::message("agentThinking"))));
            }
            AgentEvent::TextDelta { text } => self.streamed.borrow_mut().push_str(&text),
            AgentEvent::TextReset => self.streamed.borrow_mut().clear(),
            AgentEvent::ToolStarted { step, summary, .. } => {
                let el = self.step_el(step)?;
                el.class_list().add_1("running")?;
                set_text(&el, &summary)?;
            }
            AgentEvent::ToolFinished { step, success, summary, .. } => {
                let el = self.step_el(step)?;
                el.class_list().remove_1("running")?;
                el.class_list().toggle_with_force("failed", !success)?;
                // A failure's summary is only the reason: keep what was being tried before it.
                let tried = el.query_selector(".text")?.and_then(|t| t.text_content()).filter(|t| !t.is_empty() && !success);
                set_text(&el, &tried.map_or(summary.clone(), |t| format!("{t} — {summary}")))?;
            }
            AgentEvent::Screenshot { step, data_url } => {
                let el = self.step_el(step)?;
                let img = dom::append(&el, "img", "thumb", "")?;
                img.set_attribute("src", &data_url)?;
                img.set_attribute("alt", &i18n::message("agentScreenshot"))?;
            }
            AgentEvent::ConfirmRequest { .. } => self.status.set_text_content(Some(&i18n::message("agentWaiting"))),
            AgentEvent::Usage { input_tokens, output_tokens, cost_usd } => {
                let text = format!("{} {} · {}", input_tokens + output_tokens, i18n::message("tokens"), crate::status::cost_text(cost_usd));
                self.status.set_text_content(Some(&text));
            }
            AgentEvent::Finished { text } => self.end("done", &markdown::render(&text))?,
            AgentEvent::Failed { message } => self.end("failed", &html_escape(&message))?,
            AgentEvent::Stopped => self.end("stopped", &html_escape(&i18n::message("stoppedNote")))?,
        }
        self.steps.set_scroll_top(self.steps.scroll_height());
        Ok(())
    }

    fn end(&self, class: &str, html: &str) -> Result<(), JsValue> {
        self.set_running(false);
        for card in list(&self.steps, ".confirm-card") {
            card.parent_element().unwrap_or(card).remove();
        }
        self.answer.set_inner_html(html);
        self.answer.set_class_name(&format!("agent-answer {class}"));
        self.answer.remove_attribute("hidden")
    }

    fn card(&self, card: ConfirmCard) -> Result<(), JsValue> {
        let r = &card.request;
        // The list holds a plain item; the card inside it is the dialog, named by its title.
        let item = dom::append(&self.steps, "li", "confirm-item", "")?;
        let el = dom::append(&item, "div", "confirm-card", "")?;
        el.set_attribute("role", "alertdialog")?;
        el.set_attribute("aria-labelledby", &format!("confirm-title-{}", r.step))?;
        el.set_attribute("data-run-id", &r.run_id)?;
        el.set_attribute("data-step", &r.step.to_string())?;
        el.set_attribute("data-digest", &r.digest)?;
        dom::append_i18n(&el, "strong", "confirm-title", "agentConfirmTitle")?.set_id(&format!("confirm-title-{}", r.step));
        let action = dom::append(&el, "div", "confirm-action", "")?;
        dom::append_i18n(&action, "span", "confirm-label", "agentWillHappen")?;
        dom::append(&action, "span", "", &format!(" {} — {}", r.tool, r.summary))?;
        if let Some(t) = &r.target {
            let text = if t.text.is_empty() { format!("[{}] {}", t.index, t.tag) } else { format!("“{}” ({})", t.text, t.tag) };
            dom::append(&el, "div", "confirm-target", &text)?;
        }
        if let Some(page) = &r.page {
            dom::append(&el, "div", "confirm-page", page)?;
        }
        if !r.reasons.is_empty() {
            dom::append(&el, "div", "confirm-reasons", &r.reasons.join("; "))?;
        }
        if let Some(detail) = &r.detail {
            dom::append(&el, "pre", "confirm-code", detail)?;
        }
        if let Some(crop) = &card.crop {
            let img = dom::append(&el, "img", "confirm-crop", "")?;
            img.set_attribute("src", crop)?;
            img.set_attribute("alt", &i18n::message("agentCropAlt"))?;
        }
        let picker: Option<HtmlInputElement> = if card.upload {
            let label = dom::append_i18n(&el, "label", "confirm-file", "agentPickFile")?;
            let input: HtmlInputElement = dom::append(&label, "input", "", "")?.dyn_into()?;
            input.set_type("file");
            Some(input)
        } else {
            None
        };
        let buttons = dom::append(&el, "div", "confirm-buttons", "")?;
        // A save of the site's CSS or JS is the user's Save click.
        let approve_label = if r.tool.starts_with("save_site") { "customizeSave" } else { "agentApprove" };
        let approve = dom::append_i18n(&buttons, "button", "approve primary", approve_label)?;
        let deny = dom::append_i18n(&buttons, "button", "deny", "agentDeny")?;
        let window_id = self.window_id;
        let conn = self.conn.borrow().clone().ok_or("no connection")?;
        {
            let (conn, card) = (conn.clone(), card.clone());
            dom::on(&approve, "click", move || {
                let (conn, card, picker) = (conn.clone(), card.clone(), picker.clone());
                wasm_bindgen_futures::spawn_local(async move {
                    let files = match &picker {
                        Some(p) => read_files(p).await.unwrap_or_default(),
                        None => vec![],
                    };
                    let r = &card.request;
                    let _ = conn.send(&AgentPortRequest::Approve {
                        window_id,
                        run_id: r.run_id.clone(),
                        step: r.step,
                        digest: r.digest.clone(),
                        token: card.token.clone(),
                        files,
                    });
                });
            })?;
        }
        dom::on(&deny, "click", move || {
            let r = &card.request;
            let _ = conn.send(&AgentPortRequest::Deny { window_id, run_id: r.run_id.clone(), step: r.step, token: card.token.clone() });
        })?;
        if let Ok(b) = approve.dyn_into::<web_sys::HtmlElement>() {
            let _ = b.focus();
        }
        Ok(())
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

/// The picked files as base64 (at most 5 MB in all, as the page will check again).
async fn read_files(input: &HtmlInputElement) -> Result<Vec<FilePayload>, JsValue> {
    let mut out = Vec::new();
    let Some(files) = input.files() else { return Ok(out) };
    let window = web_sys::window().ok_or("no window")?;
    for i in 0..files.length() {
        let Some(file) = files.get(i) else { continue };
        let buffer = JsFuture::from(file.array_buffer()).await?;
        let bytes = js_sys::Uint8Array::new(&buffer).to_vec();
        let binary: String = bytes.iter().map(|&b| b as char).collect();
        out.push(FilePayload { name: file.name(), mime: file.type_(), base64: window.btoa(&binary)? });
    }
    Ok(out)
}
