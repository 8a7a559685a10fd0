//! Starting and resuming a browser run: the first message (task, tabs, page summary), the spec
//! (18 tools, turn limit), and `agent::run`, the one loop.

use super::browser::{Browser, TabView};
use super::context::{task_message, SUMMARY_TEXT};
use super::mode::{AgentSettings, RunKind, NO_DEBUGGER_NOTE};
use super::prompt::system_prompt;
use super::safety::carried::{ReadLines, ReadLog};
use super::session::{BrowserRun, BrowserSession};
use super::tools;
use crate::agent::{self, AgentEvent, AgentSpec, Budget, Model, RunOutcome, RunState, Sink};
use crate::llm::Message;
use crate::protocol::page::ElementFilter;

/// The name runs are checkpointed under, so a restarted worker knows which agent resumes them.
pub const AGENT: &str = "browser";
/// Characters a task may have: a task is instructions, not a document to paste.
pub const MAX_TASK_CHARS: usize = 10_000;

/// The task as the run will use it, or a message saying why not.
pub fn checked_task(task: &str) -> Result<String, String> {
    let task = task.trim();
    match task.chars().count() {
        0 => Err("write what the agent should do".into()),
        n if n > MAX_TASK_CHARS => Err(format!("the task is {n} characters; at most {MAX_TASK_CHARS} are accepted")),
        _ => Ok(task.to_string()),
    }
}

/// No answer on a confirmation card within this counts as "declined".
pub const APPROVAL_TIMEOUT_MS: u32 = 120_000;

pub fn spec<'h, B: Browser>(run: &BrowserRun) -> AgentSpec<BrowserSession<'h, B>> {
    let tools = match run.kind {
        RunKind::Act => tools::registry(),
        RunKind::Customize => crate::customize::tools::registry(),
    };
    let budget = Budget { max_turns: run.max_turns(), max_input_tokens: 600_000, max_wall_ms: 900_000 };
    // A new listing is the page as it is now; older ones only cost tokens.
    AgentSpec { name: AGENT, tools, budget, max_tokens: None, superseded: &["get_elements"] }
}

/// What a new run needs to know.
pub struct Start {
    pub run_id: String,
    pub task: String,
    pub window_id: i32,
    pub tab: TabView,
    pub tabs: Vec<TabView>,
    pub settings: AgentSettings,
    pub locale: String,
    /// The model can see images.
    pub vision: bool,
    pub kind: RunKind,
}

/// The run's initial state: the system prompt and the first message, from the page as it is now.
pub async fn begin<B: Browser>(start: Start, browser: &B) -> RunState {
    let mode = start.settings.mode.resolve(start.vision);
    let run = BrowserRun {
        window_id: start.window_id,
        tab_id: start.tab.tab_id,
        mode,
        locale: start.locale.clone(),
        known_tabs: start.tabs.iter().map(|t| t.tab_id).collect(),
        url: start.tab.url.clone(),
        title: start.tab.title.clone(),
        doc: String::new(),
        listed_doc: String::new(),
        viewport_width: 0.0,
        settings: start.settings.clone(),
        kind: start.kind,
        baseline: None,
        sites: super::safety::RunSites::new(&start.tab.url, &start.task),
        run_tabs: vec![start.tab.tab_id],
    };
    let session = BrowserSession::new(browser, run);
    if let Some(doc) = session.current_doc().await {
        session.run.borrow_mut().doc = doc.doc;
    }
    let summary = session.summary(SUMMARY_TEXT).await;
    let max_turns = session.run.borrow().max_turns();
    let (system, text) = match start.kind {
        RunKind::Act => {
            (system_prompt(&start.locale, mode, max_turns), task_message(&start.task, &start.tab, &start.tabs, summary.as_ref().map_err(String::as_str)))
        }
        RunKind::Customize => {
            (crate::customize::prompt::system_prompt(max_turns), customize_message(&start, &session, summary.as_ref().map_err(String::as_str)).await)
        }
    };
    let mut images = Vec::new();
    if mode.screenshots() && summary.is_ok() {
        if let Ok((marks, _)) = session.elements(ElementFilter::All, true, 0, 200).await {
            images.extend(session.labelled_screenshot(marks).await.ok());
        }
    }
    let read = session.run.borrow_mut().sites.record(&start.tab.url, &text);
    let messages = vec![Message::system(system), Message::user_with_images(text, images)];
    let mut state = RunState::new(start.run_id, AGENT, start.task, messages);
    state.journal.extend(read.and_then(|r| serde_json::to_value(r).ok()));
    state.tab_id = Some(start.tab.tab_id);
    state.extra = serde_json::to_value(session.run.borrow().clone()).unwrap_or_default();
    state
}

