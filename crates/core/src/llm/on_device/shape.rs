//! A `ChatRequest` as Prompt API calls: the system prompt and the conversation so far become
//! `initialPrompts`, extra user turns after the last answer are `append()`ed, and the newest user
//! turn is the `prompt()` input. Field names are the Web IDL's, so the binding passes them as is.

use super::LANGUAGES;
use crate::llm::message::{ChatRequest, Image, Message};
use crate::llm::LlmError;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PromptRole {
    System,
    User,
    Assistant,
}

/// `LanguageModelMessageContent`. An image's value is base64 here; the binding turns it into a Blob.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self", rename_all = "lowercase")]
pub enum PromptContent {
    Text { value: String },
    Image { value: Image },
}
crate::protocol::tagged::type_tagged!(PromptContent, "type");

/// `LanguageModelMessage`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PromptMessage {
    pub role: PromptRole,
    pub content: Vec<PromptContent>,
}

impl PromptMessage {
    fn text(role: PromptRole, text: &str) -> Self {
        PromptMessage { role, content: vec![PromptContent::Text { value: text.to_string() }] }
    }
}

/// `LanguageModelExpected`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Expected {
    #[serde(rename = "type")]
    pub kind: String,
    pub languages: Vec<String>,
}

impl Expected {
    fn new(kind: &str) -> Self {
        Expected { kind: kind.into(), languages: LANGUAGES.iter().map(|l| l.to_string()).collect() }
    }
}

/// One model call as the Prompt API takes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PromptRequest {
    /// `create({initialPrompts})`: the system prompt first (the only place the API accepts it).
    pub initial_prompts: Vec<PromptMessage>,
    pub expected_inputs: Vec<Expected>,
    pub expected_outputs: Vec<Expected>,
    /// `append()`ed before the prompt: user turns that came after the last answer.
    pub append: Vec<PromptMessage>,
    /// `prompt()`/`promptStreaming()`: the newest user turn.
    pub input: Vec<PromptMessage>,
    pub stream: bool,
}

/// The options `availability()` is asked with, so it answers for what Dusk will send.
pub fn availability_options(vision: bool) -> serde_json::Value {
    let mut inputs = vec![Expected::new("text")];
    if vision {
        inputs.push(Expected::new("image"));
    }
    serde_json::json!({ "expectedInputs": inputs, "expectedOutputs": [Expected::new("text")] })
}

fn user_message(text: &str, images: &[Image], vision: bool) -> PromptMessage {
    let mut content = vec![];
    if vision {
        content.extend(images.iter().map(|i| PromptContent::Image { value: i.clone() }));
    }
    if !text.is_empty() || content.is_empty() {
        content.push(PromptContent::Text { value: text.to_string() });
    }
    PromptMessage { role: PromptRole::User, content }
}

