//! A Quick or Thorough run on a tab: started, stopped, resumed, and a site's versions reverted.

use super::page::TabPage;
use super::progress::Progress;
use super::running::LIVE;
use super::store;
use crate::fetch::controller_with_timeout;
use crate::llm::{client_for, remember_downgrade};
use crate::route::settings;
use dusk_core::agent::{self, Model, RunOutcome, RunState, StopSignal};
use dusk_core::dark::site::{host_of, Mode};
use dusk_core::dark_agent::quick;
use dusk_core::dark_agent::session::{gather, DarkRunInfo, DarkSession};
use dusk_core::dark_agent::thorough::{self, ThoroughSettings};
use dusk_core::dark_agent::versions::ThemeVersion;
use dusk_core::llm::on_device::{gate, Feature};
use dusk_core::llm::usage::cost_usd;
use dusk_core::protocol::dark::{DarkRunView, RunStage};
use wasm_bindgen::JsValue;
use web_sys::AbortController;

/// A whole run, model calls included, must end within this.
const RUN_TIMEOUT_MS: u32 = 300_000;

fn run_id(tab_id: i32) -> String {
    format!("dark-{tab_id}")
}

fn register(tab_id: i32) -> Option<(StopSignal, AbortController)> {
    let controller = controller_with_timeout(RUN_TIMEOUT_MS).ok()?;
    let stop = StopSignal::new();
    let fresh = LIVE.with(|l| {
        let mut live = l.borrow_mut();
        if live.iter().any(|(t, ..)| *t == tab_id) {
            return false;
        }
        live.push((tab_id, stop.clone(), controller.clone()));
        true
    });
    crate::toolbar::refresh_soon(tab_id);
    fresh.then_some((stop, controller))
}

fn unregister(tab_id: i32) {
    LIVE.with(|l| l.borrow_mut().retain(|(t, ..)| *t != tab_id));
    crate::toolbar::refresh_soon(tab_id);
}

pub fn stop(tab_id: i32) {
    LIVE.with(|l| {
        for (_, stop, controller) in l.borrow().iter().filter(|(t, ..)| *t == tab_id) {
            stop.stop();
            controller.abort_with_reason(&JsValue::from_str("stop"));
        }
    });
}

async fn tab_host(tab_id: i32) -> Result<String, String> {
    let tab = dusk_chrome::tabs::get(tab_id).await.map_err(|_| "the tab was closed".to_string())?;
    let url = js_sys::Reflect::get(&tab, &"url".into()).ok().and_then(|u| u.as_string()).unwrap_or_default();
    host_of(&url).map_err(|r| format!("this page can't be themed ({r:?})"))
}

/// Starts a run and returns at once; the popup follows it through `dark_get_state`.
pub async fn refine(tab_id: i32, mode: Mode) -> Result<(), String> {
    if mode == Mode::Instant {
        return Err("Instant needs no model".into());
    }
    let provider =
        settings::load().await.active().filter(|p| p.is_configured()).ok_or("Quick and Thorough need an LLM provider: add one in Dusk's settings")?;
    let feature = if mode == Mode::Thorough { Feature::ThoroughDark } else { Feature::QuickDark };
    gate::check(&provider, feature).map_err(|e| e.to_string())?;
    let host = tab_host(tab_id).await?;
    let (stop, controller) = register(tab_id).ok_or("a run is already going in this tab")?;
    let view = DarkRunView { mode, stage: RunStage::Analyzing, ..Default::default() };
    store::set_view(tab_id, &view).await;
    wasm_bindgen_futures::spawn_local(async move {
        let client = client_for(provider, controller.signal()).await;
        let page = TabPage { tab_id, stop };
        let progress = Progress::new(tab_id, view);
        let result = start(&page, &host, mode, &client, &progress).await;
        finish(&page, &host, mode, &client.model_name(), result, &progress).await;
        remember_downgrade(&client).await;
        unregister(tab_id);
    });
    Ok(())
}

