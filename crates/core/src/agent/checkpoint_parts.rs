//! A checkpoint written piecewise, so a step costs what it changed, not the whole run: the head
//! (everything but the messages and steps, with their counts) under `RunState::storage_key`, and
//! each message and step under a key of its own, written again only when it changed (a superseded
//! page state, an image dropped, a step's overhead filled in after its turn), and each journal
//! entry under its own key, written once.

use super::checkpoint::{RunState, RunStatus};
use super::history;
use super::repeat::RepeatGuard;
use super::transcript::Step;
use super::BudgetUsed;
use crate::llm::Message;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// How many messages and steps the head's parts hold, and whether `extra` is a part of its own.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Parts {
    pub messages: usize,
    pub steps: usize,
    #[serde(default)]
    pub extra: bool,
    #[serde(default)]
    pub journal: usize,
}

/// The head as written: RunState's fields, with the messages and steps left to their parts.
#[derive(Serialize)]
struct Head<'a> {
    run_id: &'a str,
    agent: &'a str,
    tab_id: Option<i32>,
    task: &'a str,
    messages: [Message; 0],
    step: u32,
    used: &'a BudgetUsed,
    transcript: [Step; 0],
    repeat: &'a RepeatGuard,
    malformed_streak: u32,
    image_step: Option<u32>,
    status: &'a RunStatus,
    extra: Value,
    journal: [Value; 0],
    parts: Parts,
}

/// A part's storage key. Not under `run:`, where the heads are listed.
pub fn part_key(run_id: &str, kind: char, i: usize) -> String {
    format!("run_part:{run_id}:{kind}{i}")
}

/// What one run's writer has written, to write next only what differs.
#[derive(Debug, Default)]
pub struct CheckpointWriter {
    /// The run written: a run id used again (the chat's, one per window) starts a new run, whose
    /// checkpoint is written whole, since what storage holds may have been cleared meanwhile.
    started_at_ms: Option<f64>,
    messages: Vec<Message>,
    steps: Vec<Step>,
    /// The agent's own state (a browser run's tabs and the text it read): often unchanged.
    extra: Option<Value>,
    /// Journal entries written: the journal only grows, so the rest are new.
    journal: usize,
}

impl CheckpointWriter {
    /// The storage entries (key, JSON text) to write for `state` now: the head, and the parts new
    /// or changed since the last call. Images are left out, as in `RunState::checkpoint`.
    pub fn entries(&mut self, state: &RunState) -> Vec<(String, String)> {
        if self.started_at_ms != Some(state.used.started_at_ms) {
            *self = CheckpointWriter { started_at_ms: Some(state.used.started_at_ms), ..CheckpointWriter::default() };
        }
        let id = &state.run_id;
        let mut out = vec![];
        self.messages.truncate(state.messages.len());
        for (i, m) in state.messages.iter().enumerate() {
            if self.messages.get(i) == Some(m) {
                continue;
            }
            out.push((part_key(id, 'm', i), stored_message(m, state.image_step.unwrap_or(0))));
            match self.messages.get_mut(i) {
                Some(kept) => *kept = m.clone(),
                None => self.messages.push(m.clone()),
            }
        }
        self.steps.truncate(state.transcript.len());
        for (i, s) in state.transcript.iter().enumerate() {
            if self.steps.get(i) == Some(s) {
                continue;
            }
            out.push((part_key(id, 's', i), serde_json::to_string(s).unwrap_or_default()));
            match self.steps.get_mut(i) {
                Some(kept) => *kept = s.clone(),
                None => self.steps.push(s.clone()),
            }
        }
        if self.extra.as_ref() != Some(&state.extra) {
            out.push((part_key(id, 'x', 0), serde_json::to_string(&state.extra).unwrap_or_default()));
            self.extra = Some(state.extra.clone());
        }
        self.journal = self.journal.min(state.journal.len());
        for (i, e) in state.journal.iter().enumerate().skip(self.journal) {
            out.push((part_key(id, 'j', i), serde_json::to_string(e).unwrap_or_default()));
        }
        self.journal = state.journal.len();
        let head = Head {
            run_id: id,
            agent: &state.agent,
            tab_id: state.tab_id,
            task: &state.task,
            messages: [],
            step: state.step,
            used: &state.used,
            transcript: [],
            repeat: &state.repeat,
            malformed_streak: state.malformed_streak,
            image_step: None,
            status: &state.status,
            extra: Value::Null,
            journal: [],
            parts: Parts { messages: state.messages.len(), steps: state.transcript.len(), extra: true, journal: state.journal.len() },
        };
        out.push((RunState::storage_key(id), serde_json::to_string(&head).unwrap_or_default()));
        out
    }
}

