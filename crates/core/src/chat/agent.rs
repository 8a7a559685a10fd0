//! The two-pass chat loop over small traits, so it runs the same in the worker and in tests.

use super::prompt::{self, needs_tools};
use super::tools::{self, RefreshArgs, ScreenshotArgs, ScrollArgs};
use super::{ChatEntry, ChatSession, PageContext, TabInfo};
use crate::llm::client::{HttpResponse, LlmClient, Sleeper, Transport};
use crate::llm::usage::cost_usd;
use crate::llm::{parse_args, AssistantReply, ChatRequest, Image, LlmError, Message, StreamEvent, ToolCall, ToolResult};
use crate::protocol::ChatEvent;

/// Model calls per question, pass 1 included; a model stuck calling tools stops here.
pub const MAX_TURNS: usize = 20;

/// A chat model: `LlmClient` in the worker, a script in tests.
#[allow(async_fn_in_trait)]
pub trait ChatModel {
    async fn complete(&self, request: ChatRequest, on_event: &mut dyn FnMut(&StreamEvent)) -> Result<AssistantReply, LlmError>;
    fn model_name(&self) -> String;
}

impl<T: Transport, S: Sleeper> ChatModel for LlmClient<T, S>
where
    T::Response: HttpResponse,
{
    async fn complete(&self, request: ChatRequest, on_event: &mut dyn FnMut(&StreamEvent)) -> Result<AssistantReply, LlmError> {
        LlmClient::complete(self, request, |e| on_event(e)).await
    }

    fn model_name(&self) -> String {
        self.provider().effective_model()
    }
}

/// What the chat may do to tabs.
#[allow(async_fn_in_trait)]
pub trait ChatBrowser {
    async fn text_snapshot(&self, tab: &TabInfo, token_budget: usize) -> Result<String, String>;
    async fn screenshot(&self, tab: &TabInfo) -> Result<Image, String>;
    async fn scroll(&self, tab: &TabInfo, down: bool, screens: f64) -> Result<String, String>;
}

/// Where events for the side panel go.
pub trait ChatSink {
    fn emit(&self, event: ChatEvent);
}

/// Answers `question` about `tabs`, streaming to `sink` and recording everything in `session`.
pub async fn answer(
    session: &mut ChatSession,
    question: &str,
    tabs: Vec<TabInfo>,
    model: &impl ChatModel,
    browser: &impl ChatBrowser,
    sink: &impl ChatSink,
) {
    session.entries.push(ChatEntry::User { text: question.to_string(), tabs: tabs.clone() });
    sink.emit(ChatEvent::Asked { text: question.to_string(), tabs: tabs.clone() });
    if !session.contexts_match(&tabs) {
        session.contexts = extract(&tabs, browser).await;
    }
    let question_msg = Message::user(format!("{}\nQuestion: {question}", prompt::pages_message(&session.contexts)));
    let mut run = Run { session, model, sink, text: String::new(), turn_log: vec![] };
    let outcome = run.go(question_msg, browser).await;
    let Run { session, text, turn_log, .. } = run;
    match outcome {
        Ok(final_text) => {
            session.history.push(Message::user(question));
            session.history.extend(turn_log);
            session.history.push(Message::assistant(final_text.clone()));
            session.entries.push(ChatEntry::Assistant { text: final_text.clone(), stopped: false, error: None });
            sink.emit(ChatEvent::Done { text: final_text });
        }
        Err(LlmError::Aborted) => {
            session.entries.push(ChatEntry::Assistant { text, stopped: true, error: None });
            sink.emit(ChatEvent::Stopped);
        }
        Err(e) => {
            let message = e.to_string();
            session.entries.push(ChatEntry::Assistant { text, stopped: false, error: Some(message.clone()) });
            sink.emit(ChatEvent::Failed { message });
        }
    }
}

async fn extract(tabs: &[TabInfo], browser: &impl ChatBrowser) -> Vec<PageContext> {
    let budget = prompt::budget_per_tab(tabs.len());
    let mut out = Vec::new();
    for tab in tabs {
        let text = match browser.text_snapshot(tab, budget).await {
            Ok(t) => t,
            Err(e) => format!("[Dusk could not read this page: {e}]"),
        };
        out.push(PageContext { tab: tab.clone(), text });
    }
    out
}

struct Run<'a, M, S> {
    session: &'a mut ChatSession,
    model: &'a M,
    sink: &'a S,
    /// The answer text shown so far (kept on Stop).
    text: String,
    /// Pass-2 turns for the history, with images replaced by placeholders.
    turn_log: Vec<Message>,
}

