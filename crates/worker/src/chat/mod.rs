//! The `chat` port: binds core's two-pass chat to tabs, storage and the side panel. Pass 2 runs
//! on the agent runtime, checkpointed, so a restarted worker resumes it (`resume_runs`).

mod browser;
mod live;
mod store;
mod tabs;

use crate::fetch::controller_with_timeout;
use crate::llm::{client_for, client_with, remember_downgrade, remembered_in, REMEMBERED_KEYS};
use crate::route::settings;
use browser::TabBrowser;
use dusk_chrome::message::to_js;
use dusk_chrome::runtime::Port;
use dusk_core::agent::{RunState, StopSignal};
use dusk_core::browser_agent::session::both;
use dusk_core::chat::{self, answer, mention, ChatSink};
use dusk_core::commands::ChatPrefill;
use dusk_core::llm::LlmError;
use dusk_core::protocol::{ChatEvent, ChatPortRequest};
use live::WindowSink;
use web_sys::AbortController;

/// A whole answer, pass 2 included, must finish within this.
const ANSWER_TIMEOUT_MS: u32 = 600_000;

fn post(port: &Port, event: &ChatEvent) {
    // A closed port only means the panel went away.
    let _ = port.post_message(&to_js(event));
}

pub async fn handle(port: Port, request: ChatPortRequest) {
    match request {
        ChatPortRequest::Load { window_id } => load(&port, window_id).await,
        ChatPortRequest::ListTabs { window_id } => post(&port, &ChatEvent::Tabs { tabs: tabs::list(window_id).await }),
        ChatPortRequest::Clear { window_id } => {
            live::stop(window_id);
            store::clear(window_id).await;
            post(&port, &ChatEvent::Session { session: Default::default() });
        }
        ChatPortRequest::Stop { window_id } => live::stop(window_id),
        ChatPortRequest::Ask { window_id, question, tab_ids } => {
            live::subscribe(window_id, &port);
            ask(window_id, question, tab_ids).await
        }
        ChatPortRequest::Retry { window_id } => {
            live::subscribe(window_id, &port);
            if live::is_running(window_id) {
                return;
            }
            let mut session = store::load(window_id).await;
            let Some((question, tabs)) = session.take_last_question() else { return };
            store::save(window_id, &session).await;
            post(&port, &ChatEvent::Session { session });
            ask(window_id, question, tabs.iter().map(|t| t.tab_id).collect()).await
        }
        ChatPortRequest::AskSelection { window_id, question, tab_ids } => {
            live::subscribe(window_id, &port);
            let tab = match tab_ids.first() {
                Some(&id) => Some(id),
                None => tabs::active(window_id).await.map(|t| t.tab_id),
            };
            let selection = match tab {
                Some(id) => tabs::selection(id).await,
                None => String::new(),
            };
            if selection.trim().is_empty() {
                return post(&port, &ChatEvent::NoSelection);
            }
            let quoted = ChatPrefill::from_selection(window_id, &selection).text;
            ask(window_id, format!("{quoted}{question}"), tab_ids).await
        }
        ChatPortRequest::Reopen { window_id, id } => {
            live::stop(window_id);
            match store::reopen(window_id, &id).await {
                Some(session) => post(&port, &ChatEvent::Session { session }),
                None => post(&port, &ChatEvent::Failed { message: "this conversation is no longer kept".into() }),
            }
        }
        ChatPortRequest::ExportRun { window_id } => {
            let run = crate::checkpoints::load(&store::run_id(window_id)).await.map(|s| s.export()).unwrap_or_default();
            post(&port, &ChatEvent::RunExport { run });
        }
    }
}

pub fn port_closed(port: &Port) {
    live::unsubscribe(port);
}

/// The conversation; if an answer is still running, the panel gets its events so far and follows it.
async fn load(port: &Port, window_id: i32) {
    live::subscribe(window_id, port);
    let session = store::load(window_id).await;
    match live::replay(window_id) {
        Some(events) => {
            post(port, &ChatEvent::Session { session: session.without_pending_answer() });
            events.iter().for_each(|e| post(port, e));
        }
        None => post(port, &ChatEvent::Session { session }),
    }
}

