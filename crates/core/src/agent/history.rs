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
/// page as it is, and older page states would only be resent on every turn.
pub fn supersede(messages: &mut [Message], tool: &str, step: u32) {
    let newest = messages.iter().rposition(|m| matches!(m, Message::Tool(r) if r.name == tool));
    for (i, m) in messages.iter_mut().enumerate() {
        if let Message::Tool(r) = m {
            if r.name == tool && Some(i) != newest && !r.content.contains("[superseded") {
                let note = format!("[superseded: the newer `{tool}` result of step {step} shows the page as it is now]");
                r.content = serde_json::json!({ "success": true, "data": note, "tool": tool }).to_string();
            }
        }
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
}
