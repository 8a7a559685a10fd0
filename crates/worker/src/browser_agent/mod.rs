//! The `agent` port: binds core's browser agent to tabs, storage and the side panel's Agent mode.
//! A run is owned by the worker, checkpointed every step, and resumed by `resume_runs`.

mod approvals;
mod browser;
pub(crate) mod current;
mod events;
mod store;

use crate::fetch::controller_with_timeout;
use crate::llm::{client_for, remember_downgrade};
use crate::route::settings;
use crate::stored::read;
use browser::{window_tabs, TabsBrowser};
use dusk_chrome::message::to_js;
use dusk_chrome::runtime::Port;
use dusk_core::agent::{RunState, RunStatus, StopSignal};
use dusk_core::browser_agent::{begin, checked_task, drive, mode, AgentSettings, BrowserRun, RunKind, Start};
use dusk_core::history::browser_run_item;
use dusk_core::history::PageRef;
use dusk_core::llm::LlmError;
use dusk_core::protocol::{AgentPortEvent, AgentPortRequest, ContentRequest};
use events::WindowSink;
use web_sys::AbortController;

/// A whole task must finish within this; Stop ends it sooner.
const RUN_TIMEOUT_MS: u32 = 900_000;
/// The mask is renewed this often while a run is alive (it expires on its own otherwise).
const HEARTBEAT_MS: u32 = 2000;

fn post(port: &Port, event: &AgentPortEvent) {
    // A closed port only means the panel went away; the run goes on.
    let _ = port.post_message(&to_js(event));
}

pub async fn handle(port: Port, request: AgentPortRequest) {
    match request {
        AgentPortRequest::Load { window_id } => load(&port, window_id).await,
        AgentPortRequest::ListTabs { window_id } => list_tabs(&port, window_id).await,
        AgentPortRequest::Start { window_id, task, tab_id, kind } => {
            events::subscribe(window_id, &port);
            start(window_id, task, tab_id, kind).await
        }
        AgentPortRequest::Stop { window_id } => events::stop(window_id),
        AgentPortRequest::Approve { run_id, step, digest, token, files, text, .. } => {
            if let Err(message) = approvals::answer(&run_id, step, &token, approvals::Answer::Approved { digest, files, text }) {
                post(&port, &AgentPortEvent::Error { message });
            }
        }
        AgentPortRequest::Deny { run_id, step, token, .. } => {
            if let Err(message) = approvals::answer(&run_id, step, &token, approvals::Answer::Denied) {
                post(&port, &AgentPortEvent::Error { message });
            }
        }
        AgentPortRequest::ExportRun { window_id } => {
            let run = match store::last_run(window_id).await {
                Some(id) => crate::checkpoints::load(&id).await.map(|s| s.export()).unwrap_or_default(),
                None => serde_json::Value::Null,
            };
            post(&port, &AgentPortEvent::RunExport { run });
        }
    }
}

pub fn port_closed(port: &Port) {
    events::unsubscribe(port);
}

/// The Stop on a page's mask: the run acting on that tab stops.
pub fn stop_in_tab(tab: i32) {
    if let Some(window_id) = store::window_acting_on(tab) {
        events::stop(window_id);
    }
}

async fn list_tabs(port: &Port, window_id: i32) {
    let tabs = window_tabs(window_id).await.unwrap_or_default();
    let active = active_tab(window_id).await;
    post(port, &AgentPortEvent::Tabs { tabs, active });
}

async fn active_tab(window_id: i32) -> Option<i32> {
    crate::window_tabs::query(window_id).await.ok()?.into_iter().find(|t| t.active)?.id
}

/// The window's run: the live one's events so far, else the last run from its checkpoint.
async fn load(port: &Port, window_id: i32) {
    events::subscribe(window_id, port);
    if let Some(log) = events::replay(window_id) {
        log.iter().for_each(|e| post(port, e));
        return;
    }
    let last = match store::last_run(window_id).await {
        Some(id) => crate::checkpoints::load(&id).await,
        None => None,
    };
    match last {
        Some(state) => state.replay().into_iter().for_each(|event| post(port, &AgentPortEvent::Event { event })),
        None => post(port, &AgentPortEvent::Idle),
    }
}

fn fail(window_id: i32, message: String) {
    events::emit(window_id, AgentPortEvent::Event { event: dusk_core::agent::AgentEvent::Failed { message } });
}

