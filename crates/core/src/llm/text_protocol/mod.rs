//! Tool calling for models without native function calling: the tools are described in the
//! system prompt and the model answers with a JSON block, which is parsed (and repaired) here.

mod calls;
mod repair;
mod scan;

use super::message::{ChatRequest, Image, Message, ToolCall};
use super::tools::ToolSpec;
use calls::{bare_calls, extract_calls, RawCall};
pub use repair::repair_json;
use scan::{fenced_blocks, remove_spans};
use serde_json::{json, Value};

/// A reply split into the prose and the tool calls it contained.
#[derive(Debug, Clone, PartialEq)]
pub struct ParsedReply {
    pub text: String,
    pub tool_calls: Vec<ToolCall>,
}

/// A reply that attempted a tool call but could not be read; Display is meant for the model.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("Your reply could not be parsed as a tool call: {reason}. To call a tool, reply with exactly one ```json block containing {{\"tool\": \"<tool name>\", \"args\": {{...}}}} (or an array of such objects to call several in order). To give your final answer, reply in plain text without any json block.")]
pub struct TextProtocolError {
    pub reason: String,
}

fn fail<T>(reason: impl Into<String>) -> Result<T, TextProtocolError> {
    Err(TextProtocolError { reason: reason.into() })
}

/// The system-prompt addendum describing the tools and the reply format.
pub fn system_addendum(tools: &[ToolSpec]) -> String {
    let mut s = String::from("# Tools\nYou call tools by writing JSON, not with native function calls. Available tools:\n");
    for t in tools {
        s.push_str(&format!("\n## {}\n{}\nArguments (JSON Schema): {}\n", t.name, t.description, t.parameters));
    }
    s.push_str(
        "\n# How to call a tool\nEnd your reply with exactly one fenced block like this:\n```json\n{\"tool\": \"<tool name>\", \"args\": {<arguments>}}\n```\n\
To call several tools in order, put an array of such objects in the one block. Write nothing after the block; \
the results will be sent back to you. When you need no tool, reply in plain text with no json block: that is your final answer.",
    );
    s
}

/// Formats tool calls the way the model is asked to write them, for replaying history.
pub fn format_calls(calls: &[ToolCall]) -> String {
    let items: Vec<Value> = calls.iter().map(|c| json!({"tool": c.name, "args": c.arguments_object()})).collect();
    let v = if items.len() == 1 { items[0].clone() } else { Value::Array(items) };
    format!("```json\n{v}\n```")
}

/// Rewrites a request for a model without function calling: tools move into the system prompt,
/// past tool calls become JSON blocks and tool results become user turns.
pub fn downgrade_request(req: &ChatRequest) -> ChatRequest {
    let addendum = system_addendum(&req.tools);
    let mut messages: Vec<Message> = vec![];
    let mut added = false;
    for m in &req.messages {
        match m {
            Message::System { text } if !added => {
                added = true;
                messages.push(Message::System { text: format!("{text}\n\n{addendum}") });
            }
            Message::Assistant { text, tool_calls } if !tool_calls.is_empty() => {
                let joined = if text.trim().is_empty() { format_calls(tool_calls) } else { format!("{}\n\n{}", text.trim_end(), format_calls(tool_calls)) };
                messages.push(Message::assistant(joined));
            }
            Message::Tool(r) => {
                let label = if r.is_error { "failed" } else { "returned" };
                let text = format!("Tool `{}` {label}:\n{}", r.name, r.content);
                let images: Vec<Image> = r.image.iter().cloned().collect();
                match messages.last_mut() {
                    Some(Message::User { text: prev, images: prev_images }) if prev.starts_with("Tool `") => {
                        prev.push_str("\n\n");
                        prev.push_str(&text);
                        prev_images.extend(images);
                    }
                    _ => messages.push(Message::User { text, images }),
                }
            }
            other => messages.push(other.clone()),
        }
    }
    if !added && !req.tools.is_empty() {
        messages.insert(0, Message::system(addendum));
    }
    ChatRequest { tools: vec![], messages, ..req.clone() }
}

