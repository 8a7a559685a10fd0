//! Property tests that feed the parsers what pages, models and networks might send: they must
//! answer (Ok or Err) and never panic. `PROPTEST_CASES=200000 cargo test -p dusk-core --test fuzz
//! --release` is the longer run recorded in the README.

use dusk_core::dark_agent::sanitize::sanitize;
use dusk_core::llm::providers::StreamDecoder;
use dusk_core::llm::sse::SseParser;
use dusk_core::llm::text_protocol::{parse_reply, repair_json};
use dusk_core::llm::tools::ToolSpec;
use dusk_core::llm::{ProviderKind, StreamAccumulator};
use dusk_core::protocol::dark::DarkRequest;
use dusk_core::protocol::{AgentPortRequest, ChatPortRequest, ContentRequest, ContentResponse, PortRequest, WorkerRequest};
use proptest::prelude::*;
use serde_json::{json, Value};

const TYPES: &[&str] = &[
    "ping",
    "tab_rpc",
    "save_settings",
    "get_elements",
    "click",
    "type_text",
    "select",
    "scroll",
    "press_key",
    "drag_drop",
    "set_files",
    "mask",
    "highlight",
    "dark_theme_preview",
    "apply_css",
    "query_elements",
    "dark_fetch_css",
    "dark_set_site",
    "start",
    "approve",
    "deny",
    "load",
    "ask",
    "complete",
    "stop",
    "pong",
    "elements",
    "action",
    "error",
];

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(Value::from),
        "\\PC{0,24}".prop_map(Value::from),
        prop::sample::select(TYPES).prop_map(Value::from),
    ];
    leaf.prop_recursive(6, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::from),
            prop::collection::btree_map(
                prop_oneof![
                    prop::sample::select(&["type", "index", "tab_id", "rpc", "url", "text", "x", "y", "files", "window_id", "limit"][..])
                        .prop_map(str::to_string),
                    "[a-z_]{1,8}"
                ],
                inner,
                0..6
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// A message: mostly an object with a known `type`, so parsing gets past the tag.
fn message() -> impl Strategy<Value = Value> {
    (prop::sample::select(TYPES), json_value()).prop_map(|(t, v)| match v {
        Value::Object(mut m) => {
            m.insert("type".into(), json!(t));
            Value::Object(m)
        }
        other => other,
    })
}

/// Pieces of real SSE streams of all three providers, shuffled into new streams.
const SSE_PIECES: &[&str] = &[
    "data: ",
    "event: ",
    "id: 1",
    ": keep-alive",
    "\n",
    "\r\n",
    "\n\n",
    "\r\n\r\n",
    "[DONE]",
    "{",
    "}",
    "[",
    "]",
    ",",
    "\"",
    "{\"choices\":[{\"delta\":{\"content\":\"hi\"},\"index\":0}]}",
    "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c1\",\"function\":{\"name\":\"click\",\"arguments\":\"{\\\"in\"}}]}}]}",
    "{\"choices\":[{\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":1}}",
    "message_start",
    "{\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":5}}}",
    "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"x\",\"input\":{}}}",
    "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"a\"}}",
    "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"}}",
    "{\"type\":\"message_stop\"}",
    "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"busy\"}}",
    "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\"},{\"functionCall\":{\"name\":\"f\",\"args\":{\"k\":1}}}]},\"finishReason\":\"STOP\"}]}",
    "{\"usageMetadata\":{\"promptTokenCount\":1}}",
    "null",
    "\u{0}",
    "é",
    "🙂",
];

fn sse_stream() -> impl Strategy<Value = (Vec<u8>, Vec<usize>)> {
    let piece = prop_oneof![3 => prop::sample::select(SSE_PIECES).prop_map(|s| s.as_bytes().to_vec()), 1 => prop::collection::vec(any::<u8>(), 0..12)];
    (prop::collection::vec(piece, 0..40), prop::collection::vec(1usize..64, 0..20)).prop_map(|(pieces, cuts)| (pieces.concat(), cuts))
}

fn css_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        prop::sample::select(
            &[
                "@import",
                "url(",
                ")",
                "'",
                "\"",
                "{",
                "}",
                ";",
                ":",
                "/*",
                "*/",
                "\\",
                "@media screen",
                "image-set(",
                "expression(",
                "behavior:",
                "-moz-binding",
                "data:image/png;base64,AA",
                "https://evil.example/x",
                "color: red",
                "body",
                "a,b",
                "!important",
                "@font-face",
                "src:",
                "\n",
                " ",
                "@supports",
                "@layer",
                "é",
            ][..]
        )
        .prop_map(str::to_string),
        "\\PC{0,6}",
    ];
    prop::collection::vec(piece, 0..60).prop_map(|v| v.concat())
}