/// A customize run's first message; the guard's baseline is taken first, before any preview.
async fn customize_message<B: Browser>(start: &Start, session: &BrowserSession<'_, B>, summary: Result<&crate::protocol::page::PageSummary, &str>) -> String {
    let _ = session.rpc(crate::protocol::ContentRequest::PreviewSiteCss { css: String::new() }).await;
    session.run.borrow_mut().baseline = session.browser.measure_page(start.tab.tab_id, true).await.ok();
    let saved = match crate::dark::site::host_of(&start.tab.url) {
        Ok(host) => session.browser.site_custom(&host).await.unwrap_or_default(),
        Err(_) => Default::default(),
    };
    let url = &start.tab.url;
    crate::customize::prompt::task_message(&start.task, url, summary, &saved.css(), &saved.js(), session.browser.user_scripts_enabled().await)
}

/// Runs (or resumes) `state` to its end; the page's mask comes off whatever the ending.
pub async fn drive<B: Browser, M: Model, S: Sink>(state: &mut RunState, model: &M, browser: &B, sink: &S) -> RunOutcome {
    let run: BrowserRun = match crate::protocol::from_value(state.extra.clone()) {
        Ok(r) => r,
        Err(e) => {
            let message = format!("the run could not be resumed ({e})");
            state.status = agent::RunStatus::Failed { message: message.clone() };
            return RunOutcome::Failed { reason: agent::EndReason::TargetGone(message.clone()), message };
        }
    };
    let mut run = run;
    if run.sites.start.is_empty() {
        // A checkpoint from before runs kept their sites: the page it is on is where it started.
        run.sites = super::safety::RunSites::new(&run.url, &state.task);
    }
    if !state.journal.is_empty() {
        let entries: Vec<ReadLines> = state.journal.iter().filter_map(|e| crate::protocol::from_value(e.clone()).ok()).collect();
        run.sites.read = ReadLog::replay(&entries);
    }
    let spec = spec(&run);
    let note = (!run.settings.use_debugger).then_some(NO_DEBUGGER_NOTE);
    let session = BrowserSession::new(browser, run);
    // No step runs before the browser holds the run to its sites.
    if let Err(message) = session.guard_loads().await {
        session.finish().await;
        state.status = agent::RunStatus::Failed { message: message.clone() };
        return RunOutcome::Failed { reason: agent::EndReason::TargetGone(message.clone()), message };
    }
    let outcome = agent::run(&spec, state, model, &session, &WithNote { sink, note }).await;
    // A load the browser stopped while the model wrote its answer is asked about before the rules come off.
    if !matches!(outcome, RunOutcome::Stopped) {
        let _ = session.catch_stopped_load().await;
    }
    session.finish().await;
    outcome
}

/// Passes events on, with `note` said once right after the run's start (the panel clears on it).
struct WithNote<'s, S: Sink> {
    sink: &'s S,
    note: Option<&'static str>,
}

impl<S: Sink> Sink for WithNote<'_, S> {
    fn emit(&self, event: AgentEvent) {
        let started = matches!(event, AgentEvent::Started { .. });
        self.sink.emit(event);
        if let (true, Some(text)) = (started, self.note) {
            self.sink.emit(AgentEvent::Note { text: text.into() });
        }
    }
}
