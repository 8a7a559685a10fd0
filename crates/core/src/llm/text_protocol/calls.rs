//! Tool calls read out of parsed JSON, whatever keys and shape the model chose.

use super::repair::repair_json;
use super::scan::balanced_spans;
use crate::llm::tools::ToolSpec;
use serde_json::{json, Map, Value};

/// A tool name and its arguments, before the name is checked.
pub(super) type RawCall = (String, Value);
/// Calls read from JSON, or why the JSON is not a usable call.
pub(super) type Extracted = Result<Vec<RawCall>, String>;

const NAME_KEYS: &[&str] = &["tool", "name", "tool_name", "function", "action"];
const ARG_KEYS: &[&str] = &["args", "arguments", "parameters", "input", "params", "action_input"];

/// Reads tool calls out of parsed JSON. None: not shaped like a tool call at all.
pub(super) fn extract_calls(v: &Value, tools: &[ToolSpec]) -> Option<Extracted> {
    match v {
        Value::Array(items) if !items.is_empty() => {
            let mut calls = vec![];
            for (i, item) in items.iter().enumerate() {
                match extract_calls(item, tools) {
                    Some(Ok(c)) => calls.extend(c),
                    Some(Err(e)) => return Some(Err(e)),
                    None => return Some(Err(format!("item {} of the array is not a tool call", i + 1))),
                }
            }
            Some(Ok(calls))
        }
        Value::Object(m) => {
            if let Some(inner) = m.get("tool_calls") {
                return extract_calls(inner, tools);
            }
            if let Some((name, args)) = NAME_KEYS.iter().find_map(|k| name_and_args(m, k)) {
                return Some(args.map(|a| vec![(name, a)]));
            }
            // {"click": {...}}: a single key naming a known tool.
            if let (1, Some((k, a))) = (m.len(), m.iter().next()) {
                if tools.iter().any(|t| &t.name == k) {
                    return Some(normalise_args(Some(a)).map(|a| vec![(k.clone(), a)]));
                }
            }
            None
        }
        _ => None,
    }
}

fn name_and_args(m: &Map<String, Value>, key: &str) -> Option<(String, Result<Value, String>)> {
    match m.get(key)? {
        Value::String(name) => {
            let args = ARG_KEYS.iter().find_map(|k| m.get(*k));
            Some((name.trim().to_string(), normalise_args(args)))
        }
        // OpenAI's own shape: {"function": {"name": ..., "arguments": ...}}.
        Value::Object(f) => {
            let name = f.get("name")?.as_str()?.trim().to_string();
            let args = ARG_KEYS.iter().find_map(|k| f.get(*k));
            Some((name, normalise_args(args)))
        }
        _ => None,
    }
}

fn normalise_args(args: Option<&Value>) -> Result<Value, String> {
    match args {
        None | Some(Value::Null) => Ok(json!({})),
        Some(v @ Value::Object(_)) => Ok(v.clone()),
        Some(Value::String(s)) if s.trim().is_empty() => Ok(json!({})),
        Some(Value::String(s)) => match repair_json(s) {
            Some(v @ Value::Object(_)) => Ok(v),
            _ => Err("\"args\" must be a JSON object".into()),
        },
        Some(_) => Err("\"args\" must be a JSON object".into()),
    }
}

/// A JSON tool call written without a fence.
pub(super) fn bare_calls(reply: &str, tools: &[ToolSpec]) -> Option<((usize, usize), Extracted)> {
    for (a, b) in balanced_spans(reply) {
        if let Some(v) = repair_json(&reply[a..b]) {
            if let Some(calls) = extract_calls(&v, tools) {
                return Some(((a, b), calls));
            }
        }
    }
    None
}
