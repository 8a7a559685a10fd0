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
}
