//! A kept item as a file: Markdown to read (headings in the user's language, given by the panel)
//! or JSON to keep (`history:<id>` as stored, format-tagged).

use super::{Body, Item};
use crate::agent::RunStatus;
use crate::chat::ChatEntry;
use serde_json::{json, Value};

/// Tags an exported item, so a later import can tell it apart.
pub const FORMAT: &str = "dusk-history-item";

/// The words a Markdown export uses, from `_locales`.
#[derive(Debug, Clone, Default)]
pub struct Labels {
    pub page: String,
    pub date: String,
    pub you: String,
    pub dusk: String,
    pub steps: String,
    pub result: String,
    pub stopped: String,
}

/// `dusk-chat-<id>.md`: only the characters a file name can always hold.
pub fn file_name(item: &Item, ext: &str) -> String {
    let kind = serde_json::to_value(item.summary.kind).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default();
    let id: String = item.summary.id.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-').collect();
    format!("dusk-{kind}-{id}.{ext}")
}

pub fn json(item: &Item) -> Value {
    json!({ "format": FORMAT, "version": crate::VERSION, "item": item })
}

/// The item as Markdown; `date` is its last update as the panel formats it.
pub fn markdown(item: &Item, labels: &Labels, date: &str) -> String {
    let s = &item.summary;
    let mut out = format!("# {}\n\n", one_line(&s.title));
    if let Some(p) = &s.page {
        out.push_str(&format!("- {}: [{}]({})\n", labels.page, one_line(if p.title.is_empty() { &p.url } else { &p.title }), p.url));
    }
    out.push_str(&format!("- {}: {date}\n\n", labels.date));
    match &item.body {
        Body::Chat { session } => {
            for e in &session.entries {
                match e {
                    ChatEntry::User { text, .. } => out.push_str(&format!("## {}\n\n{}\n\n", labels.you, text.trim())),
                    ChatEntry::Assistant { text, stopped, error } => {
                        out.push_str(&format!("## {}\n\n{}\n\n", labels.dusk, text.trim()));
                        if *stopped {
                            out.push_str(&format!("_{}_\n\n", labels.stopped));
                        }
                        if let Some(e) = error {
                            out.push_str(&format!("_{}_\n\n", one_line(e)));
                        }
                    }
                    ChatEntry::Step { text, .. } => out.push_str(&format!("> {}\n\n", one_line(text))),
                }
            }
        }
        Body::Run { run } => {
            out.push_str(&format!("## {}\n\n", labels.steps));
            for step in &run.steps {
                let mark = if step.success { "✓" } else { "✗" };
                out.push_str(&format!("{}. {mark} {} — {}\n", step.n, step.tool, one_line(&step.summary)));
            }
            out.push_str(&format!("\n## {}\n\n", labels.result));
            match &run.status {
                RunStatus::Stopped | RunStatus::Running => out.push_str(&format!("_{}_\n", labels.stopped)),
                _ => out.push_str(&format!("{}\n", run.outcome().unwrap_or_default().trim())),
            }
        }
    }
    out
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