async fn start(window_id: i32, task: String, tab_id: Option<i32>, kind: RunKind) {
    let task = match checked_task(&task) {
        Ok(t) => t,
        Err(message) => return fail(window_id, message),
    };
    if events::is_running(window_id) {
        return fail(window_id, "a task is already running in this window; stop it first".into());
    }
    let Some(provider) = settings::load().await.active().filter(|p| p.is_configured()) else {
        return fail(window_id, LlmError::NotConfigured("open Dusk's settings to choose one".into()).to_string());
    };
    if let Err(e) = dusk_core::llm::on_device::gate::check(&provider, dusk_core::llm::on_device::Feature::of_run(kind)) {
        return fail(window_id, e.to_string());
    }
    if let Err(message) = crate::boundary::load_suffix_list().await {
        return fail(window_id, message);
    }
    let tabs = window_tabs(window_id).await.unwrap_or_default();
    let chosen = match tab_id {
        Some(id) => Some(id),
        None => active_tab(window_id).await,
    };
    let Some(tab) = chosen.and_then(|id| tabs.iter().find(|t| t.tab_id == id).cloned()) else {
        return fail(window_id, "pick the tab the agent should work in".into());
    };
    let Ok(controller) = controller_with_timeout(RUN_TIMEOUT_MS) else {
        return fail(window_id, "could not start the request".into());
    };
    let stop = StopSignal::new();
    let run_id = format!("browser-{window_id}-{}", crate::clock::now_ms() as u64);
    if !events::start(window_id, stop.clone(), controller.clone(), vec![]) {
        return fail(window_id, "a task is already running in this window; stop it first".into());
    }
    store::set_last_run(window_id, &run_id).await;
    store::set_current_tab(window_id, tab.tab_id);
    store::set_start_page(window_id, PageRef { title: tab.title.clone(), url: tab.url.clone() });
    let settings = AgentSettings::from_stored(read(mode::STORAGE_KEY).await);
    crate::debugger_choice::set(settings.use_debugger);
    if !settings.use_debugger {
        crate::listeners::release_all().await;
    }
    let vision = provider.capabilities().vision;
    let browser = TabsBrowser { window_id, run_id: run_id.clone(), stop: stop.clone() };
    let locale = dusk_chrome::i18n::ui_language();
    let start = Start { run_id, task, window_id, tab, tabs, settings, locale, vision, kind };
    let mut state = begin(start, &browser).await;
    crate::checkpoints::save(&state).await;
    let client = client_for(provider, controller.signal()).await;
    run(window_id, &mut state, &client, browser).await;
    remember_downgrade(&client).await;
}

/// Drives the run with the mask kept alive by a heartbeat, then clears the window's run and keeps
/// it in history.
async fn run(window_id: i32, state: &mut RunState, client: &impl dusk_core::agent::Model, browser: TabsBrowser) {
    heartbeat(window_id, browser.stop.clone());
    drive(state, client, &browser, &WindowSink(window_id, state.run_id.clone())).await;
    browser.stop.stop();
    // Nothing of the run stays: the boundary (lifted by drive, and here whatever happened) and the debugger.
    crate::boundary::lift(window_id).await;
    if let Ok(run) = dusk_core::protocol::from_value::<BrowserRun>(state.extra.clone()) {
        for tab in run.run_tabs.iter().chain(std::iter::once(&run.tab_id)) {
            crate::listeners::release(*tab).await;
        }
    }
    // Taken before the window is free, so a run started next never takes it.
    let start_page = store::take_start_page(window_id);
    approvals::drop_run(&state.run_id);
    store::forget(window_id);
    events::finish(window_id);
    let thumbs = events::take_thumbnails(&state.run_id).await;
    crate::history::save(&browser_run_item(state, start_page, &thumbs, crate::clock::now_ms())).await;
}

fn heartbeat(window_id: i32, ended: StopSignal) {
    wasm_bindgen_futures::spawn_local(async move {
        loop {
            crate::fetch::sleep(HEARTBEAT_MS).await;
            if ended.is_stopped() {
                return;
            }
            if let Some(tab) = store::current_tab(window_id) {
                let _ = browser::rpc(tab, &ContentRequest::Heartbeat { ttl_ms: None }).await;
            }
        }
    });
}

/// Picks up a run that a dead worker left running; registered as live at once.
pub fn resume(state: RunState) {
    let Ok(run) = dusk_core::protocol::from_value::<BrowserRun>(state.extra.clone()) else { return };
    let window_id = run.window_id;
    let Ok(controller) = controller_with_timeout(RUN_TIMEOUT_MS) else { return };
    let stop = StopSignal::new();
    let log = state.replay().into_iter().map(|event| AgentPortEvent::Event { event }).collect();
    if !events::start(window_id, stop.clone(), controller.clone(), log) {
        return;
    }
    store::set_current_tab(window_id, run.tab_id);
    wasm_bindgen_futures::spawn_local(resume_run(window_id, state, stop, controller));
}

async fn resume_run(window_id: i32, mut state: RunState, stop: StopSignal, controller: AbortController) {
    let browser = TabsBrowser { window_id, run_id: state.run_id.clone(), stop };
    let provider = settings::load().await.active().filter(|p| p.is_configured());
    let ready = match (crate::boundary::load_suffix_list().await, provider) {
        (Ok(()), Some(provider)) => Ok(provider),
        (Err(e), _) => Err(e),
        (Ok(()), None) => Err("no LLM provider is configured".to_string()),
    };
    match ready {
        Ok(provider) => {
            let client = client_for(provider, controller.signal()).await;
            run(window_id, &mut state, &client, browser).await;
        }
        Err(message) => {
            crate::boundary::lift(window_id).await;
            state.status = RunStatus::Failed { message: message.clone() };
            crate::checkpoints::save(&state).await;
            fail(window_id, format!("The task could not be resumed: {message}."));
            events::finish(window_id);
        }
    }
}