/// A message as stored: an image becomes its placeholder.
fn stored_message(m: &Message, image_step: u32) -> String {
    let has_image = matches!(m, Message::Tool(r) if r.image.is_some()) || matches!(m, Message::User { images, .. } if !images.is_empty());
    if !has_image {
        return serde_json::to_string(m).unwrap_or_default();
    }
    let mut copy = [m.clone()];
    history::drop_images(&mut copy, image_step);
    serde_json::to_string(&copy[0]).unwrap_or_default()
}

impl RunState {
    /// The keys of the parts a stored head names (none for a checkpoint written whole).
    pub fn part_keys(head: &str) -> Vec<String> {
        let Ok(value) = serde_json::from_str::<Value>(head) else { return vec![] };
        let run_id = value.get("run_id").and_then(Value::as_str).unwrap_or_default();
        let Some(parts) = parts_of(&value) else { return vec![] };
        let extra = parts.extra.then(|| part_key(run_id, 'x', 0));
        let numbered = |kind: char, n: usize| (0..n).map(move |i| part_key(run_id, kind, i));
        numbered('m', parts.messages).chain(numbered('s', parts.steps)).chain(extra).chain(numbered('j', parts.journal)).collect()
    }

    /// The run from its stored head and parts (`part`: a part's JSON text by key); a checkpoint
    /// written whole, as before, reads as it is. A missing part is an error, not a shorter run.
    /// `part` is a `dyn`, so every caller shares one copy of the reads.
    pub fn from_parts(head: &str, part: &dyn Fn(&str) -> Option<String>) -> Result<RunState, String> {
        let value: Value = serde_json::from_str(head).map_err(|e| format!("unreadable run checkpoint: {e}"))?;
        let parts = parts_of(&value);
        let mut state: RunState = crate::protocol::from_value(value).map_err(|e| format!("unreadable run checkpoint: {e}"))?;
        let Some(parts) = parts else { return Ok(state) };
        let read = |kind: char, i: usize| -> Result<Value, String> {
            let text = part(&part_key(&state.run_id, kind, i)).ok_or_else(|| format!("run checkpoint part {kind}{i} is missing"))?;
            serde_json::from_str(&text).map_err(|e| e.to_string())
        };
        let messages = (0..parts.messages).map(|i| read('m', i)).collect::<Result<Vec<_>, String>>()?;
        let steps = (0..parts.steps).map(|i| read('s', i)).collect::<Result<Vec<_>, String>>()?;
        if parts.extra {
            state.extra = read('x', 0)?;
        }
        state.journal = (0..parts.journal).map(|i| read('j', i)).collect::<Result<Vec<_>, String>>()?;
        let (messages, steps) = (Value::Array(messages), Value::Array(steps));
        state.messages = crate::protocol::from_value(messages).map_err(|e| e.to_string())?;
        state.transcript = crate::protocol::from_value(steps).map_err(|e| e.to_string())?;
        Ok(state)
    }
}