/// Parses a reply. Plain prose is a final answer; an attempted but unreadable call is an error
/// whose text tells the model how to fix it.
pub fn parse_reply(reply: &str, tools: &[ToolSpec]) -> Result<ParsedReply, TextProtocolError> {
    let mut raw_calls: Vec<RawCall> = vec![];
    let mut spans: Vec<(usize, usize)> = vec![];
    for block in fenced_blocks(reply) {
        let lang = block.lang.to_ascii_lowercase();
        let jsonish = matches!(lang.as_str(), "json" | "jsonc" | "json5" | "tool" | "tool_call" | "tool_code")
            || (lang.is_empty() && block.body.trim_start().starts_with(['{', '[', '"']));
        if !jsonish {
            continue;
        }
        match repair_json(block.body) {
            Some(v) => match extract_calls(&v, tools) {
                Some(Ok(calls)) => {
                    raw_calls.extend(calls);
                    spans.push((block.start, block.end));
                }
                Some(Err(reason)) => return fail(reason),
                None if lang.starts_with("tool") || looks_like_attempt(block.body) => {
                    return fail("the JSON block has no \"tool\" field naming the tool to call")
                }
                None => {}
            },
            None if lang.starts_with("tool") || looks_like_attempt(block.body) => {
                let detail = serde_json::from_str::<Value>(block.body.trim()).err().map(|e| format!(" ({e})")).unwrap_or_default();
                return fail(format!("the JSON in your block is invalid{detail}"));
            }
            None => {}
        }
    }
    let mut text = remove_spans(reply, &spans);
    if raw_calls.is_empty() {
        if let Some((before, calls)) = tool_call_lines(reply)? {
            raw_calls = calls;
            text = before;
        }
    }
    if raw_calls.is_empty() && looks_like_attempt(reply) {
        match bare_calls(reply, tools) {
            Some((span, Ok(calls))) => {
                raw_calls = calls;
                text = remove_spans(reply, &[span]);
            }
            Some((_, Err(reason))) => return fail(reason),
            None => return fail("it looks like a tool call but contains no valid JSON object"),
        }
    }
    let mut tool_calls = vec![];
    for (i, (name, args)) in raw_calls.into_iter().enumerate() {
        if !tools.iter().any(|t| t.name == name) {
            let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
            return fail(format!("there is no tool named `{name}`; the available tools are: {}", names.join(", ")));
        }
        tool_calls.push(ToolCall::new(format!("text_{i}_{name}"), name, args));
    }
    Ok(ParsedReply { text: text.trim().to_string(), tool_calls })
}

fn looks_like_attempt(s: &str) -> bool {
    let l = s.to_ascii_lowercase();
    has_key(&l, "tool")
        || has_key(&l, "tool_name")
        || has_key(&l, "tool_calls")
        || l.contains("tool_call:")
        || (has_key(&l, "name") && (has_key(&l, "args") || has_key(&l, "arguments") || has_key(&l, "parameters")))
        || has_key(&l, "action_input")
}

/// Whether `key` appears quoted and followed by a colon, i.e. as a JSON(ish) object key.
fn has_key(s: &str, key: &str) -> bool {
    ['"', '\''].iter().any(|q| {
        let quoted = format!("{q}{key}{q}");
        s.match_indices(&quoted).any(|(i, m)| s[i + m.len()..].trim_start().starts_with(':'))
    })
}

