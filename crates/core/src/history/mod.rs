//! What the side panel keeps of your work in chrome.storage.local: conversations and agent runs,
//! one key per item plus an index, listed newest first and bounded (`bound`).

pub mod bound;
pub mod export;
pub mod restore;
pub mod run;
pub mod search;

use crate::chat::{ChatEntry, ChatSession, TabInfo};
use serde::{Deserialize, Serialize};

use crate::agent::RunState;
pub use bound::{Limits, LIMITS};
pub use run::{KeptRun, KeptStep};

/// The index of kept items (summaries only, so the list loads without the bodies).
pub const INDEX_KEY: &str = "history_index";
/// The longest title a listed item shows.
const TITLE_CHARS: usize = 80;

/// The storage key of one kept item.
pub fn item_key(id: &str) -> String {
    format!("history:{id}")
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ItemKind {
    Chat,
    Agent,
    Customize,
}

impl ItemKind {
    /// The `_locales` message that names the kind.
    pub fn label_key(self) -> &'static str {
        match self {
            ItemKind::Chat => "historyKindChat",
            ItemKind::Agent => "historyKindAgent",
            ItemKind::Customize => "historyKindCustomize",
        }
    }
}

/// The page an item was about.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PageRef {
    pub title: String,
    pub url: String,
}

impl PageRef {
    /// `docs.example` for `https://docs.example:8080/a?b`; the URL itself when it has no host.
    pub fn host(&self) -> String {
        let Some((_, rest)) = self.url.split_once("://") else { return self.url.clone() };
        let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
        let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
        let host = host.split(':').next().unwrap_or_default();
        if host.is_empty() {
            self.url.clone()
        } else {
            host.to_string()
        }
    }
}

/// One listed item, as the index holds it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub id: String,
    pub kind: ItemKind,
    /// The first question or the task.
    pub title: String,
    #[serde(default)]
    pub page: Option<PageRef>,
    pub created_ms: f64,
    pub updated_ms: f64,
    /// Its stored size (JSON), counted against the bound.
    #[serde(default)]
    pub bytes: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self", rename_all = "snake_case")]
pub enum Body {
    Chat { session: ChatSession },
    Run { run: KeptRun },
}
crate::protocol::tagged::type_tagged!(Body, "body");

/// A kept conversation or run: what the list shows, and what reopening it needs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Item {
    pub summary: Summary,
    #[serde(flatten)]
    pub body: Body,
}

impl Item {
    /// A conversation as kept: no page text (re-read when it continues) and no screenshots.
    pub fn chat(id: &str, session: &ChatSession, now_ms: f64) -> Item {
        let kept = kept_session(session);
        let first = kept.entries.iter().find_map(|e| match e {
            ChatEntry::User { text, tabs } => Some((text.clone(), tabs.first().cloned())),
            _ => None,
        });
        let (question, tab) = first.unwrap_or_default();
        let page = tab.map(|t: TabInfo| PageRef { title: t.title, url: t.url });
        let summary = Summary { id: id.to_string(), kind: ItemKind::Chat, title: title_of(&question), page, created_ms: now_ms, updated_ms: now_ms, bytes: 0 };
        Item { summary, body: Body::Chat { session: kept } }.measured()
    }

    /// A finished agent or Customize run.
    pub fn run(id: &str, kind: ItemKind, page: Option<PageRef>, run: KeptRun, now_ms: f64) -> Item {
        let summary = Summary { id: id.to_string(), kind, title: title_of(&run.task), page, created_ms: now_ms, updated_ms: now_ms, bytes: 0 };
        Item { summary, body: Body::Run { run: run.within(bound::ITEM_BYTES) } }.measured()
    }

    fn measured(mut self) -> Item {
        self.summary.bytes = serde_json::to_string(&self).map_or(0, |s| s.len() + item_key(&self.summary.id).len()) as u64;
        self
    }
}

/// A conversation as History keeps it: no page text (re-read when it continues), no screenshots.
fn kept_session(session: &ChatSession) -> ChatSession {
    let mut kept = session.clone();
    kept.contexts.clear();
    for e in &mut kept.entries {
        if let ChatEntry::Step { screenshot, .. } = e {
            *screenshot = None;
        }
    }
    kept
}

fn title_of(text: &str) -> String {
    let line = text.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with('>')).unwrap_or_else(|| text.trim());
    let mut title: String = line.chars().take(TITLE_CHARS).collect();
    if line.chars().count() > TITLE_CHARS {
        title.push('…');
    }
    title
}

/// The kept items' summaries, and how many were dropped to stay within the bound.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Index {
    pub items: Vec<Summary>,
    /// Items removed by the bound since the history was last cleared.
    pub evicted: u64,
}

impl Index {
    /// Adds or replaces an item (a continued chat keeps its place by creation, moves by update),
    /// then applies the bound: the ids whose items must be removed from storage.
    pub fn put(&mut self, mut summary: Summary, limits: &Limits) -> Vec<String> {
        if let Some(old) = self.items.iter().find(|s| s.id == summary.id) {
            summary.created_ms = old.created_ms;
        }
        self.items.retain(|s| s.id != summary.id);
        self.items.push(summary);
        self.sort();
        self.evict(limits)
    }

    /// Drops the oldest items until the index fits; returns their ids. The newest is never dropped.
    fn evict(&mut self, limits: &Limits) -> Vec<String> {
        self.sort();
        let mut removed = Vec::new();
        while self.items.len() > 1 && (self.items.len() > limits.max_items || self.total_bytes() > limits.max_bytes) {
            if let Some(oldest) = self.items.pop() {
                removed.push(oldest.id);
            }
        }
        self.evicted += removed.len() as u64;
        removed
    }

    pub fn remove(&mut self, id: &str) -> bool {
        let before = self.items.len();
        self.items.retain(|s| s.id != id);
        self.items.len() != before
    }

    /// Newest first: by last update, then by id for equal times.
    pub fn sort(&mut self) {
        self.items.sort_by(|a, b| b.updated_ms.total_cmp(&a.updated_ms).then_with(|| b.id.cmp(&a.id)));
    }

    pub fn total_bytes(&self) -> u64 {
        self.items.iter().map(|s| s.bytes).sum()
    }
}

/// A finished browser run (Agent or Customize) as kept: its kind and page from the run, unless the
/// page it started on is known.
pub fn browser_run_item(state: &RunState, start_page: Option<PageRef>, thumbs: &[(u32, String)], now_ms: f64) -> Item {
    use crate::browser_agent::{BrowserRun, RunKind};
    let run: Option<BrowserRun> = crate::protocol::from_value(state.extra.clone()).ok();
    let kind = match run.as_ref().map(|r| r.kind) {
        Some(RunKind::Customize) => ItemKind::Customize,
        _ => ItemKind::Agent,
    };
    let page = start_page.or_else(|| run.map(|r| PageRef { title: r.title, url: r.url }).filter(|p| !p.url.is_empty()));
    Item::run(&state.run_id, kind, page, KeptRun::from_state(state, thumbs), now_ms)
}

/// What the History view lists.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HistoryList {
    pub items: Vec<Summary>,
    pub evicted: u64,
    pub total_bytes: u64,
    pub limits: Limits,
}

impl HistoryList {
    pub fn of(index: &Index) -> HistoryList {
        let mut index = index.clone();
        index.sort();
        HistoryList { total_bytes: index.total_bytes(), items: index.items, evicted: index.evicted, limits: LIMITS }
    }
}

#[cfg(test)]
mod tests;
