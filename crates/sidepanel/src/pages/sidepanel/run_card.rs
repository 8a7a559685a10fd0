//! An agent run as one card: a header with the status, the step count and the elapsed time, the
//! steps folded under "Show N steps" (icon, label in words, site), a live line for the step in
//! progress, and the answer, which stays visible. Live runs and kept ones share it.

use crate::dom;
use crate::icons::{self, Icon};
use dusk_chrome::i18n;
use std::cell::Cell;
use wasm_bindgen::prelude::*;
use web_sys::Element;

pub struct RunCard {
    pub root: Element,
    state: Element,
    meta: Element,
    fold: Element,
    fold_label: Element,
    pub steps: Element,
    live: Element,
    started_ms: f64,
    count: Cell<u32>,
}

/// Starts a card in `log` for `task`, after its task bubble; `answer` moves into it.
pub fn start(log: &Element, task: &str, answer: &Element, export: &Element) -> Result<RunCard, JsValue> {
    dom::append(log, "div", "agent-task", task)?;
    let root = dom::append(log, "article", "run-card", "")?;
    root.set_attribute("aria-label", &i18n::message("runCardLabel"))?;
    let head = dom::append(&root, "div", "run-head", "")?;
    let state = dom::append(&head, "span", "run-state", "")?;
    let meta = dom::append(&head, "span", "run-meta", "")?;
    head.append_child(export)?;
    let fold = dom::append(&root, "details", "run-steps", "")?;
    fold.set_id("agent-steps-fold");
    let fold_label = dom::append(&fold, "summary", "", "")?;
    let steps = dom::append(&fold, "ol", "steps", "")?;
    let live = dom::append(&root, "div", "run-live", "")?;
    live.set_id("agent-live");
    live.set_attribute("hidden", "")?;
    root.append_child(answer)?;
    let card = RunCard { root, state, meta, fold, fold_label, steps, live, started_ms: js_sys::Date::now(), count: Cell::new(0) };
    card.set_state("running");
    card.update();
    Ok(card)
}

impl RunCard {
    /// "running" | "waiting" | "done" | "failed" | "stopped" | "kept".
    pub fn set_state(&self, state: &str) {
        let key = match state {
            "running" => "runRunning",
            "waiting" => "runWaiting",
            "done" => "runDone",
            "failed" => "runFailed",
            "kept" => "historyKeptRun",
            _ => "runStopped",
        };
        let _ = self.root.set_attribute("data-state", state);
        self.state.set_text_content(Some(&i18n::message(key)));
        // The live line is the step in progress; an approval card says what waits.
        if state != "running" {
            let _ = self.live.set_attribute("hidden", "");
        }
        self.update();
    }

    /// "3 steps · 12 s", and the fold's "Show 3 steps".
    pub fn update(&self) {
        let n = self.count.get();
        let seconds = ((js_sys::Date::now() - self.started_ms) / 1000.0).round().max(0.0) as u64;
        let steps = if n == 1 { i18n::message("runOneStep") } else { i18n::message_with("runSteps", &[&n.to_string()]) };
        self.meta.set_text_content(Some(&format!("{steps} · {}", i18n::message_with("runSeconds", &[&seconds.to_string()]))));
        let show = if n == 1 { i18n::message("runShowOneStep") } else { i18n::message_with("runShowSteps", &[&n.to_string()]) };
        self.fold_label.set_text_content(Some(&show));
        let _ = self.fold.toggle_attribute_with_force("hidden", n == 0);
    }

    /// A kept run shows how long it took, not how long ago it started.
    pub fn set_meta(&self, text: &str) {
        self.meta.set_text_content(Some(text));
    }

    /// The step row `n`, made on first use: icon, words, site.
    pub fn step(&self, n: u32, tool: &str, site: &str) -> Result<Element, JsValue> {
        if let Some(el) = self.steps.query_selector(&format!(".agent-step[data-step=\"{n}\"]"))? {
            return Ok(el);
        }
        let el = dom::append(&self.steps, "li", "agent-step", "")?;
        el.set_attribute("data-step", &n.to_string())?;
        el.set_attribute("data-tool", tool)?;
        icons::append(&el, icon_for(tool))?;
        dom::append(&el, "span", "text", "")?;
        if !site.is_empty() {
            dom::append(&el, "span", "site", site)?;
        }
        self.count.set(self.count.get().max(n).max(self.steps.child_element_count()));
        self.update();
        Ok(el)
    }

    /// A line about the whole run (what a setting leaves out), above its steps.
    pub fn note(&self, text: &str) -> Result<(), JsValue> {
        let line = dom::document()?.create_element("p")?;
        line.set_class_name("run-note");
        line.set_text_content(Some(text));
        self.root.insert_before(&line, Some(&self.fold))?;
        Ok(())
    }

    /// The line under the steps: what happens now.
    pub fn live(&self, text: &str) {
        self.live.set_text_content(Some(text));
        let _ = self.live.remove_attribute("hidden");
    }
}

fn icon_for(tool: &str) -> Icon {
    match tool {
        "click" | "hover" | "drag_drop" => Icon::Click,
        "type" | "select" | "press_key" | "upload_file" => Icon::Type,
        "navigate" | "go_back" | "go_forward" | "refresh" | "switch_tab" => Icon::Open,
        "scroll" => Icon::Scroll,
        "wait" => Icon::Wait,
        "execute_js" | "save_site_css" | "save_site_js" | "preview_css" => Icon::Palette,
        _ => Icon::Look,
    }
}
