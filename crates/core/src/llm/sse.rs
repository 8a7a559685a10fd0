//! An incremental Server-Sent Events parser: chunks may split anywhere, even inside a UTF-8
//! character or between `\r` and `\n`, because fetch hands us bytes as the network delivers them.

/// One dispatched event.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event:` field, if the server sent one.
    pub event: Option<String>,
    /// The `data:` lines joined with `\n`.
    pub data: String,
    pub id: Option<String>,
}

impl SseEvent {
    /// OpenAI-style end-of-stream marker.
    pub fn is_done(&self) -> bool {
        self.data.trim() == "[DONE]"
    }
}

#[derive(Debug, Default)]
pub struct SseParser {
    /// Bytes of the current, not yet terminated line.
    line: Vec<u8>,
    /// The previous chunk ended with `\r`, so a leading `\n` belongs to that line break.
    after_cr: bool,
    started: bool,
    event: Option<String>,
    data: String,
    has_data: bool,
    id: Option<String>,
}

impl SseParser {
    pub fn new() -> Self {
        Self::default()
    }

    /// Feeds the next chunk and returns the events it completed.
    pub fn feed(&mut self, chunk: &[u8]) -> Vec<SseEvent> {
        let mut out = Vec::new();
        for &b in chunk {
            if self.after_cr {
                self.after_cr = false;
                if b == b'\n' {
                    continue;
                }
            }
            match b {
                b'\r' => {
                    self.after_cr = true;
                    self.end_line(&mut out);
                }
                b'\n' => self.end_line(&mut out),
                _ => self.line.push(b),
            }
        }
        out
    }

    /// Ends the stream; a last event without its blank line is still delivered.
    pub fn finish(&mut self) -> Vec<SseEvent> {
        let mut out = Vec::new();
        if !self.line.is_empty() {
            self.end_line(&mut out);
        }
        self.dispatch(&mut out);
        out
    }

    fn end_line(&mut self, out: &mut Vec<SseEvent>) {
        let bytes = std::mem::take(&mut self.line);
        let mut line = String::from_utf8_lossy(&bytes).into_owned();
        if !self.started {
            self.started = true;
            if let Some(rest) = line.strip_prefix('\u{feff}') {
                line = rest.to_string();
            }
        }
        if line.is_empty() {
            self.dispatch(out);
            return;
        }
        if line.starts_with(':') {
            return;
        }
        let (field, value) = match line.split_once(':') {
            Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
            None => (line.as_str(), ""),
        };
        match field {
            "event" => self.event = Some(value.to_string()),
            "data" => {
                if self.has_data {
                    self.data.push('\n');
                }
                self.data.push_str(value);
                self.has_data = true;
            }
            "id" if !value.contains('\0') => self.id = Some(value.to_string()),
            _ => {}
        }
    }

    fn dispatch(&mut self, out: &mut Vec<SseEvent>) {
        let event = self.event.take();
        if !self.has_data {
            return;
        }
        self.has_data = false;
        out.push(SseEvent { event, data: std::mem::take(&mut self.data), id: self.id.clone() });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &[u8]) -> Vec<SseEvent> {
        let mut p = SseParser::new();
        let mut v = p.feed(input);
        v.extend(p.finish());
        v
    }

    #[test]
    fn parses_fields_comments_and_multiline_data() {
        let evs = all(b": keep-alive\nevent: ping\ndata: a\ndata:b\nid: 7\n\ndata: [DONE]\n\n");
        assert_eq!(evs.len(), 2);
        assert_eq!(evs[0].event.as_deref(), Some("ping"));
        assert_eq!(evs[0].data, "a\nb");
        assert_eq!(evs[0].id.as_deref(), Some("7"));
        assert!(evs[1].is_done() && evs[1].event.is_none());
    }

    #[test]
    fn all_line_endings_work() {
        let want = all(b"data: x\n\ndata: y\n\n");
        assert_eq!(all(b"data: x\r\n\r\ndata: y\r\n\r\n"), want);
        assert_eq!(all(b"data: x\r\rdata: y\r\r"), want);
    }

    #[test]
    fn splits_inside_crlf_and_utf8_are_harmless() {
        let input = "data: caf\u{e9} \u{1f600}\r\n\r\n".as_bytes();
        let whole = all(input);
        for cut in 0..input.len() {
            let mut p = SseParser::new();
            let mut v = p.feed(&input[..cut]);
            v.extend(p.feed(&input[cut..]));
            v.extend(p.finish());
            assert_eq!(v, whole, "cut at {cut}");
        }
        assert_eq!(whole[0].data, "caf\u{e9} \u{1f600}");
    }

    #[test]
    fn events_without_data_are_not_dispatched_and_bom_is_ignored() {
        assert!(all(b"event: x\n\n").is_empty());
        let evs = all(b"\xEF\xBB\xBFdata: 1\n\ndata: tail-without-blank-line");
        assert_eq!(evs.iter().map(|e| e.data.as_str()).collect::<Vec<_>>(), vec!["1", "tail-without-blank-line"]);
    }
}