impl<M: ChatModel, S: ChatSink> Run<'_, M, S> {
    async fn go(&mut self, question: Message, browser: &impl ChatBrowser) -> Result<String, LlmError> {
        let tabs = self.session.contexts.len().max(1);
        let mut messages = vec![Message::system(prompt::system_prompt(tabs))];
        messages.extend(self.session.history.iter().cloned());
        messages.push(question);
        let reply = self.call(&messages, false).await?;
        let Some(reason) = needs_tools(&reply.text) else {
            return Ok(reply.text);
        };
        self.sink.emit(ChatEvent::ResetAnswer);
        self.text.clear();
        self.sink.emit(ChatEvent::Looking { reason });
        messages[0] = Message::system(prompt::system_prompt_with_tools(tabs));
        for _ in 1..MAX_TURNS {
            let reply = self.call(&messages, true).await?;
            if reply.tool_calls.is_empty() {
                return Ok(reply.text);
            }
            messages.push(reply.to_message());
            self.turn_log.push(reply.to_message());
            for call in &reply.tool_calls {
                let result = self.run_tool(call, browser).await;
                let mut logged = result.clone();
                if logged.image.take().is_some() {
                    logged.content.push_str(" [screenshot shown to the user; not kept]");
                }
                self.turn_log.push(Message::Tool(logged));
                messages.push(Message::Tool(result));
            }
            self.text.clear();
            self.sink.emit(ChatEvent::ResetAnswer);
        }
        Err(LlmError::ToolCallFormat { message: format!("no answer after {MAX_TURNS} steps; ask a narrower question") })
    }

    /// One streamed model call; text reaches the panel unless it may be the NEED_TOOLS marker.
    async fn call(&mut self, messages: &[Message], with_tools: bool) -> Result<AssistantReply, LlmError> {
        let mut request = ChatRequest::new(messages.to_vec()).streaming(true);
        if with_tools {
            request = request.with_tools(tools::specs());
        }
        let mut pending = String::new();
        let (sink, text) = (self.sink, &mut self.text);
        let reply = self
            .model
            .complete(request, &mut |event| match event {
                StreamEvent::TextDelta { text: delta } => {
                    pending.push_str(delta);
                    if !(text.is_empty() && !with_tools && prompt::may_be_marker(&pending)) {
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
            .await;
        if let Ok(r) = &reply {
            if let Some(u) = &r.usage {
                self.session.add_usage(u, cost_usd(&self.model.model_name(), u));
                let s = &self.session;
                self.sink.emit(ChatEvent::Usage {
                    input_tokens: s.usage.input_tokens,
                    output_tokens: s.usage.output_tokens,
                    cost_usd: s.cost_usd,
                });
            }
            if needs_tools(&r.text).is_none() && self.text.len() < r.text.len() && r.text.starts_with(self.text.as_str()) {
                let rest = r.text[self.text.len()..].to_string();
                self.text.push_str(&rest);
                self.sink.emit(ChatEvent::Delta { text: rest });
            }
        }
        reply
    }

    async fn run_tool(&mut self, call: &ToolCall, browser: &impl ChatBrowser) -> ToolResult {
        let ok = |content: String, image: Option<Image>| ToolResult {
            tool_call_id: call.id.clone(),
            name: call.name.clone(),
            content,
            image,
            is_error: false,
        };
        let err = |content: String| ToolResult { is_error: true, ..ok(content, None) };
        let contexts = &self.session.contexts;
        let tab_of = |n: usize| contexts.get(n.saturating_sub(1)).map(|c| c.tab.clone());
        match call.name.as_str() {
            tools::SCREENSHOT => {
                let Some(tab) = parse_args::<ScreenshotArgs>(call).ok().and_then(|a| tab_of(a.tab)) else {
                    return err("unknown tab; use a number from the page list".into());
                };
                match browser.screenshot(&tab).await {
                    Ok(image) => {
                        self.sink.emit(ChatEvent::Step { text: format!("Took a screenshot of “{}”", tab.title), screenshot: Some(image.data_url()) });
                        ok(format!("Screenshot of tab “{}”.", tab.title), Some(image))
                    }
                    Err(e) => err(format!("screenshot failed: {e}")),
                }
            }
            tools::SCROLL => match parse_args::<ScrollArgs>(call) {
                Ok(a) => {
                    let Some(tab) = tab_of(a.tab) else { return err("unknown tab".into()) };
                    let down = a.direction == tools::ScrollDirection::Down;
                    match browser.scroll(&tab, down, a.screens.unwrap_or(1.0)).await {
                        Ok(m) => {
                            self.sink.emit(ChatEvent::Step { text: format!("Scrolled {}", if down { "down" } else { "up" }), screenshot: None });
                            ok(m, None)
                        }
                        Err(e) => err(format!("scroll failed: {e}")),
                    }
                }
                Err(e) => err(e.to_string()),
            },
            tools::REFRESH => {
                let Some(i) = parse_args::<RefreshArgs>(call).ok().map(|a| a.tab).filter(|&n| tab_of(n).is_some()) else {
                    return err("unknown tab".into());
                };
                let budget = prompt::budget_per_tab(self.session.contexts.len());
                let tab = self.session.contexts[i - 1].tab.clone();
                match browser.text_snapshot(&tab, budget).await {
                    Ok(text) => {
                        self.session.contexts[i - 1].text = text.clone();
                        self.sink.emit(ChatEvent::Step { text: format!("Re-read “{}”", tab.title), screenshot: None });
                        ok(prompt::pages_message(&self.session.contexts[i - 1..i]), None)
                    }
                    Err(e) => err(format!("could not read the page: {e}")),
                }
            }
            other => err(format!("unknown tool `{other}`; the tools are screenshot, scroll and refresh_page_state")),
        }
    }
}
