//! Token counts estimated when a provider omits them, and for the budgets before a request.

use super::message::{Message, ToolCall};
use super::tools::ToolSpec;

/// A flat per-image cost: close to what the big providers charge for a screenshot.
pub const IMAGE_TOKENS: u64 = 1000;

/// Roughly four characters per token for English text and JSON.
pub fn estimate_text_tokens(text: &str) -> u64 {
    (text.chars().count() as u64).div_ceil(4)
}

/// Estimates the input tokens of a request: messages, images and tool schemas.
pub fn estimate_input_tokens(messages: &[Message], tools: &[ToolSpec]) -> u64 {
    let per_message = 4;
    let messages: u64 = messages
        .iter()
        .map(|m| {
            per_message
                + match m {
                    Message::System { text } => estimate_text_tokens(text),
                    Message::User { text, images } => estimate_text_tokens(text) + IMAGE_TOKENS * images.len() as u64,
                    Message::Assistant { text, tool_calls } => estimate_text_tokens(text) + estimate_calls(tool_calls),
                    Message::Tool(r) => estimate_text_tokens(&r.content) + if r.image.is_some() { IMAGE_TOKENS } else { 0 },
                }
        })
        .sum();
    let tools: u64 =
        tools.iter().map(|t| estimate_text_tokens(&t.name) + estimate_text_tokens(&t.description) + estimate_text_tokens(&t.parameters.to_string())).sum();
    messages + tools
}

/// Estimates the output tokens of a reply.
pub fn estimate_output_tokens(text: &str, tool_calls: &[ToolCall]) -> u64 {
    estimate_text_tokens(text) + estimate_calls(tool_calls)
}

fn estimate_calls(calls: &[ToolCall]) -> u64 {
    calls.iter().map(|c| estimate_text_tokens(&c.name) + estimate_text_tokens(&c.arguments_text()) + 4).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::message::Image;

    #[test]
    fn estimates_use_four_chars_per_token_and_a_fixed_image_cost() {
        assert_eq!(estimate_text_tokens(""), 0);
        assert_eq!(estimate_text_tokens("abcde"), 2);
        let with_image = [Message::user_with_images("abcd", vec![Image::new("image/png", "AAAA")])];
        assert_eq!(estimate_input_tokens(&with_image, &[]), 4 + 1 + IMAGE_TOKENS);
    }
}
