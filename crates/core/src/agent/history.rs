//! Screenshots in the history: only the newest goes to the model as an image; earlier ones
//! become `[screenshot from step N]`, so a long run doesn't resend every picture.

use crate::llm::Message;

/// The text that stands in for an image the model no longer receives.
pub fn placeholder(step: u32) -> String {
    format!("[screenshot from step {step}]")
}

/// Replaces every image in `messages` with its placeholder; `step` is where the newest came from.
pub fn drop_images(messages: &mut [Message], step: u32) {
    for m in messages.iter_mut() {
        match m {
            Message::Tool(r) if r.image.is_some() => {
                r.image = None;
                r.content.push(' ');
                r.content.push_str(&placeholder(step));
            }
            Message::User { text, images } if !images.is_empty() => {
                images.clear();
                text.push(' ');
                text.push_str(&placeholder(step));
            }
            _ => {}
        }
    }
}

/// Every result of `tool` but the newest becomes a short note: the newest (from `step`) shows the
/// page as it is, and older page states would only be resent on every turn. Each call leaves only
/// the newest whole, so the walk back stops at the first note: the cost is the steps since the
/// last call, not the run.
pub fn supersede(messages: &mut [Message], tool: &str, step: u32) {
    let mut older = messages.iter_mut().rev().filter_map(|m| match m {
        Message::Tool(r) if r.name == tool => Some(r),
        _ => None,
    });
    let _newest = older.next();
    for r in older {
        if r.content.contains("[superseded") {
            break;
        }
        let note = format!("[superseded: the newer `{tool}` result of step {step} shows the page as it is now]");
        r.content = serde_json::json!({ "success": true, "data": note, "tool": tool }).to_string();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::{Image, ToolCall, ToolResult};

    #[test]
    fn images_become_placeholders() {
        let call = ToolCall::new("1", "screenshot", serde_json::json!({}));
        let Message::Tool(mut r) = Message::tool_result(&call, "{}") else { unreachable!() };
        r.image = Some(Image::new("image/jpeg", "AAAA"));
        let mut msgs = vec![Message::user_with_images("look", vec![Image::new("image/png", "B")]), Message::Tool(r)];
        drop_images(&mut msgs, 3);
        let Message::Tool(ToolResult { image, content, .. }) = &msgs[1] else { unreachable!() };
        assert!(image.is_none() && content.ends_with("[screenshot from step 3]"));
        assert!(matches!(&msgs[0], Message::User { images, .. } if images.is_empty()));
    }

    #[test]
    fn only_the_newest_page_state_stays_whole() {
        let result = |id: &str, tool: &str, text: &str| {
            let Message::Tool(r) = Message::tool_result(&ToolCall::new(id, tool, serde_json::json!({})), text) else { unreachable!() };
            Message::Tool(r)
        };
        let mut msgs = vec![result("1", "get_elements", "old list"), result("2", "click", "clicked"), result("3", "get_elements", "new list")];
        supersede(&mut msgs, "get_elements", 3);
        let texts: Vec<&str> = msgs.iter().map(|m| if let Message::Tool(r) = m { r.content.as_str() } else { "" }).collect();
        let note = r#"{"data":"[superseded: the newer `get_elements` result of step 3 shows the page as it is now]","success":true,"tool":"get_elements"}"#;
        assert_eq!(texts, [note, "clicked", "new list"]);
    }

    #[test]
    fn a_later_supersede_reaches_every_older_whole_result_and_keeps_earlier_notes() {
        let result = |id: &str, text: &str| {
            let Message::Tool(r) = Message::tool_result(&ToolCall::new(id, "get_elements", serde_json::json!({})), text) else { unreachable!() };
            Message::Tool(r)
        };
        let mut msgs = vec![result("1", "list 1"), result("2", "list 2")];
        supersede(&mut msgs, "get_elements", 2);
        // A failed listing (not superseded then) and a new one.
        msgs.push(result("3", "failed"));
        msgs.push(result("4", "list 4"));
        supersede(&mut msgs, "get_elements", 4);
        let texts: Vec<&str> = msgs.iter().map(|m| if let Message::Tool(r) = m { r.content.as_str() } else { "" }).collect();
        assert!(texts[0].contains("of step 2"), "{texts:?}");
        assert!(texts[1].contains("of step 4") && texts[2].contains("of step 4"), "{texts:?}");
        assert_eq!(texts[3], "list 4");
    }
}