async fn ask(window_id: i32, question: String, tab_ids: Vec<i32>) {
    let sink = WindowSink(window_id);
    let Ok(controller) = controller_with_timeout(ANSWER_TIMEOUT_MS) else {
        return sink.emit(ChatEvent::Failed { message: "could not start the request".into() });
    };
    let stop = StopSignal::new();
    if !live::start(window_id, stop.clone(), controller.clone(), vec![]) {
        return sink.emit(ChatEvent::Failed { message: "an answer is already running in this window".into() });
    }
    // The reads overlap, so none waits on another: the settings, the tabs, and the session with what is remembered
    // of the providers. The session is read once this run holds the window, so no earlier
    // answer's save can land after it.
    let (settings, (window, (mut session, stored))) =
        both(settings::load(), both(tabs::window(window_id), store::load_with(window_id, &REMEMBERED_KEYS))).await;
    let provider = settings.active().filter(|p| p.is_configured());
    let Some(provider) = provider else {
        live::finish(window_id);
        let message = LlmError::NotConfigured("open Dusk's settings to choose one".into()).to_string();
        return sink.emit(ChatEvent::Failed { message });
    };
    let mut chosen: Vec<_> = window.tabs.iter().filter(|t| tab_ids.contains(&t.tab_id)).cloned().collect();
    for t in mention::mentioned_tabs(&question, &window.tabs) {
        if !chosen.iter().any(|c| c.tab_id == t.tab_id) {
            chosen.push(t);
        }
    }
    if chosen.is_empty() {
        chosen.extend(window.active);
    }
    let known = remembered_in(&stored, &provider);
    let client = client_with(provider, controller.signal(), known);
    // Written while the request goes out: it starts at `answer`'s first wait (the page read or
    // the fetch), and the answer's own save below waits for it.
    let interrupted = store::save_interrupted(window_id, &session, &question, &chosen);
    answer(&mut session, &question, chosen, &client, &TabBrowser { window_id, stop }, &sink).await;
    // The panel may ask again at once: the window is free now, and its next load waits for the save.
    let saving = store::Saving::begin(window_id);
    live::finish(window_id);
    remember_downgrade(&client).await;
    let kept = store::history_id(&mut session);
    let _ = wasm_bindgen_futures::JsFuture::from(interrupted).await;
    store::save(window_id, &session).await;
    drop(saving);
    store::keep(kept, &session).await;
}

/// Picks up a pass 2 that a dead worker left running; registered as live at once.
pub fn resume(state: RunState) {
    let Some(window_id) = store::window_of(&state.run_id) else { return };
    let Ok(controller) = controller_with_timeout(ANSWER_TIMEOUT_MS) else { return };
    let stop = StopSignal::new();
    if live::start(window_id, stop.clone(), controller.clone(), chat::replay(&state)) {
        wasm_bindgen_futures::spawn_local(resume_run(window_id, state, stop, controller));
    }
}

async fn resume_run(window_id: i32, state: RunState, stop: StopSignal, controller: AbortController) {
    let sink = WindowSink(window_id);
    let mut session = store::load(window_id).await;
    match settings::load().await.active().filter(|p| p.is_configured()) {
        Some(provider) => {
            let client = client_for(provider, controller.signal()).await;
            chat::resume(&mut session, state, &client, &TabBrowser { window_id, stop }, &sink).await;
        }
        None => {
            let mut ended = state;
            ended.status = dusk_core::agent::RunStatus::Failed { message: "no LLM provider is configured".into() };
            crate::checkpoints::save(&ended).await;
            sink.emit(ChatEvent::Failed { message: "The answer could not be resumed: no LLM provider is configured.".into() });
        }
    }
    let kept = store::history_id(&mut session);
    store::save(window_id, &session).await;
    live::finish(window_id);
    store::keep(kept, &session).await;
}
