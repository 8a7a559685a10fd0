//! A kept agent or Customize run, shown read-only in the agent pane: the task, the timeline of
//! steps with their small screenshots, and how it ended.

use crate::dom;
use dusk_chrome::i18n;
use dusk_core::agent::RunStatus;
use dusk_core::chat::markdown;
use dusk_core::history::KeptRun;
use wasm_bindgen::prelude::*;
use web_sys::Element;

pub fn render(steps: &Element, answer: &Element, status: &Element, run: &KeptRun, date: &str) -> Result<(), JsValue> {
    steps.set_inner_html("");
    steps.class_list().add_1("kept")?;
    dom::append(steps, "li", "agent-task", &run.task)?;
    for s in &run.steps {
        let li = dom::append(steps, "li", if s.success { "agent-step" } else { "agent-step failed" }, "")?;
        li.set_attribute("data-step", &s.n.to_string())?;
        dom::append(&li, "span", "text", &s.summary)?;
        if let Some(thumb) = &s.thumb {
            let img = dom::append(&li, "img", "thumb", "")?;
            img.set_attribute("src", thumb)?;
            img.set_attribute("alt", &format!("{} {}", i18n::message("agentScreenshot"), s.n))?;
        }
    }
    let (class, html) = match &run.status {
        RunStatus::Finished { text } => ("done", markdown::render(text)),
        RunStatus::Failed { message } => ("failed", escape(message)),
        RunStatus::Stopped | RunStatus::Running => ("stopped", escape(&i18n::message("stoppedNote"))),
    };
    answer.set_inner_html(&html);
    answer.set_class_name(&format!("agent-answer {class}"));
    answer.remove_attribute("hidden")?;
    let tokens = format!("{} {} · {}", run.input_tokens + run.output_tokens, i18n::message("tokens"), crate::status::cost_text(run.cost_usd));
    status.set_text_content(Some(&format!("{} · {date} · {tokens}", i18n::message("historyKeptRun"))));
    status.class_list().remove_1("error")
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}
