use super::action::Ctx;
use crate::agent::{Gate, Tool, ToolOutput};
use crate::browser_agent::browser::Browser;
use crate::browser_agent::context::grouped;
use crate::browser_agent::safety::Action;
use crate::browser_agent::session::BrowserSession;
use crate::page::text::HEADING_SELECTOR;
use crate::protocol::{ContentRequest, ContentResponse};
use schemars::JsonSchema;
use serde::Deserialize;

/// Characters of text one call returns.
pub const CHUNK: usize = 3000;

/// Reads the text a person sees on the page now, or in the element with this index (a field's value), 3,000 characters at a time; the answer says where it stops and the offset to read on from.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct ReadTextArgs {
    #[serde(default)]
    pub index: Option<u32>,
    /// Characters to skip from the start: the offset the previous answer gave.
    #[serde(default)]
    pub offset: Option<u32>,
}

pub struct ReadText;

/// Lines trimmed, blank ones dropped: how a reader takes rendered text.
fn lines_of(text: &str) -> String {
    text.lines().map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join("\n")
}

/// The chunk of `text` from character `offset`, at most `CHUNK` long, ending at a line or word
/// break when one is near; and the character it stops before.
pub fn chunk(text: &str, offset: usize) -> (String, usize) {
    let chars: Vec<char> = text.chars().collect();
    let start = offset.min(chars.len());
    let mut end = (start + CHUNK).min(chars.len());
    if end < chars.len() {
        let window = &chars[start..end];
        let floor = window.len().saturating_sub(CHUNK / 5);
        let at = window.iter().rposition(|&c| c == '\n').filter(|&i| i >= floor).or_else(|| window.iter().rposition(|&c| c == ' ').filter(|&i| i >= floor));
        if let Some(i) = at {
            end = start + i + 1;
        }
    }
    (chars[start..end].iter().collect::<String>().trim_end().to_string(), end)
}

/// The answer: where this chunk sits in the whole, how to read on, and the text between markers.
pub fn answer(what: &str, text: &str, offset: usize, hidden: u32, index: Option<u32>) -> String {
    let total = text.chars().count();
    if total == 0 {
        return format!("{what} shows no text.");
    }
    let (part, end) = chunk(text, offset);
    let start = offset.min(total);
    let mut head = format!("{what}, characters {}–{} of {}", grouped(start as u64 + 1), grouped(end as u64), grouped(total as u64));
    if end < total {
        let at = index.map_or(String::new(), |i| format!("\"index\": {i}, "));
        head.push_str(&format!("; more: read_text {{{at}\"offset\": {end}}}"));
    } else {
        head.push_str(" (the end)");
    }
    if hidden > 0 {
        head.push_str(&format!("; {hidden} pieces of text no one can see left out"));
    }
    format!("{head}\n<<<PAGE\n{part}\nPAGE>>>")
}

impl<B: Browser> Tool<BrowserSession<'_, B>> for ReadText {
    type Args = ReadTextArgs;
    fn name(&self) -> &'static str {
        "read_text"
    }
    fn describe(&self, a: &ReadTextArgs) -> String {
        match a.index {
            Some(i) => format!("Reading the text of element {i}"),
            None => "Reading the page's text".into(),
        }
    }
    async fn gate(&self, _a: &ReadTextArgs, ctx: &Ctx<'_, '_, B>) -> Gate {
        ctx.host.gate(Action::Read, None).await
    }
    async fn execute(&self, a: ReadTextArgs, ctx: &Ctx<'_, '_, B>) -> Result<ToolOutput, String> {
        let offset = a.offset.unwrap_or(0) as usize;
        let (what, text, hidden) = match a.index {
            None => match ctx.host.rpc(ContentRequest::PageText { headings: HEADING_SELECTOR.into(), max_chars: None, blocks: false, as_text: false }).await? {
                ContentResponse::PageText(p) => ("Page text".to_string(), lines_of(&p.text), p.hidden),
                other => return Err(other.unexpected()),
            },
            Some(i) => match ctx.host.rpc(ContentRequest::GetElementDetails { indices: vec![i] }).await? {
                ContentResponse::ElementDetails { details, .. } if !details.is_empty() => {
                    let d = &details[0];
                    let (what, text) = match &d.value {
                        Some(v) => (format!("The value of [{i}] {}", d.tag), v.clone()),
                        None => (format!("The text of [{i}] {}", d.tag), lines_of(d.whole_text.as_deref().unwrap_or(&d.text))),
                    };
                    (what, text, 0)
                }
                ContentResponse::ElementDetails { .. } => return Err(format!("element {i} is not on the page (stale or unknown); call get_elements")),
                other => return Err(other.unexpected()),
            },
        };
        let n = text.chars().count();
        Ok(ToolOutput::new(answer(&what, &text, offset, hidden, a.index), format!("Read {} characters of text", n.saturating_sub(offset).min(CHUNK))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_say_where_they_stop_and_how_to_read_on() {
        let text: String = (0..400).map(|i| format!("Line {i} of the page\n")).collect();
        let first = answer("Page text", &text, 0, 0, None);
        let head = first.lines().next().unwrap();
        assert!(head.starts_with("Page text, characters 1–"), "{head}");
        let end: usize = head.split("\"offset\": ").nth(1).unwrap().trim_end_matches('}').parse().unwrap();
        assert!(end <= CHUNK && end > CHUNK - CHUNK / 5, "{end}");
        assert!(first.ends_with("page\nPAGE>>>"), "a chunk ends at a line's end");
        let (_, stop) = chunk(&text, end);
        let last = answer("Page text", &text, stop.max(text.chars().count() - 10), 2, None);
        assert!(last.lines().next().unwrap().contains("(the end); 2 pieces of text no one can see left out"), "{last}");
        let of_field = answer("The value of [3] textarea", "word ".repeat(900).trim(), 0, 0, Some(3));
        assert!(of_field.contains("more: read_text {\"index\": 3, \"offset\": "), "{of_field}");
        assert_eq!(answer("Page text", "", 0, 0, None), "Page text shows no text.");
    }

    #[test]
    fn the_chunks_cover_the_text_whole() {
        let text: String = "lorem ipsum dolor sit amet ".repeat(500);
        let (mut at, mut got) = (0, String::new());
        while at < text.chars().count() {
            let (part, end) = chunk(&text, at);
            got.push_str(&part);
            got.push(' ');
            at = end;
        }
        assert_eq!(got.split_whitespace().count(), text.split_whitespace().count());
    }
}