/// The head's `parts`, if it was written piecewise.
fn parts_of(head: &Value) -> Option<Parts> {
    crate::protocol::from_value(head.get("parts")?.clone()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::{Image, ToolCall};
    use std::collections::BTreeMap;

    fn state() -> RunState {
        let mut s = RunState::new("r1", "browser", "do it", vec![Message::system("sys"), Message::user("task")]);
        s.extra = serde_json::json!({ "window_id": 3 });
        s
    }

    fn step(n: u32) -> Step {
        Step { n, tool: "scroll".into(), ..Step::default() }
    }

    fn written(store: &mut BTreeMap<String, String>, entries: Vec<(String, String)>) -> Vec<String> {
        let keys = entries.iter().map(|(k, _)| k.clone()).collect();
        store.extend(entries);
        keys
    }

    fn read(store: &BTreeMap<String, String>) -> RunState {
        let head = &store["run:r1"];
        RunState::from_parts(head, &|k| store.get(k).cloned()).unwrap()
    }

    #[test]
    fn a_step_writes_the_head_and_only_what_it_added_or_changed() {
        let (mut w, mut store, mut s) = (CheckpointWriter::default(), BTreeMap::new(), state());
        assert_eq!(written(&mut store, w.entries(&s)), ["run_part:r1:m0", "run_part:r1:m1", "run_part:r1:x0", "run:r1"]);
        for n in 1..=30 {
            let call = ToolCall::new(format!("c{n}"), "get_elements", serde_json::json!({}));
            s.messages.push(Message::Assistant { text: String::new(), tool_calls: vec![call.clone()] });
            s.messages.push(Message::tool_result(&call, format!("listing {n}")));
            history::supersede(&mut s.messages, "get_elements", n);
            s.transcript.push(step(n));
            s.step = n;
            let keys = written(&mut store, w.entries(&s));
            // The new call and result, the listing it superseded, the new step, the head.
            assert!(keys.len() <= 5, "step {n} wrote {keys:?}");
        }
        s.transcript[29].overhead_ms = 1.5;
        assert_eq!(written(&mut store, w.entries(&s)), ["run_part:r1:s29", "run:r1"]);
        s.extra["tab_id"] = serde_json::json!(9);
        assert_eq!(written(&mut store, w.entries(&s)), ["run_part:r1:x0", "run:r1"]);
        assert_eq!(read(&store), s.checkpoint());
    }

    #[test]
    fn journal_entries_are_written_once_and_read_back_in_order() {
        let (mut w, mut store, mut s) = (CheckpointWriter::default(), BTreeMap::new(), state());
        written(&mut store, w.entries(&s));
        s.journal.push(serde_json::json!({ "site": "a.example", "lines": ["one line"] }));
        assert_eq!(written(&mut store, w.entries(&s)), ["run_part:r1:j0", "run:r1"]);
        s.journal.push(serde_json::json!({ "site": "b.example", "lines": ["two lines"] }));
        assert_eq!(written(&mut store, w.entries(&s)), ["run_part:r1:j1", "run:r1"]);
        assert_eq!(written(&mut store, w.entries(&s)), ["run:r1"]);
        assert!(!store["run:r1"].contains("lines"), "the head holds only the count");
        assert_eq!(RunState::part_keys(&store["run:r1"]).last().unwrap(), "run_part:r1:j1");
        assert_eq!(read(&store), s.checkpoint());
    }

    #[test]
    fn a_new_run_under_the_same_id_is_written_whole() {
        let (mut w, mut store, mut s) = (CheckpointWriter::default(), BTreeMap::new(), state());
        s.used.started_at_ms = 1.0;
        written(&mut store, w.entries(&s));
        // The chat's next question: the same id and first messages, storage cleared meanwhile.
        store.clear();
        s.used.started_at_ms = 2.0;
        assert_eq!(written(&mut store, w.entries(&s)).len(), 4);
        assert_eq!(read(&store), s.checkpoint());
    }

    #[test]
    fn images_stay_out_and_a_checkpoint_written_whole_still_reads() {
        let (mut w, mut store, mut s) = (CheckpointWriter::default(), BTreeMap::new(), state());
        let call = ToolCall::new("c1", "screenshot", serde_json::json!({}));
        let Message::Tool(mut r) = Message::tool_result(&call, "{}") else { unreachable!() };
        r.image = Some(Image::new("image/jpeg", "AAAA"));
        s.messages.push(Message::Tool(r));
        s.image_step = Some(1);
        written(&mut store, w.entries(&s));
        assert!(!store.values().any(|v| v.contains("AAAA")));
        assert_eq!(read(&store), s.checkpoint());
        let whole = serde_json::to_string(&s.checkpoint()).unwrap();
        assert!(RunState::part_keys(&whole).is_empty());
        assert_eq!(RunState::from_parts(&whole, &|_| None).unwrap(), s.checkpoint());
    }

    #[test]
    fn part_keys_name_every_part_and_a_missing_one_is_an_error() {
        let (mut w, mut store, s) = (CheckpointWriter::default(), BTreeMap::new(), state());
        written(&mut store, w.entries(&s));
        assert_eq!(RunState::part_keys(&store["run:r1"]), ["run_part:r1:m0", "run_part:r1:m1", "run_part:r1:x0"]);
        store.remove("run_part:r1:m1");
        assert!(RunState::from_parts(&store["run:r1"], &|k| store.get(k).cloned()).is_err());
    }
}
