//! Any split of a recorded provider stream into chunks must decode to the same events and reply.

use dusk_core::llm::providers::{ProviderKind, StreamDecoder};
use dusk_core::llm::sse::{SseEvent, SseParser};
use dusk_core::llm::{AssistantReply, StreamAccumulator, StreamEvent};
use proptest::prelude::*;

const OPENAI: &str = include_str!("fixtures/openai_stream_tools.sse");
const ANTHROPIC: &str = include_str!("fixtures/anthropic_stream_tools.sse");
const GEMINI: &str = include_str!("fixtures/gemini_stream_tools.sse");

fn decode(kind: ProviderKind, chunks: &[&[u8]]) -> (Vec<SseEvent>, Vec<StreamEvent>, AssistantReply) {
    let mut sse = SseParser::new();
    let mut dec = StreamDecoder::new(kind, "m");
    let mut raw = vec![];
    for c in chunks {
        raw.extend(sse.feed(c));
    }
    raw.extend(sse.finish());
    let mut events = vec![];
    for ev in &raw {
        events.extend(dec.feed(ev).expect("fixture decodes"));
    }
    events.extend(dec.finish().expect("fixture is complete"));
    let mut acc = StreamAccumulator::new();
    events.iter().for_each(|e| acc.push(e));
    (raw, events, acc.finish().expect("no error events"))
}

fn split<'a>(bytes: &'a [u8], cuts: &[usize]) -> Vec<&'a [u8]> {
    let mut cuts: Vec<usize> = cuts.iter().map(|c| c % (bytes.len() + 1)).collect();
    cuts.sort_unstable();
    let mut out = vec![];
    let mut prev = 0;
    for c in cuts {
        out.push(&bytes[prev..c]);
        prev = c;
    }
    out.push(&bytes[prev..]);
    out
}

fn check(kind: ProviderKind, text: &str, cuts: &[usize]) {
    let bytes = text.as_bytes();
    let whole = decode(kind, &[bytes]);
    assert!(!whole.2.tool_calls.is_empty(), "fixture has tool calls");
    let parts = decode(kind, &split(bytes, cuts));
    assert_eq!(parts.0, whole.0);
    assert_eq!(parts.1, whole.1);
    assert_eq!(parts.2, whole.2);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn openai_any_split(cuts in proptest::collection::vec(any::<usize>(), 0..40)) {
        check(ProviderKind::Openai, OPENAI, &cuts);
    }

    #[test]
    fn openai_crlf_any_split(cuts in proptest::collection::vec(any::<usize>(), 0..40)) {
        check(ProviderKind::Openai, &OPENAI.replace('\n', "\r\n"), &cuts);
    }

    #[test]
    fn anthropic_any_split(cuts in proptest::collection::vec(any::<usize>(), 0..40)) {
        check(ProviderKind::Anthropic, ANTHROPIC, &cuts);
    }

    #[test]
    fn anthropic_cr_any_split(cuts in proptest::collection::vec(any::<usize>(), 0..40)) {
        check(ProviderKind::Anthropic, &ANTHROPIC.replace('\n', "\r"), &cuts);
    }

    #[test]
    fn gemini_any_split(cuts in proptest::collection::vec(any::<usize>(), 0..40)) {
        check(ProviderKind::Gemini, GEMINI, &cuts);
    }
}

#[test]
fn line_ending_styles_decode_identically() {
    let lf = decode(ProviderKind::Openai, &[OPENAI.as_bytes()]);
    for variant in [OPENAI.replace('\n', "\r\n"), OPENAI.replace('\n', "\r")] {
        assert_eq!(decode(ProviderKind::Openai, &[variant.as_bytes()]).1, lf.1);
    }
}

#[test]
fn byte_at_a_time_handles_multibyte_characters() {
    let bytes = OPENAI.as_bytes();
    let singles: Vec<&[u8]> = bytes.chunks(1).collect();
    let r = decode(ProviderKind::Openai, &singles).2;
    assert_eq!(r.tool_calls[1].arguments["location"], "Bogotá, Colombia");
}