/// Shapes `request` (already on the text protocol: tools are in the system prompt) for the API.
pub fn shape(request: &ChatRequest, vision: bool) -> Result<PromptRequest, LlmError> {
    let system: Vec<&str> = request.messages.iter().filter_map(|m| if let Message::System { text } = m { Some(text.as_str()) } else { None }).collect();
    let mut turns: Vec<PromptMessage> = vec![];
    for m in &request.messages {
        match m {
            Message::System { .. } => {}
            Message::User { text, images } => turns.push(user_message(text, images, vision)),
            Message::Assistant { text, .. } => turns.push(PromptMessage::text(PromptRole::Assistant, text)),
            // The text protocol already turned tool results into user text; this keeps any stray one.
            Message::Tool(r) => {
                let images: Vec<Image> = r.image.iter().cloned().collect();
                turns.push(user_message(&format!("Tool `{}` returned:\n{}", r.name, r.content), &images, vision));
            }
        }
    }
    let answered = turns.iter().rposition(|t| t.role == PromptRole::Assistant).map_or(0, |i| i + 1);
    let mut trailing = turns.split_off(answered);
    let Some(input) = trailing.pop() else {
        return Err(LlmError::BadRequest { provider: "Chrome".into(), message: "there is no user message to answer".into() });
    };
    let mut initial_prompts = vec![];
    if !system.is_empty() {
        initial_prompts.push(PromptMessage::text(PromptRole::System, &system.join("\n\n")));
    }
    initial_prompts.extend(turns);
    let has_images = initial_prompts.iter().chain(&trailing).chain([&input]).any(|m| m.content.iter().any(|c| matches!(c, PromptContent::Image { .. })));
    let mut expected_inputs = vec![Expected::new("text")];
    if has_images {
        expected_inputs.push(Expected::new("image"));
    }
    Ok(PromptRequest {
        initial_prompts,
        expected_inputs,
        expected_outputs: vec![Expected::new("text")],
        append: trailing,
        input: vec![input],
        stream: request.stream,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(ms: &[PromptMessage]) -> Vec<(PromptRole, String)> {
        ms.iter()
            .map(|m| {
                let t = m.content.iter().filter_map(|c| if let PromptContent::Text { value } = c { Some(value.as_str()) } else { None }).collect::<String>();
                (m.role, t)
            })
            .collect()
    }

    #[test]
    fn system_and_history_open_the_session_and_the_question_is_the_prompt() {
        let req =
            ChatRequest::new(vec![Message::system("rules"), Message::user("q1"), Message::assistant("a1"), Message::user("page text"), Message::user("q2")])
                .streaming(true);
        let p = shape(&req, false).unwrap();
        assert_eq!(
            texts(&p.initial_prompts),
            vec![(PromptRole::System, "rules".into()), (PromptRole::User, "q1".into()), (PromptRole::Assistant, "a1".into())]
        );
        assert_eq!(texts(&p.append), vec![(PromptRole::User, "page text".into())]);
        assert_eq!(texts(&p.input), vec![(PromptRole::User, "q2".into())]);
        assert!(p.stream);
        let json = serde_json::to_value(&p).unwrap();
        assert_eq!(json["initialPrompts"][0], serde_json::json!({"role": "system", "content": [{"type": "text", "value": "rules"}]}));
        assert_eq!(json["expectedInputs"], serde_json::json!([{"type": "text", "languages": ["en"]}]));
        assert_eq!(json["expectedOutputs"][0]["type"], "text");
    }

    #[test]
    fn images_go_as_image_inputs_only_with_vision() {
        let shot = Image::new("image/png", "iVBORw0KGgo=");
        let req = ChatRequest::new(vec![Message::system("s"), Message::user_with_images("look", vec![shot.clone()])]);
        let p = shape(&req, true).unwrap();
        assert_eq!(p.input[0].content[0], PromptContent::Image { value: shot });
        assert_eq!(p.expected_inputs.iter().map(|e| e.kind.as_str()).collect::<Vec<_>>(), ["text", "image"]);
        let json = serde_json::to_value(&p.input[0].content[0]).unwrap();
        assert_eq!(json["type"], "image");
        let p = shape(&req, false).unwrap();
        assert_eq!(texts(&p.input), vec![(PromptRole::User, "look".into())]);
        assert_eq!(p.expected_inputs.len(), 1);
        assert_eq!(availability_options(true)["expectedInputs"][1]["type"], "image");
    }

    #[test]
    fn a_request_with_nothing_to_answer_is_refused() {
        let req = ChatRequest::new(vec![Message::system("s"), Message::user("q"), Message::assistant("a")]);
        assert!(matches!(shape(&req, false), Err(LlmError::BadRequest { .. })));
    }

    #[test]
    fn tool_turns_on_the_text_protocol_stay_in_order() {
        let call = crate::llm::ToolCall::new("c1", "inspect", serde_json::json!({}));
        let req = ChatRequest::new(vec![
            Message::system("s"),
            Message::user("task"),
            Message::Assistant { text: "TOOL_CALL: inspect {}".into(), tool_calls: vec![] },
            Message::tool_result(&call, "3 elements"),
        ]);
        let p = shape(&req, false).unwrap();
        assert_eq!(p.initial_prompts.len(), 3);
        assert!(texts(&p.input)[0].1.contains("3 elements"));
    }
}
