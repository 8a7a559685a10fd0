//! The loop: ask the model, run the tools it calls, feed results back, until it answers, a budget
//! runs out, it repeats itself, or the user stops it. Every agent in Dusk runs here.

use super::budget::{Budget, BudgetKind};
use super::checkpoint::{RunState, RunStatus};
use super::events::AgentEvent;
use super::gate::{action_digest, ConfirmLevel, ConfirmRequest};
use super::history;
use super::host::{Host, Sink};
use super::model::Model;
use super::repeat::Verdict;
use super::result::ToolOutcome;
use super::tool::{Prepared, Registry, ToolContext};
use super::transcript::Step;
use crate::llm::usage::cost_usd;
use crate::llm::{ChatRequest, LlmError, Message, StreamEvent, ToolCall, ToolResult};

/// Malformed calls in a row (bad arguments or unknown tool) that end a run.
pub const MAX_MALFORMED: u32 = 3;

/// What makes one agent differ from another.
pub struct AgentSpec<H: ?Sized> {
    pub name: &'static str,
    pub tools: Registry<H>,
    pub budget: Budget,
    pub max_tokens: Option<u32>,
    /// Tools whose newest result replaces their older ones in what the model is sent (page states).
    pub superseded: &'static [&'static str],
}

/// Why a run ended without a final answer.
#[derive(Debug, Clone, PartialEq)]
pub enum EndReason {
    Budget(BudgetKind),
    Repeating,
    Malformed(String),
    TargetGone(String),
    Model(LlmError),
}

#[derive(Debug, Clone, PartialEq)]
pub enum RunOutcome {
    Finished { text: String },
    Stopped,
    Failed { reason: EndReason, message: String },
}

impl RunOutcome {
    fn status(&self) -> RunStatus {
        match self {
            RunOutcome::Finished { text } => RunStatus::Finished { text: text.clone() },
            RunOutcome::Stopped => RunStatus::Stopped,
            RunOutcome::Failed { message, .. } => RunStatus::Failed { message: message.clone() },
        }
    }

    fn event(&self) -> AgentEvent {
        match self {
            RunOutcome::Finished { text } => AgentEvent::Finished { text: text.clone() },
            RunOutcome::Stopped => AgentEvent::Stopped,
            RunOutcome::Failed { message, .. } => AgentEvent::Failed { message: message.clone() },
        }
    }
}

/// Runs (or resumes) `state` to its end. The state is checkpointed through `host` after every
/// tool result and once more at the end, so the caller only has to keep it.
pub async fn run<H: Host + ?Sized, M: Model, S: Sink>(spec: &AgentSpec<H>, state: &mut RunState, model: &M, host: &H, sink: &S) -> RunOutcome {
    let resumed = state.used.turns > 0 || state.step > 0;
    if state.used.started_at_ms == 0.0 {
        state.used.started_at_ms = host.now_ms();
    }
    sink.emit(AgentEvent::Started { run_id: state.run_id.clone(), agent: state.agent.clone(), task: state.task.clone(), resumed });
    let outcome = match &state.status {
        RunStatus::Running => Loop { spec, state: &mut *state, model, host, sink, turn: Turn::default() }.go().await,
        RunStatus::Finished { text } => RunOutcome::Finished { text: text.clone() },
        RunStatus::Stopped => RunOutcome::Stopped,
        RunStatus::Failed { message } => RunOutcome::Failed { reason: EndReason::Repeating, message: message.clone() },
    };
    state.status = outcome.status();
    save(host, state).await;
    sink.emit(outcome.event());
    outcome
}

/// Writes the checkpoint, with the host's own part of it brought up to date first.
async fn save<H: Host + ?Sized>(host: &H, state: &mut RunState) {
    if let Some((tab, extra)) = host.own_state() {
        state.tab_id = tab.or(state.tab_id);
        state.extra = extra;
    }
    state.journal.extend(host.take_journal());
    host.save_checkpoint(state).await;
}

/// The model turn whose calls are running, for the step list.
#[derive(Default)]
struct Turn {
    n: u32,
    input_tokens: u64,
    output_tokens: u64,
    model_ms: f64,
    /// When the reply arrived, and how long its tools took: the rest is the runtime's overhead.
    reply_at: Option<f64>,
    tools_ms: f64,
    first_step: usize,
}

struct Loop<'a, H: ?Sized, M, S> {
    spec: &'a AgentSpec<H>,
    state: &'a mut RunState,
    model: &'a M,
    host: &'a H,
    sink: &'a S,
    turn: Turn,
}

fn failed(reason: EndReason, message: String) -> RunOutcome {
    RunOutcome::Failed { reason, message }
}

