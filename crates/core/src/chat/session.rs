//! A window's conversation, kept in chrome.storage.session so it survives worker restarts.

use crate::llm::{Message, Usage};
use serde::{Deserialize, Serialize};

/// A tab as the chat knows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TabInfo {
    pub tab_id: i32,
    pub title: String,
    pub url: String,
}

impl TabInfo {
    /// What names the tab to the user: its title, else its URL, else its number (a tab still
    /// loading, or a chrome:// page whose title and URL Chrome keeps from extensions).
    pub fn name(&self) -> String {
        [self.title.as_str(), self.url.as_str()].into_iter().find(|s| !s.is_empty()).map_or_else(|| format!("#{}", self.tab_id), str::to_string)
    }
}

/// A tab's readable text, extracted once per conversation and again when the page navigates.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PageContext {
    pub tab: TabInfo,
    pub text: String,
}

/// What the side panel shows, in order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self", rename_all = "snake_case")]
pub enum ChatEntry {
    User {
        text: String,
        tabs: Vec<TabInfo>,
    },
    Assistant {
        text: String,
        /// Set when the user pressed Stop; the partial text stays.
        #[serde(default)]
        stopped: bool,
        #[serde(default)]
        error: Option<String>,
    },
    /// A pass-2 step, e.g. "Scrolled down" or a screenshot (data URL) shown to the user.
    Step {
        text: String,
        #[serde(default)]
        screenshot: Option<String>,
    },
}
crate::protocol::tagged::type_tagged!(ChatEntry, "kind");

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ChatSession {
    pub entries: Vec<ChatEntry>,
    /// The model's view: questions and final answers; screenshots only as placeholders.
    pub history: Vec<Message>,
    pub contexts: Vec<PageContext>,
    pub usage: Usage,
    pub cost_usd: f64,
    /// Some answer's model had a known price.
    pub priced: bool,
    /// Exchanges no longer sent to the model (chat::budget).
    pub left_out: usize,
    /// The kept item (core::history) this conversation is saved as, once it has an answer.
    pub history_id: Option<String>,
}

/// A question whose answer is running, saved on its own as the request goes out: small, so writing
/// it costs the first word nothing, and enough for a restarted worker to show what was asked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PendingQuestion {
    pub text: String,
    pub tabs: Vec<TabInfo>,
    /// The session's entries when it was asked: a session saved since has moved past it.
    pub after: usize,
}

impl PendingQuestion {
    pub fn storage_key(window_id: i32) -> String {
        format!("chat_pending:{window_id}")
    }
}

impl ChatSession {
    /// The storage key for a window's conversation.
    pub fn storage_key(window_id: i32) -> String {
        format!("chat:{window_id}")
    }

    /// Shows a question a dead worker left unanswered, with a note to ask again; nothing if the
    /// session was saved after it was asked.
    pub fn restore_pending(&mut self, pending: PendingQuestion) {
        if self.entries.len() != pending.after {
            return;
        }
        self.entries.push(ChatEntry::User { text: pending.text, tabs: pending.tabs });
        self.entries.push(ChatEntry::Assistant {
            text: String::new(),
            stopped: false,
            error: Some("The answer was interrupted because the background service restarted. Ask again.".into()),
        });
    }

    /// Contexts still valid for `tabs`: same tabs, same URLs. Anything else must be re-extracted.
    pub fn contexts_match(&self, tabs: &[TabInfo]) -> bool {
        self.contexts.len() == tabs.len() && tabs.iter().all(|t| self.contexts.iter().any(|c| c.tab.tab_id == t.tab_id && c.tab.url == t.url))
    }

    /// The session without the question still being answered and its "interrupted" placeholder.
    pub fn without_pending_answer(mut self) -> Self {
        if matches!(self.entries.last(), Some(ChatEntry::Assistant { error: Some(_), .. }))
            && matches!(self.entries.iter().rev().nth(1), Some(ChatEntry::User { .. }))
        {
            self.entries.truncate(self.entries.len() - 2);
        }
        self
    }

