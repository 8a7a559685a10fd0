//! The two-pass chat over small traits, so it runs the same in the worker and in tests. Pass 1
//! is one streamed call without tools; pass 2 runs on the agent runtime with three tools.

use super::budget;
use super::host::{ChatBrowser, ChatHost};
use super::prompt::{self, needs_tools};
use super::{tools, ChatEntry, ChatSession, PageContext, TabInfo};
use crate::agent::{self, AgentEvent, AgentSpec, Budget, Model, RunOutcome, RunState, Sink};
use crate::llm::on_device;
use crate::llm::usage::cost_usd;
use crate::llm::{AssistantReply, ChatRequest, LlmError, Message, StreamEvent, Usage};
use crate::page::snapshot::{need, text_snapshot};
use crate::page::text::snapshot_chars;
use crate::protocol::ChatEvent;
use serde::{Deserialize, Serialize};
use std::cell::RefCell;

/// Model calls per question, pass 1 included.
pub const MAX_TURNS: u32 = 20;

/// Where events for the side panel go.
pub trait ChatSink {
    fn emit(&self, event: ChatEvent);
}

/// What pass 2 needs to finish after a worker restart, kept in the run's checkpoint.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChatRun {
    pub question: String,
    pub reason: String,
    pub tabs: Vec<TabInfo>,
    pub contexts: Vec<PageContext>,
    /// Index in the run's messages where pass 2's own turns begin.
    pub turns_from: usize,
    /// Conversation totals before pass 2.
    pub usage: Usage,
    pub cost_usd: f64,
    #[serde(default)]
    pub priced: bool,
}

/// Answers `question` about `tabs`, streaming to `sink` and recording everything in `session`.
pub async fn answer(session: &mut ChatSession, question: &str, tabs: Vec<TabInfo>, model: &impl Model, browser: &impl ChatBrowser, sink: &impl ChatSink) {
    session.entries.push(ChatEntry::User { text: question.to_string(), tabs: tabs.clone() });
    sink.emit(ChatEvent::Asked { text: question.to_string(), tabs: tabs.clone() });
    let sizes = on_device::budget::for_window(model.on_device(), model.context_window());
    if !session.contexts_match(&tabs) {
        session.contexts = extract(&tabs, sizes.page_tokens, browser, sink).await;
    }
    let question_msg = Message::user(format!("{}\nQuestion: {question}", prompt::pages_message(&session.contexts)));
    let count = session.contexts.len().max(1);
    let mut messages = vec![Message::system(prompt::system_prompt(count))];
    // Older exchanges beyond the budget are never sent again, so the session forgets them too.
    let (kept, dropped) = budget::fit(&session.history, sizes.history_tokens);
    if dropped > 0 {
        session.history = kept;
        session.left_out += dropped;
        let text = budget::note(session.left_out);
        session.entries.push(ChatEntry::Step { text: text.clone(), screenshot: None });
        sink.emit(ChatEvent::Step { text, screenshot: None });
    }
    messages.extend(session.history.iter().cloned());
    messages.push(question_msg);
    let mut shown = String::new();
    let reply = pass_one(session, &messages, model, sink, &mut shown).await;
    let reply = match reply {
        Ok(r) => r,
        Err(e) => return finish_failed(session, shown, e, sink),
    };
    let needed = needs_tools(&reply.text);
    // A model that may not drive tool loops says what it would have needed, as its answer.
    let reply = match needed {
        Some(reason) if !model.drives_agents() => AssistantReply { text: on_device::gate::answer_without_tools(&reason), ..reply },
        _ => reply,
    };
    let Some(reason) = needs_tools(&reply.text) else {
        session.history.push(Message::user(question));
        session.history.push(Message::assistant(reply.text.clone()));
        session.entries.push(ChatEntry::Assistant { text: reply.text.clone(), stopped: false, error: None });
        return sink.emit(ChatEvent::Done { text: reply.text });
    };
    sink.emit(ChatEvent::ResetAnswer);
    sink.emit(ChatEvent::Looking { reason: reason.clone() });
    messages[0] = Message::system(prompt::system_prompt_with_tools(count));
    let run = ChatRun {
        question: question.to_string(),
        reason,
        tabs,
        contexts: session.contexts.clone(),
        turns_from: messages.len(),
        usage: session.usage,
        cost_usd: session.cost_usd,
        priced: session.priced,
    };
    let mut state = RunState::new(browser.run_id(), "chat", question, messages);
    state.extra = serde_json::to_value(&run).unwrap_or_default();
    pass_two(session, state, run, model, browser, sink).await
}