/// What a run produced: the kept CSS (if any) with its measurement, tokens, turns, and how it ended.
struct Result_ {
    info: Option<DarkRunInfo>,
    turns: u32,
    input_tokens: u64,
    output_tokens: u64,
    ending: Ending,
}

enum Ending {
    Done(Option<String>),
    Stopped,
    Failed(String),
}

async fn start(page: &TabPage, host: &str, mode: Mode, model: &impl Model, progress: &Progress) -> Result_ {
    let failed = |m: String| Result_ { info: None, turns: 0, input_tokens: 0, output_tokens: 0, ending: Ending::Failed(m) };
    let ctx = match gather(page, model.capabilities().vision).await {
        Ok(c) => c,
        Err(e) => return failed(e),
    };
    progress.update(|v| v.aa_instant = Some(ctx.instant.aa_share));
    let info = DarkRunInfo {
        tab_id: page.tab_id,
        host: host.to_string(),
        mode,
        model: model.model_name(),
        instant: ctx.instant.clone(),
        kept: None,
        allow_layout: false,
    };
    match mode {
        Mode::Thorough => {
            let settings: ThoroughSettings = read_local(thorough::SETTINGS_KEY).await.unwrap_or_default();
            let budget = settings.budget();
            let state = thorough::start(run_id(page.tab_id), &ctx, &info, &budget);
            run_thorough(page, state, info, budget, model, progress).await
        }
        _ => {
            progress.update(|v| v.stage = RunStage::Generating);
            let session = DarkSession::new(page, info);
            let outcome = quick::quick(&session, &ctx, model).await;
            let info = session.info.into_inner();
            match outcome {
                Ok(out) => {
                    let message = match &out.applied {
                        None => Some("The model proposed no change.".to_string()),
                        Some(a) if !a.kept => Some(format!("Reverted: {}", a.reasons.join("; "))),
                        Some(_) => None,
                    };
                    Result_ {
                        info: Some(info),
                        turns: 1,
                        input_tokens: out.usage.input_tokens,
                        output_tokens: out.usage.output_tokens,
                        ending: Ending::Done(message),
                    }
                }
                Err(quick::QuickError::Stopped) => Result_ { info: Some(info), turns: 1, input_tokens: 0, output_tokens: 0, ending: Ending::Stopped },
                Err(e) => Result_ { info: Some(info), ..failed(e.to_string()) },
            }
        }
    }
}

async fn run_thorough(page: &TabPage, mut state: RunState, info: DarkRunInfo, budget: agent::Budget, model: &impl Model, progress: &Progress) -> Result_ {
    progress.update(|v| {
        v.stage = RunStage::Refining;
        v.of = budget.max_turns;
    });
    let session = DarkSession::new(page, info);
    let sink = progress.sink(&session);
    let outcome = agent::run(&thorough::spec(budget), &mut state, model, &session, &sink).await;
    let info = session.info.into_inner();
    let ending = match outcome {
        RunOutcome::Finished { text } => Ending::Done(Some(text).filter(|t| !t.trim().is_empty())),
        RunOutcome::Stopped => Ending::Stopped,
        RunOutcome::Failed { message, .. } => Ending::Failed(message),
    };
    Result_ { info: Some(info), turns: state.used.turns, input_tokens: state.used.input_tokens, output_tokens: state.used.output_tokens, ending }
}