impl<H: Host + ?Sized, M: Model, S: Sink> Loop<'_, H, M, S> {
    async fn go(&mut self) -> RunOutcome {
        let stop = self.host.stop_signal().clone();
        // Made once a run: each tool's JSON schema is generated, and the list never changes.
        let mut specs = self.spec.tools.specs();
        loop {
            for call in pending_calls(&self.state.messages) {
                if stop.is_stopped() {
                    return RunOutcome::Stopped;
                }
                if let Some(end) = self.execute(call).await {
                    return end;
                }
            }
            if stop.is_stopped() {
                return RunOutcome::Stopped;
            }
            if let Err(reason) = self.host.check_target().await {
                return failed(EndReason::TargetGone(reason.clone()), format!("interrupted: {reason}"));
            }
            let budget = self.spec.budget;
            if let Some(kind) = budget.exhausted(&self.state.used, self.host.now_ms()) {
                return failed(EndReason::Budget(kind), budget.message(kind));
            }
            let n = self.state.used.turns + 1;
            self.sink.emit(AgentEvent::ModelTurn { n, of: budget.max_turns });
            // The conversation is lent to the request, not copied, and back in the state before anything reads it.
            let mut request = ChatRequest::new(std::mem::take(&mut self.state.messages)).with_tools(std::mem::take(&mut specs)).streaming(true);
            request.max_tokens = self.spec.max_tokens;
            self.close_turn();
            let started = self.host.now_ms();
            let sink = self.sink;
            let mut on_event = |e: &StreamEvent| match e {
                StreamEvent::TextDelta { text } => sink.emit(AgentEvent::TextDelta { text: text.clone() }),
                StreamEvent::Retrying { .. } => sink.emit(AgentEvent::TextReset),
                _ => {}
            };
            let reply = stop.race(self.model.complete(&request, &mut on_event)).await;
            self.state.messages = request.messages;
            specs = request.tools;
            let reply = match reply {
                None | Some(Err(LlmError::Aborted)) => return RunOutcome::Stopped,
                Some(Err(e)) => return failed(EndReason::Model(e.clone()), e.to_string()),
                Some(Ok(r)) => r,
            };
            let now = self.host.now_ms();
            self.state.used.turns = n;
            let usage = reply.usage.unwrap_or_default();
            let used = &mut self.state.used;
            used.input_tokens += usage.input_tokens;
            used.output_tokens += usage.output_tokens;
            if let Some(cost) = cost_usd(&self.model.model_name(), &usage) {
                used.cost_usd += cost;
                used.priced = true;
            }
            self.sink.emit(AgentEvent::Usage {
                input_tokens: used.input_tokens,
                output_tokens: used.output_tokens,
                cost_usd: used.priced.then_some(used.cost_usd),
            });
            self.state.messages.push(reply.to_message());
            if reply.tool_calls.is_empty() {
                return RunOutcome::Finished { text: reply.text };
            }
            self.turn = Turn {
                n,
                input_tokens: usage.input_tokens,
                output_tokens: usage.output_tokens,
                model_ms: now - started,
                reply_at: Some(now),
                tools_ms: 0.0,
                first_step: self.state.transcript.len(),
            };
        }
    }

    /// Shares the last turn's overhead (everything but model and tools) among its steps.
    fn close_turn(&mut self) {
        let Some(reply_at) = self.turn.reply_at.take() else { return };
        let steps = &mut self.state.transcript[self.turn.first_step..];
        if steps.is_empty() {
            return;
        }
        let overhead = (self.host.now_ms() - reply_at - self.turn.tools_ms).max(0.0) / steps.len() as f64;
        for s in steps {
            s.overhead_ms = overhead;
        }
    }

    /// Runs one call and records its result; Some when the run must end.
    async fn execute(&mut self, call: ToolCall) -> Option<RunOutcome> {
        self.state.step += 1;
        let step = self.state.step;
        let vision = self.model.capabilities().vision;
        self.host.step_started(&self.state.run_id, step);
        let ctx = ToolContext { host: self.host, step, vision };
        let started = self.host.now_ms();
        let mut approval_ms = 0.0;
        let mut end = None;
        let (outcome, summary, image) = match self.spec.tools.prepare(&call, &ctx) {
            Err(message) => {
                self.state.malformed_streak += 1;
                if self.state.malformed_streak >= MAX_MALFORMED {
                    end = Some(failed(
                        EndReason::Malformed(message.clone()),
                        format!("stopped: the model sent {MAX_MALFORMED} malformed tool calls in a row (last: {message})"),
                    ));
                }
                self.sink.emit(AgentEvent::ToolStarted { step, tool: call.name.clone(), summary: call.name.clone() });
                (ToolOutcome::failed(&call.name, &message, self.host.now_ms()), message, None)
            }
            Ok(preparing) => {
                self.state.malformed_streak = 0;
                let prepared = preparing.await;
                let summary = prepared.summary.clone();
                let asked = self.host.now_ms();
                let admitted = self.admit(&call, step, &prepared).await;
                approval_ms = self.host.now_ms() - asked;
                match admitted {
                    Admit::Go => {
                        self.sink.emit(AgentEvent::ToolStarted { step, tool: call.name.clone(), summary: summary.clone() });
                        match self.host.stop_signal().race(prepared.future).await {
                            None => {
                                end = Some(RunOutcome::Stopped);
                                (ToolOutcome::failed(&call.name, "stopped by the user", self.host.now_ms()), "Stopped".into(), None)
                            }
                            Some(Ok(out)) => (ToolOutcome::ok(&call.name, out.data, self.host.now_ms()), out.summary, out.image),
                            Some(Err(e)) => (ToolOutcome::failed(&call.name, &e, self.host.now_ms()), e, None),
                        }
                    }
                    Admit::Refused(why) => (ToolOutcome::failed(&call.name, &why, self.host.now_ms()), why, None),
                    Admit::Stopped => {
                        end = Some(RunOutcome::Stopped);
                        (ToolOutcome::failed(&call.name, "stopped by the user", self.host.now_ms()), "Stopped".into(), None)
                    }
                }
            }
        };
        let spent = self.host.now_ms() - started;
        // The user's time on a card is neither the tool's nor the runtime's.
        self.turn.tools_ms += spent;
        let tool_ms = spent - approval_ms;
        let mut content = outcome.to_content();
        let image = match image {
            Some(img) => {
                self.sink.emit(AgentEvent::Screenshot { step, data_url: img.data_url() });
                if vision {
                    history::drop_images(&mut self.state.messages, self.state.image_step.unwrap_or(0));
                    self.state.image_step = Some(step);
                    Some(img)
                } else {
                    content.push_str(" [screenshot taken but not sent: this model cannot view images]");
                    None
                }
            }
            None => None,
        };
        let result = format!("{} {} {}", outcome.success, outcome.data, outcome.error.as_deref().unwrap_or(""));
        match self.state.repeat.record(&call.name, &call.arguments_object(), &result) {
            Verdict::Fine => {}
            Verdict::Warn(text) => {
                content.push(' ');
                content.push_str(&text);
            }
            Verdict::Stop => end = end.or(Some(failed(EndReason::Repeating, "stopped: repeating itself".into()))),
        }
        self.host.observe(&call.name, &content);
        let success = outcome.success;
        self.state.messages.push(Message::Tool(ToolResult { tool_call_id: call.id.clone(), name: call.name.clone(), content, image, is_error: !success }));
        if success && self.spec.superseded.contains(&call.name.as_str()) {
            history::supersede(&mut self.state.messages, &call.name, step);
        }
        self.state.transcript.push(Step {
            n: step,
            turn: self.turn.n,
            tool: call.name.clone(),
            arguments: call.arguments.clone(),
            success,
            summary: summary.clone(),
            input_tokens: self.turn.input_tokens,
            output_tokens: self.turn.output_tokens,
            model_ms: self.turn.model_ms,
            tool_ms,
            overhead_ms: 0.0,
            approval_ms,
        });
        self.sink.emit(AgentEvent::ToolFinished { step, tool: call.name, success, summary });
        save(self.host, self.state).await;
        end
    }
}