/// Finishes a pass 2 that a restarted worker found in its checkpoint.
pub async fn resume(session: &mut ChatSession, state: RunState, model: &impl Model, browser: &impl ChatBrowser, sink: &impl ChatSink) {
    let Ok(run) = crate::protocol::from_value::<ChatRun>(state.extra.clone()) else {
        return sink.emit(ChatEvent::Failed { message: "the interrupted answer could not be resumed; ask again".into() });
    };
    // The placeholder saved in case the worker died; the real ending replaces it.
    if matches!(session.entries.last(), Some(ChatEntry::Assistant { error: Some(_), .. })) {
        session.entries.pop();
    }
    pass_two(session, state, run, model, browser, sink).await
}

/// What a side panel that (re)connects mid-run needs to show the answer in progress.
pub fn replay(state: &RunState) -> Vec<ChatEvent> {
    let Ok(run) = crate::protocol::from_value::<ChatRun>(state.extra.clone()) else { return vec![] };
    let mut out = vec![ChatEvent::Asked { text: run.question, tabs: run.tabs }, ChatEvent::Looking { reason: run.reason }];
    out.extend(state.transcript.iter().filter(|s| s.success).map(|s| ChatEvent::Step { text: s.summary.clone(), screenshot: None }));
    let mut usage = run.usage;
    usage.add(&Usage::new(state.used.input_tokens, state.used.output_tokens));
    out.push(ChatEvent::Usage {
        input_tokens: usage.input_tokens,
        output_tokens: usage.output_tokens,
        cost_usd: (run.priced || state.used.priced).then_some(run.cost_usd + state.used.cost_usd),
    });
    out
}

async fn pass_two(session: &mut ChatSession, mut state: RunState, run: ChatRun, model: &impl Model, browser: &impl ChatBrowser, sink: &impl ChatSink) {
    let host = ChatHost { browser, contexts: RefCell::new(run.contexts.clone()) };
    let spec = AgentSpec {
        name: "chat",
        tools: tools::registry(),
        budget: Budget { max_turns: MAX_TURNS - 1, ..Budget::default() },
        max_tokens: None,
        superseded: &[],
    };
    let events = RunSink { sink, text: RefCell::new(String::new()), screenshot: RefCell::new(None), run: &run };
    let outcome = agent::run(&spec, &mut state, model, &host, &events).await;
    session.contexts = host.contexts.into_inner();
    session.usage = run.usage;
    session.usage.add(&Usage::new(state.used.input_tokens, state.used.output_tokens));
    session.cost_usd = run.cost_usd + state.used.cost_usd;
    session.priced = run.priced || state.used.priced;
    let shown = events.text.into_inner();
    match outcome {
        RunOutcome::Finished { text } => {
            let mut turns = state.messages[run.turns_from.min(state.messages.len())..].to_vec();
            agent::history::drop_images(&mut turns, state.image_step.unwrap_or(0));
            session.history.push(Message::user(&run.question));
            session.history.extend(turns);
            session.entries.push(ChatEntry::Assistant { text: text.clone(), stopped: false, error: None });
            sink.emit(ChatEvent::Done { text });
        }
        RunOutcome::Stopped => finish_failed(session, shown, LlmError::Aborted, sink),
        RunOutcome::Failed { message, .. } => {
            session.entries.push(ChatEntry::Assistant { text: shown, stopped: false, error: Some(message.clone()) });
            sink.emit(ChatEvent::Failed { message });
        }
    }
}

fn finish_failed(session: &mut ChatSession, text: String, e: LlmError, sink: &impl ChatSink) {
    if e == LlmError::Aborted {
        session.entries.push(ChatEntry::Assistant { text, stopped: true, error: None });
        return sink.emit(ChatEvent::Stopped);
    }
    let message = e.to_string();
    session.entries.push(ChatEntry::Assistant { text, stopped: false, error: Some(message.clone()) });
    sink.emit(ChatEvent::Failed { message });
}