    /// Takes the last question off, with everything after it (its answer, steps, the model's turns),
    /// so Retry can ask it again: the question and the tabs it was about.
    pub fn take_last_question(&mut self) -> Option<(String, Vec<TabInfo>)> {
        let at = self.entries.iter().rposition(|e| matches!(e, ChatEntry::User { .. }))?;
        let Some(ChatEntry::User { text, tabs }) = self.entries.get(at).cloned() else { return None };
        self.entries.truncate(at);
        if let Some(m) = self.history.iter().rposition(|m| matches!(m, Message::User { .. })) {
            self.history.truncate(m);
        }
        Some((text, tabs))
    }

    pub fn add_usage(&mut self, usage: &Usage, cost: Option<f64>) {
        self.usage.add(usage);
        self.cost_usd += cost.unwrap_or(0.0);
        self.priced |= cost.is_some();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tab(id: i32, url: &str) -> TabInfo {
        TabInfo { tab_id: id, title: format!("t{id}"), url: url.into() }
    }

    #[test]
    fn a_pending_question_shows_as_interrupted_only_until_the_session_moves_past_it() {
        let mut s = ChatSession::default();
        s.entries.push(ChatEntry::User { text: "first".into(), tabs: vec![] });
        s.entries.push(ChatEntry::Assistant { text: "one".into(), stopped: false, error: None });
        let pending = PendingQuestion { text: "second?".into(), tabs: vec![tab(1, "http://a/")], after: 2 };
        let mut died = s.clone();
        died.restore_pending(pending.clone());
        assert_eq!(died.entries.len(), 4);
        assert!(matches!(&died.entries[2], ChatEntry::User { text, tabs } if text == "second?" && tabs.len() == 1));
        assert!(matches!(&died.entries[3], ChatEntry::Assistant { error: Some(e), .. } if e.contains("Ask again")));
        assert_eq!(died.clone().without_pending_answer(), s);
        // Answered and saved: the stale record changes nothing.
        let mut answered = s.clone();
        answered.entries.push(ChatEntry::User { text: "second?".into(), tabs: vec![] });
        answered.entries.push(ChatEntry::Assistant { text: "two".into(), stopped: false, error: None });
        let before = answered.clone();
        answered.restore_pending(pending);
        assert_eq!(answered, before);
    }

    #[test]
    fn contexts_are_stale_when_tabs_change_or_navigate() {
        let mut s = ChatSession::default();
        s.contexts.push(PageContext { tab: tab(1, "http://a/"), text: "x".into() });
        assert!(s.contexts_match(&[tab(1, "http://a/")]));
        assert!(!s.contexts_match(&[tab(1, "http://a/next")]));
        assert!(!s.contexts_match(&[tab(1, "http://a/"), tab(2, "http://b/")]));
        assert!(!s.contexts_match(&[tab(2, "http://a/")]));
    }

    #[test]
    fn retry_takes_the_last_question_and_its_answer_off() {
        let mut s = ChatSession::default();
        for q in ["first", "second"] {
            s.entries.push(ChatEntry::User { text: q.into(), tabs: vec![tab(1, "u")] });
            s.entries.push(ChatEntry::Step { text: "looked".into(), screenshot: None });
            s.entries.push(ChatEntry::Assistant { text: format!("answer to {q}"), stopped: false, error: None });
            s.history.push(Message::user(q));
            s.history.push(Message::assistant(format!("answer to {q}")));
        }
        assert_eq!(s.take_last_question(), Some(("second".to_string(), vec![tab(1, "u")])));
        assert_eq!(s.entries.len(), 3);
        assert_eq!(s.history, vec![Message::user("first"), Message::assistant("answer to first")]);
        assert_eq!(ChatSession::default().take_last_question(), None);
    }

    #[test]
    fn session_round_trips_through_json() {
        let mut s = ChatSession::default();
        s.entries.push(ChatEntry::User { text: "hi".into(), tabs: vec![tab(1, "u")] });
        s.entries.push(ChatEntry::Assistant { text: "yo".into(), stopped: true, error: None });
        s.history.push(Message::user("hi"));
        let back: ChatSession = crate::protocol::from_value(serde_json::to_value(&s).unwrap()).unwrap();
        assert_eq!(back, s);
    }
}