enum Admit {
    Go,
    Refused(String),
    Stopped,
}

impl<H: Host + ?Sized, M: Model, S: Sink> Loop<'_, H, M, S> {
    /// The gate, enforced here and nowhere else: `block` never runs; `confirm` runs only with an
    /// approval issued for this exact call.
    async fn admit(&self, call: &ToolCall, step: u32, prepared: &Prepared<'_>) -> Admit {
        let gate = &prepared.gate;
        match gate.level {
            ConfirmLevel::Auto | ConfirmLevel::Notify => Admit::Go,
            ConfirmLevel::Block => {
                Admit::Refused(gate.refused.clone().unwrap_or_else(|| format!("blocked: {}; this action is never done", gate.reasons.join("; "))))
            }
            ConfirmLevel::Confirm => {
                let request = ConfirmRequest {
                    run_id: self.state.run_id.clone(),
                    step,
                    tool: call.name.clone(),
                    summary: prepared.summary.clone(),
                    reasons: gate.reasons.clone(),
                    digest: action_digest(&self.state.run_id, step, &call.name, &call.arguments_object()),
                    target: gate.target.clone(),
                    page: gate.page.clone(),
                    detail: gate.detail.clone(),
                    arguments: call.arguments_object(),
                };
                self.sink.emit(AgentEvent::ConfirmRequest { step, tool: call.name.clone(), summary: prepared.summary.clone() });
                match self.host.stop_signal().race(self.host.approval(&request)).await {
                    None => Admit::Stopped,
                    Some(Some(approval)) if approval.is_for(&request) => Admit::Go,
                    Some(Some(_)) => Admit::Refused("refused: the approval was not issued for this action".into()),
                    Some(None) => Admit::Refused(gate.declined.clone().unwrap_or_else(|| "the user declined".into())),
                }
            }
        }
    }
}

/// Calls of the last assistant message that have no result yet (all of them right after a
/// reply; the rest when a restarted worker resumes mid-turn).
fn pending_calls(messages: &[Message]) -> Vec<ToolCall> {
    let Some(last) = messages.iter().rposition(|m| matches!(m, Message::Assistant { .. })) else { return vec![] };
    let Message::Assistant { tool_calls, .. } = &messages[last] else { return vec![] };
    let answered: Vec<&str> = messages[last + 1..].iter().filter_map(|m| if let Message::Tool(r) = m { Some(r.tool_call_id.as_str()) } else { None }).collect();
    tool_calls.iter().filter(|c| !answered.contains(&c.id.as_str())).cloned().collect()
}