/// Stores a kept version (even after Stop or a spent budget: it passed the guard), or puts the
/// site's active refinement back; then says how it ended.
async fn finish(page: &TabPage, host: &str, mode: Mode, model: &str, r: Result_, progress: &Progress) {
    let mut themes = store::history(host).await;
    let mut saved_error = None;
    let kept = r.info.as_ref().and_then(|i| i.kept.clone());
    let priced = cost_usd(model, &dusk_core::llm::Usage::new(r.input_tokens, r.output_tokens));
    let cost = priced.unwrap_or(0.0);
    let aa_instant = r.info.as_ref().map(|i| i.instant.aa_share).unwrap_or(0.0);
    match &kept {
        Some(k) => {
            themes.push(ThemeVersion {
                css: k.css.clone(),
                mode,
                model: model.to_string(),
                turns: r.turns,
                input_tokens: r.input_tokens,
                output_tokens: r.output_tokens,
                cost_usd: cost,
                aa_instant,
                aa: k.quality.aa_share,
                created_ms: crate::clock::now_ms(),
            });
            if let Err(e) = store::save_history(host, &themes).await {
                // The version is on the page now but would be gone on reload: say so, and what to do.
                saved_error = Some(format!("The new version passed the guard but could not be saved ({e}); free space in Options → Data and run it again."));
            }
        }
        None => {
            let css = themes.active_css().unwrap_or("").to_string();
            let _ = page_preview(page, css).await;
        }
    }
    progress
        .update_now(|v| {
            v.turn = r.turns.max(v.turn);
            v.input_tokens = r.input_tokens;
            v.output_tokens = r.output_tokens;
            v.cost_usd = priced;
            v.aa = kept.as_ref().map(|k| k.quality.aa_share).or(v.aa_instant);
            let no_change = || kept.is_none().then(|| "No version passed the guard; the page keeps its previous theme.".to_string());
            match &r.ending {
                Ending::Done(message) => {
                    v.stage = RunStage::Done;
                    v.message = message.clone().or_else(no_change).or(v.message.take());
                }
                Ending::Stopped => {
                    v.stage = RunStage::Stopped;
                    v.message = no_change();
                }
                Ending::Failed(m) => {
                    v.stage = RunStage::Failed;
                    v.message = Some(format!("{m}. The instant theme stays."));
                }
            }
            if let Some(e) = saved_error {
                v.message = Some(e);
            }
        })
        .await;
}

async fn page_preview(page: &TabPage, css: String) -> Result<(), String> {
    dusk_core::dark_agent::session::measure(page, dusk_core::protocol::dark::DarkContentRequest::DarkThemePreview { css }).await.map(|_| ())
}

/// A Thorough run a dead worker left running: it goes on from its checkpoint.
pub fn resume(state: RunState) {
    let Ok(info) = dusk_core::protocol::from_value::<DarkRunInfo>(state.extra.clone()) else { return };
    let Some((stop, controller)) = register(info.tab_id) else { return };
    wasm_bindgen_futures::spawn_local(async move {
        let tab_id = info.tab_id;
        let host = info.host.clone();
        let view = store::view(tab_id).await.unwrap_or(DarkRunView { mode: Mode::Thorough, stage: RunStage::Refining, ..Default::default() });
        let progress = Progress::new(tab_id, view);
        let page = TabPage { tab_id, stop };
        let settings: ThoroughSettings = read_local(thorough::SETTINGS_KEY).await.unwrap_or_default();
        let result = match settings::load().await.active().filter(|p| p.is_configured()) {
            Some(provider) => {
                let client = client_for(provider, controller.signal()).await;
                let r = run_thorough(&page, state, info, settings.budget(), &client, &progress).await;
                remember_downgrade(&client).await;
                r
            }
            None => Result_ { info: Some(info), turns: 0, input_tokens: 0, output_tokens: 0, ending: Ending::Failed("no LLM provider is configured".into()) },
        };
        let model = result.info.as_ref().map(|i| i.model.clone()).unwrap_or_default();
        finish(&page, &host, Mode::Thorough, &model, result, &progress).await;
        unregister(tab_id);
    });
}

pub async fn revert(tab_id: i32, to_instant: bool) -> Result<(), String> {
    let host = tab_host(tab_id).await?;
    let mut themes = store::history(&host).await;
    if to_instant {
        themes.back_to_instant();
    } else if !themes.revert() {
        return Err("there is no earlier version".into());
    }
    store::save_history(&host, &themes).await
}

async fn read_local<T: serde::de::DeserializeOwned>(key: &str) -> Option<T> {
    dusk_core::protocol::from_value(crate::stored::read(key).await?).ok()
}