fn colour_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        prop::sample::select(
            &[
                "#",
                "rgb(",
                "rgba(",
                "hsl(",
                "hsla(",
                "hwb(",
                "lab(",
                "lch(",
                "oklab(",
                "oklch(",
                "color(",
                "srgb",
                "display-p3",
                ")",
                ",",
                "/",
                " ",
                "%",
                "deg",
                "turn",
                "none",
                "calc(",
                "var(--x)",
                "transparent",
                "currentcolor",
                "red",
                "-",
                "e9",
                ".",
                "0",
                "255",
                "1e400",
            ][..]
        )
        .prop_map(str::to_string),
        "[0-9a-fA-F.%-]{0,6}",
    ];
    prop::collection::vec(piece, 0..16).prop_map(|v| v.concat())
}

fn tools() -> Vec<ToolSpec> {
    vec![
        ToolSpec { name: "click".into(), description: "clicks".into(), parameters: json!({"type": "object", "properties": {"index": {"type": "integer"}}}) },
        ToolSpec { name: "type".into(), description: "types".into(), parameters: json!({"type": "object", "properties": {"text": {"type": "string"}}}) },
    ]
}

fn reply_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        prop::sample::select(
            &[
                "```json",
                "```",
                "\n",
                "{\"tool\": \"click\", \"args\": {\"index\": 3}}",
                "{\"tool\":",
                "\"args\":",
                "[",
                "]",
                "{",
                "}",
                ",",
                "TOOL_CALL:",
                "click",
                "type",
                "'",
                "\"",
                "\\",
                "NEED_TOOLS:",
                "{\"name\": \"type\", \"arguments\": \"{\\\"text\\\": 1}\"}",
                "<tool_call>",
                "</tool_call>",
                "null",
                "true",
                "1e999",
                "🙂",
            ][..]
        )
        .prop_map(str::to_string),
        "\\PC{0,8}",
    ];
    prop::collection::vec(piece, 0..30).prop_map(|v| v.concat())
}

proptest! {
    #[test]
    fn every_protocol_parser_answers_any_message(v in message()) {
        let _ = dusk_core::protocol::from_value::<ContentRequest>(v.clone());
        let _ = dusk_core::protocol::from_value::<ContentResponse>(v.clone());
        let _ = dusk_core::protocol::from_value::<WorkerRequest>(v.clone());
        let _ = dusk_core::protocol::from_value::<DarkRequest>(v.clone());
        let _ = dusk_core::protocol::from_value::<ChatPortRequest>(v.clone());
        let _ = dusk_core::protocol::from_value::<AgentPortRequest>(v.clone());
        let _ = dusk_core::protocol::from_value::<PortRequest>(v.clone());
        if let Ok(ContentRequest::Click { target, .. } | ContentRequest::Hover { target }) = dusk_core::protocol::from_value::<ContentRequest>(v) {
            let _ = target.kind();
        }
    }

    #[test]
    fn every_provider_decodes_any_stream((bytes, cuts) in sse_stream()) {
        for kind in [ProviderKind::Openai, ProviderKind::Anthropic, ProviderKind::Gemini] {
            let mut sse = SseParser::new();
            let mut dec = StreamDecoder::new(kind, "m");
            let mut acc = StreamAccumulator::new();
            let mut rest = &bytes[..];
            let mut events = vec![];
            for cut in cuts.iter().chain(std::iter::once(&usize::MAX)) {
                let (chunk, tail) = rest.split_at((*cut).min(rest.len()));
                events.extend(sse.feed(chunk));
                rest = tail;
            }
            events.extend(sse.finish());
            for ev in &events {
                match dec.feed(ev) {
                    Ok(out) => out.iter().for_each(|e| acc.push(e)),
                    Err(_) => break,
                }
            }
            let _ = dec.finish();
            let _ = acc.finish();
        }
    }

    #[test]
    fn the_text_protocol_parser_answers_any_reply(text in reply_text()) {
        let _ = parse_reply(&text, &tools());
        let _ = repair_json(&text);
    }

    #[test]
    fn the_css_sanitiser_answers_any_css_and_its_output_is_clean(css in css_text()) {
        if let Ok(s) = sanitize(&css) {
            // What survives is clean: sanitising it again finds nothing more to remove.
            let again = sanitize(&s.css).unwrap();
            prop_assert!(again.removed.is_empty(), "{:?} left {:?}", s.css, again.removed);
        }
    }

    #[test]
    fn the_colour_parsers_answer_any_text(text in colour_text()) {
        if let Some(c) = dusk_core::page::color::parse_color(&text) {
            prop_assert!(c.luminance().is_finite());
        }
        let _ = dusk_core::dark::color::parse(&text);
    }
}
