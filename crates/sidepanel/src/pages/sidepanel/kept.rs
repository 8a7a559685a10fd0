//! A kept agent or Customize run, shown read-only in its card: the steps with their small
//! screenshots, folded, and how it ended.

use super::run_card::RunCard;
use dusk_chrome::i18n;
use dusk_core::agent::RunStatus;
use dusk_core::chat::markdown;
use dusk_core::history::KeptRun;
use wasm_bindgen::prelude::*;
use web_sys::Element;

pub fn fill(card: &RunCard, answer: &Element, status: &Element, run: &KeptRun, date: &str) -> Result<(), JsValue> {
    // A kept step has no page of its own; the list says the site.
    let site = String::new();
    for s in &run.steps {
        let li = card.step(s.n, &s.tool, &site)?;
        li.class_list().toggle_with_force("failed", !s.success)?;
        if let Some(text) = li.query_selector(".text")? {
            text.set_text_content(Some(&s.summary));
        }
        if let Some(thumb) = &s.thumb {
            let img = crate::dom::append(&li, "img", "thumb", "")?;
            img.set_attribute("src", thumb)?;
            img.set_attribute("alt", &format!("{} {}", i18n::message("agentScreenshot"), s.n))?;
        }
    }
    let (class, html) = match &run.status {
        RunStatus::Finished { text } => ("done", markdown::render(text)),
        RunStatus::Failed { message } => ("failed", escape(message)),
        RunStatus::Stopped | RunStatus::Running => ("stopped", escape(&i18n::message("stoppedNote"))),
    };
    card.set_state(class);
    card.set_meta(date);
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