/// Reads every tab, then shares `page_tokens` by need: a short page's unused share goes to the
/// longer ones. A tab that can't be read says why, to the model and in the panel.
async fn extract(tabs: &[TabInfo], page_tokens: usize, browser: &impl ChatBrowser, sink: &impl ChatSink) -> Vec<PageContext> {
    let mut reads = Vec::new();
    for tab in tabs {
        reads.push(browser.read_page(tab, snapshot_chars(page_tokens as u32)).await);
    }
    let needs: Vec<u32> = reads.iter().map(|r| r.as_ref().map_or(0, need)).collect();
    let shares = prompt::shares(&needs, page_tokens as u32);
    let mut out = Vec::new();
    for ((tab, read), share) in tabs.iter().zip(reads).zip(shares) {
        let text = match read {
            Ok(page) => text_snapshot(&page, share).block,
            Err(e) => {
                let why = format!("Dusk could not read “{}”: {e}", tab.name());
                sink.emit(ChatEvent::Step { text: why.clone(), screenshot: None });
                format!("[{why}]")
            }
        };
        out.push(PageContext { tab: tab.clone(), text });
    }
    out
}

/// Pass 1: one streamed call, no tools; text reaches the panel unless it may be the marker.
async fn pass_one(
    session: &mut ChatSession,
    messages: &[Message],
    model: &impl Model,
    sink: &impl ChatSink,
    text: &mut String,
) -> Result<AssistantReply, LlmError> {
    let request = ChatRequest::new(messages.to_vec()).streaming(true);
    let mut pending = String::new();
    let reply = model
        .complete(&request, &mut |event| match event {
            StreamEvent::TextDelta { text: delta } => {
                pending.push_str(delta);
                if !(text.is_empty() && prompt::may_be_marker(&pending)) {
                    text.push_str(&pending);
                    sink.emit(ChatEvent::Delta { text: std::mem::take(&mut pending) });
                }
            }
            StreamEvent::Retrying { .. } => {
                pending.clear();
                text.clear();
                sink.emit(ChatEvent::ResetAnswer);
            }
            _ => {}
        })
        .await?;
    if let Some(u) = &reply.usage {
        session.add_usage(u, cost_usd(&model.model_name(), u));
        let cost = session.priced.then_some(session.cost_usd);
        sink.emit(ChatEvent::Usage { input_tokens: session.usage.input_tokens, output_tokens: session.usage.output_tokens, cost_usd: cost });
    }
    if needs_tools(&reply.text).is_none() && text.len() < reply.text.len() && reply.text.starts_with(text.as_str()) {
        let rest = reply.text[text.len()..].to_string();
        text.push_str(&rest);
        sink.emit(ChatEvent::Delta { text: rest });
    }
    Ok(reply)
}

/// Turns the runtime's events into the side panel's: streamed text, steps with screenshots, totals.
struct RunSink<'a, S> {
    sink: &'a S,
    /// The answer text shown so far in this turn (kept on Stop).
    text: RefCell<String>,
    screenshot: RefCell<Option<String>>,
    run: &'a ChatRun,
}

impl<S: ChatSink> Sink for RunSink<'_, S> {
    fn emit(&self, event: AgentEvent) {
        match event {
            AgentEvent::TextDelta { text } => {
                self.text.borrow_mut().push_str(&text);
                self.sink.emit(ChatEvent::Delta { text });
            }
            AgentEvent::ModelTurn { .. } | AgentEvent::TextReset => {
                self.text.borrow_mut().clear();
                self.sink.emit(ChatEvent::ResetAnswer);
            }
            AgentEvent::Screenshot { data_url, .. } => *self.screenshot.borrow_mut() = Some(data_url),
            AgentEvent::ToolFinished { success: true, summary, .. } => {
                self.sink.emit(ChatEvent::Step { text: summary, screenshot: self.screenshot.borrow_mut().take() })
            }
            AgentEvent::Usage { input_tokens, output_tokens, cost_usd } => {
                let base = &self.run.usage;
                self.sink.emit(ChatEvent::Usage {
                    input_tokens: base.input_tokens + input_tokens,
                    output_tokens: base.output_tokens + output_tokens,
                    cost_usd: (self.run.priced || cost_usd.is_some()).then(|| self.run.cost_usd + cost_usd.unwrap_or(0.0)),
                })
            }
            _ => {}
        }
    }
}
