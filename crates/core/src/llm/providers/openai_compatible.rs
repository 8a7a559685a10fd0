//! OpenAI-compatible servers (Ollama, LM Studio, OpenRouter, vLLM, llama.cpp): OpenAI's wire
//! format at a user-chosen base URL, with an optional key and the classic `max_tokens` field.
//! Responses and streams are decoded by `openai`.

use super::openai;
use crate::llm::http::HttpRequest;
use crate::llm::message::ChatRequest;
use crate::settings::ProviderSettings;

pub fn build_request(p: &ProviderSettings, model: &str, req: &ChatRequest) -> HttpRequest {
    openai::build_with(p, model, req, false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::message::Message;
    use crate::llm::providers::{parse_response, ProviderKind};
    use crate::llm::tools::ToolSpec;
    use serde_json::{json, Value};

    #[test]
    fn keyless_local_server_with_classic_fields() {
        let mut p = ProviderSettings::new(ProviderKind::OpenaiCompatible);
        p.base_url = "http://127.0.0.1:1234/v1/".into();
        let mut req = ChatRequest::new(vec![Message::user("hi")]).with_tools(vec![ToolSpec::new("noop", "", json!({}))]);
        req.max_tokens = Some(64);
        req.temperature = Some(0.0);
        let http = build_request(&p, "qwen3:8b", &req);
        assert_eq!(http.url, "http://127.0.0.1:1234/v1/chat/completions");
        assert_eq!(http.header("authorization"), None);
        let body: Value = serde_json::from_str(&http.body).unwrap();
        assert_eq!(body["max_tokens"], 64);
        assert!(body.get("max_completion_tokens").is_none());
        assert_eq!(body["temperature"], 0.0);
        assert_eq!(body["tools"][0]["function"]["parameters"], json!({"type": "object", "properties": {}}));
    }

    #[test]
    fn openrouter_key_is_sent_as_bearer() {
        let mut p = ProviderSettings::new(ProviderKind::OpenaiCompatible);
        p.base_url = "https://openrouter.ai/api/v1".into();
        p.api_key = "sk-or-1".into();
        let http = build_request(&p, "openai/gpt-4o", &ChatRequest::new(vec![Message::user("hi")]));
        assert_eq!(http.url, "https://openrouter.ai/api/v1/chat/completions");
        assert_eq!(http.header("Authorization"), Some("Bearer sk-or-1"));
    }

    #[test]
    fn parses_an_ollama_style_tool_reply() {
        let body = r#"{"id":"chatcmpl-310","object":"chat.completion","created":1737000000,"model":"qwen2.5:7b","system_fingerprint":"fp_ollama",
          "choices":[{"index":0,"message":{"role":"assistant","content":"","tool_calls":[{"id":"call_x7k2","index":0,"type":"function","function":{"name":"click","arguments":"{\"index\":12}"}}]},"finish_reason":"tool_calls"}],
          "usage":{"prompt_tokens":210,"completion_tokens":21,"total_tokens":231}}"#;
        let r = parse_response(ProviderKind::OpenaiCompatible, "qwen2.5:7b", body).unwrap();
        assert_eq!(r.tool_calls[0].arguments, json!({"index": 12}));
    }
}
