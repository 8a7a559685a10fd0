//! The popup's run card: while a Quick/Thorough run works, its stage, round and Stop; after it,
//! one result card with AA before → after, turns, tokens, cost and the version buttons. The
//! site's current version always sits on its own labelled line.

use super::{ask, show_and_follow};
use crate::dom;
use dusk_chrome::i18n;
use dusk_core::dark::site::Mode;
use dusk_core::protocol::dark::{DarkRequest, DarkRunView, RunStage, TabDarkState};
use wasm_bindgen::prelude::*;
use web_sys::Element;

fn fill(template: &str, pairs: &[(&str, String)]) -> String {
    pairs.iter().fold(template.to_string(), |t, (k, v)| t.replace(&format!("{{{k}}}"), v))
}

fn percent(share: Option<f64>) -> String {
    share.map_or("–".into(), |s| format!("{:.1}%", s * 100.0))
}

fn mode_name(mode: Mode) -> String {
    i18n::message(match mode {
        Mode::Instant => "darkModeInstantShort",
        Mode::Quick => "darkModeQuickShort",
        Mode::Thorough => "darkModeThoroughShort",
    })
}

/// The run card (if the tab has a run) and the version line with its buttons.
pub(super) fn render(section: &Element, state: &TabDarkState) -> Result<(), JsValue> {
    let (Some(run), Some(tab_id)) = (&state.run, state.tab_id) else { return version(section, state) };
    let card = dom::append(section, "div", "run card", "")?;
    card.set_id("dark-run");
    card.set_attribute("role", "group")?;
    card.set_attribute("aria-labelledby", "dark-run-stage")?;
    card.set_attribute("data-stage", &serde_json::to_value(run.stage).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default())?;
    let stage = dom::append(&card, "div", "stage", &format!("{} · {}", mode_name(run.mode), stage_text(run)))?;
    stage.set_id("dark-run-stage");
    // Read out as the run moves on, without taking the focus.
    stage.set_attribute("aria-live", "polite")?;
    if run.aa_instant.is_some() {
        let aa = fill(&i18n::message("darkAa"), &[("before", percent(run.aa_instant)), ("after", percent(run.aa.or(run.aa_instant)))]);
        dom::append(&card, "div", "aa", &aa)?.set_id("dark-run-aa");
    }
    if let Some(m) = &run.message {
        dom::append(&card, "div", "message", m)?.set_id("dark-run-message");
    }
    if run.stage.is_running() {
        let stop = dom::append_i18n(&card, "button", "stop", "darkStop")?;
        stop.set_id("dark-stop");
        let redraw = section.clone();
        dom::on(&stop, "click", move || {
            let section = redraw.clone();
            wasm_bindgen_futures::spawn_local(async move { show_and_follow(&section, ask(DarkRequest::DarkStop { tab_id }).await).await });
        })?;
        // The version the site has now, outside the card: it is not what the run produced.
        return version(section, state);
    }
    let stats = fill(
        &i18n::message("darkRunStats"),
        &[
            ("turns", run.turn.to_string()),
            ("tokens", dusk_core::llm::usage::group_digits(run.input_tokens + run.output_tokens)),
            ("cost", crate::status::cost_text(run.cost_usd)),
        ],
    );
    dom::append(&card, "div", "stats", &stats)?.set_id("dark-run-stats");
    version(&card, state)
}

fn stage_text(run: &DarkRunView) -> String {
    match run.stage {
        RunStage::Analyzing => i18n::message("darkStageAnalyzing"),
        RunStage::Generating => i18n::message("darkStageGenerating"),
        RunStage::Refining => fill(&i18n::message("darkStageRefining"), &[("n", run.turn.max(1).to_string()), ("m", run.of.to_string())]),
        RunStage::Done => i18n::message("darkStageDone"),
        RunStage::Failed => i18n::message("darkStageFailed"),
        RunStage::Stopped => i18n::message("darkStageStopped"),
    }
}

/// The site's current version on its own labelled line; Regenerate, Revert and Back to Instant
/// unless a run is working.
fn version(parent: &Element, state: &TabDarkState) -> Result<(), JsValue> {
    let (Some(tab_id), Some(_)) = (state.tab_id, &state.host) else { return Ok(()) };
    let running = state.run.as_ref().is_some_and(|r| r.stage.is_running());
    if state.versions == 0 && (state.mode == Mode::Instant || !state.on) && state.run.is_none() {
        return Ok(());
    }
    let el = dom::append(parent, "div", "version", "")?;
    el.set_id("dark-version");
    let text = match &state.version {
        Some(v) => format!(
            "{} · {} · {} · AA {}",
            fill(&i18n::message("darkVersion"), &[("n", v.number.to_string()), ("m", state.versions.to_string())]),
            mode_name(v.mode),
            v.model,
            percent(Some(v.aa))
        ),
        None => i18n::message("darkModeInstant"),
    };
    // Labelled as the site's current version, so during a run it can't read as a fallback.
    dom::append(&el, "div", "label", &format!("{} {text}", i18n::message("darkCurrentVersion")))?.set_id("dark-version-label");
    if running {
        return Ok(());
    }
    let buttons = dom::append(&el, "div", "buttons", "")?;
    let regenerate_mode = if state.mode == Mode::Instant { Mode::Quick } else { state.mode };
    let actions: [(&str, &str, bool, DarkRequest); 3] = [
        ("dark-regenerate", "darkRegenerate", state.provider_configured && state.on, DarkRequest::DarkRefine { tab_id, mode: regenerate_mode }),
        ("dark-revert", "darkRevert", state.version.is_some(), DarkRequest::DarkRevert { tab_id }),
        ("dark-instant", "darkBackToInstant", state.version.is_some(), DarkRequest::DarkBackToInstant { tab_id }),
    ];
    for (id, key, enabled, request) in actions {
        let button = dom::append_i18n(&buttons, "button", "", key)?;
        button.set_id(id);
        if !enabled {
            button.set_attribute("disabled", "")?;
        }
        let section = parent.closest("#dark")?.unwrap_or_else(|| parent.clone());
        dom::on(&button, "click", move || {
            let (section, request) = (section.clone(), request.clone());
            wasm_bindgen_futures::spawn_local(async move { show_and_follow(&section, ask(request).await).await });
        })?;
    }
    Ok(())
}