/// `TOOL_CALL: name` / `PARAMETERS: {...}` lines. Returns the prose before them and the calls.
fn tool_call_lines(reply: &str) -> Result<Option<(String, Vec<RawCall>)>, TextProtocolError> {
    let lower = reply.to_ascii_lowercase();
    let starts: Vec<usize> = lower.match_indices("tool_call:").map(|(i, _)| i).collect();
    let Some(&first) = starts.first() else { return Ok(None) };
    let mut calls = vec![];
    for (n, &start) in starts.iter().enumerate() {
        let end = starts.get(n + 1).copied().unwrap_or(reply.len());
        let section = &reply[start + "tool_call:".len()..end];
        let section_lower = &lower[start + "tool_call:".len()..end];
        let (name_part, params) = match section_lower.find("parameters:") {
            Some(p) => (&section[..p], Some(&section[p + "parameters:".len()..])),
            None => (section, None),
        };
        let name = name_part.lines().next().unwrap_or_default().trim_matches(|c: char| "`'\"*".contains(c) || c.is_whitespace()).to_string();
        if name.is_empty() {
            return fail("TOOL_CALL: is not followed by a tool name");
        }
        let args = match params.map(str::trim) {
            None | Some("") => json!({}),
            Some(p) => match repair_json(p) {
                Some(v @ Value::Object(_)) => v,
                _ => return fail(format!("the PARAMETERS for `{name}` are not a valid JSON object")),
            },
        };
        calls.push((name, args));
    }
    let before = reply[..first].trim_end().trim_end_matches(|c: char| "*`#-".contains(c));
    Ok(Some((before.trim().to_string(), calls)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tools() -> Vec<ToolSpec> {
        vec![
            ToolSpec::new("click", "Clicks an element", json!({"type": "object", "properties": {"index": {"type": "integer"}}})),
            ToolSpec::new("type_text", "Types", json!({"type": "object", "properties": {"text": {"type": "string"}}})),
            ToolSpec::new("done", "Finishes", json!({"type": "object", "properties": {}})),
        ]
    }

    fn calls(reply: &str) -> Vec<(String, Value)> {
        parse_reply(reply, &tools()).unwrap().tool_calls.into_iter().map(|c| (c.name, c.arguments)).collect()
    }

    #[test]
    fn addendum_lists_tools_and_the_format() {
        let a = system_addendum(&tools());
        assert!(a.contains("## click") && a.contains("Clicks an element") && a.contains("```json") && a.contains("\"tool\""));
    }

    #[test]
    fn fenced_object_with_prose_around() {
        let r = parse_reply("I'll click the button.\n```json\n{\"tool\": \"click\", \"args\": {\"index\": 4}}\n```", &tools()).unwrap();
        assert_eq!(r.text, "I'll click the button.");
        assert_eq!(r.tool_calls[0].name, "click");
        assert_eq!(r.tool_calls[0].arguments, json!({"index": 4}));
        assert_eq!(r.tool_calls[0].id, "text_0_click");
    }

    #[test]
    fn alternative_keys_and_arrays() {
        assert_eq!(calls("```json\n{\"name\": \"click\", \"arguments\": {\"index\": 1}}\n```"), vec![("click".into(), json!({"index": 1}))]);
        assert_eq!(calls("```json\n{\"name\": \"click\", \"parameters\": {\"index\": 2}}\n```"), vec![("click".into(), json!({"index": 2}))]);
        assert_eq!(
            calls("```json\n{\"function\": {\"name\": \"click\", \"arguments\": \"{\\\"index\\\": 3}\"}}\n```"),
            vec![("click".into(), json!({"index": 3}))]
        );
        assert_eq!(
            calls("```json\n[{\"tool\": \"click\", \"args\": {\"index\": 1}}, {\"tool\": \"type_text\", \"args\": {\"text\": \"hi\"}}]\n```"),
            vec![("click".into(), json!({"index": 1})), ("type_text".into(), json!({"text": "hi"}))]
        );
        assert_eq!(calls("```json\n{\"done\": {}}\n```"), vec![("done".into(), json!({}))]);
        assert_eq!(calls("```json\n{\"tool\": \"done\"}\n```"), vec![("done".into(), json!({}))]);
    }

    #[test]
    fn tool_call_lines() {
        let r = parse_reply("Let me type.\nTOOL_CALL: type_text\nPARAMETERS: {\"text\": \"hello\"}", &tools()).unwrap();
        assert_eq!(r.text, "Let me type.");
        assert_eq!(r.tool_calls[0].arguments, json!({"text": "hello"}));
        let r = parse_reply("**TOOL_CALL:** `click`\n**PARAMETERS:**\n{\n  'index': 7,\n}", &tools()).unwrap();
        assert_eq!(r.tool_calls[0].name, "click");
        assert_eq!(r.tool_calls[0].arguments, json!({"index": 7}));
        assert_eq!(calls("TOOL_CALL: done"), vec![("done".into(), json!({}))]);
    }

    #[test]
    fn repairs_near_json() {
        assert_eq!(
            calls("```json\n{'tool': 'type_text', 'args': {'text': \"it's \\\"fine\\\"\"},}\n```"),
            vec![("type_text".into(), json!({"text": "it's \"fine\""}))]
        );
        assert_eq!(calls("```json\n{\"tool\": \"type_text\", \"args\": {\"text\": \"a\nb\"}}\n```"), vec![("type_text".into(), json!({"text": "a\nb"}))]);
        assert_eq!(calls("```\n\"{\\\"tool\\\": \\\"click\\\", \\\"args\\\": {\\\"index\\\": 9}}\"\n```"), vec![("click".into(), json!({"index": 9}))]);
        assert_eq!(calls("Sure! {\"tool\": \"click\", \"args\": {\"index\": 5}} should do it."), vec![("click".into(), json!({"index": 5}))]);
        assert_eq!(
            calls("```json\n{\"tool\": \"type_text\", \"args\": {\"text\": \"x\", \"submit\": True}}"),
            vec![("type_text".into(), json!({"text": "x", "submit": true}))]
        );
    }

    #[test]
    fn plain_text_is_a_final_answer() {
        let r = parse_reply("The page is about cats. Nothing else to do.", &tools()).unwrap();
        assert!(r.tool_calls.is_empty());
        assert_eq!(r.text, "The page is about cats. Nothing else to do.");
        let r = parse_reply("Here is the data:\n```json\n{\"cats\": 3}\n```", &tools()).unwrap();
        assert!(r.tool_calls.is_empty());
        let r = parse_reply("```python\nprint('tool')\n```", &tools()).unwrap();
        assert!(r.tool_calls.is_empty());
    }

    #[test]
    fn broken_attempts_get_corrective_messages() {
        let e = parse_reply("```json\n{\"tool\": \"click\", \"args\": {\"index\": }\n```", &tools()).unwrap_err().to_string();
        assert!(e.starts_with("Your reply could not be parsed as a tool call: the JSON in your block is invalid"), "{e}");
        assert!(e.contains("Reply with exactly one ```json block") || e.contains("reply with exactly one ```json block"), "{e}");
        let e = parse_reply("```json\n{\"tool\": \"hover\", \"args\": {}}\n```", &tools()).unwrap_err().to_string();
        assert!(e.contains("no tool named `hover`") && e.contains("click, type_text, done"), "{e}");
        let e = parse_reply("```json\n{\"tool\": \"click\", \"args\": [1]}\n```", &tools()).unwrap_err().to_string();
        assert!(e.contains("must be a JSON object"), "{e}");
        let e = parse_reply("TOOL_CALL: click\nPARAMETERS: {index: ", &tools()).unwrap_err().to_string();
        assert!(e.contains("PARAMETERS for `click`"), "{e}");
        assert!(parse_reply("I would use \"tool\": click with {broken", &tools()).is_err());
    }

    #[test]
    fn downgrade_moves_tools_into_the_prompt_and_history_into_text() {
        let call = ToolCall::new("c1", "click", json!({"index": 2}));
        let req = ChatRequest::new(vec![
            Message::system("Be helpful."),
            Message::user("Click it"),
            Message::Assistant { text: "Clicking.".into(), tool_calls: vec![call.clone()] },
            Message::tool_result(&call, "clicked"),
        ])
        .with_tools(tools());
        let d = downgrade_request(&req);
        assert!(d.tools.is_empty());
        let Message::System { text } = &d.messages[0] else { panic!() };
        assert!(text.starts_with("Be helpful.") && text.contains("## click"));
        let Message::Assistant { text, tool_calls } = &d.messages[2] else { panic!() };
        assert!(tool_calls.is_empty());
        let reparsed = parse_reply(text, &tools()).unwrap();
        assert_eq!(reparsed.tool_calls[0].arguments, json!({"index": 2}));
        assert_eq!(d.messages[3], Message::user("Tool `click` returned:\nclicked"));
        let no_system = downgrade_request(&ChatRequest::new(vec![Message::user("x")]).with_tools(tools()));
        assert!(matches!(&no_system.messages[0], Message::System { text } if text.contains("## done")));
    }
}
