//! What a provider/model can do (function calling, images), so requests are shaped to fit it,
//! plus detection of a server that rejects `tools` so the client can fall back at runtime.

use super::provider_kind::ProviderKind;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Capabilities {
    /// Native function calling; without it the text protocol is used.
    pub tools: bool,
    /// Accepts images; without it screenshots are described as omitted.
    pub vision: bool,
}

/// Local model families known to lack native function calling.
const NO_TOOLS: &[&str] = &["gemma", "llava", "bakllava", "moondream", "deepseek-r1", "tinyllama", "codellama", "phi3", "phi-3", "phi2", "phi-2"];

/// Local model families known to accept images.
const VISION: &[&str] = &[
    "vision",
    "llava",
    "-vl",
    "vl-",
    "qwen2.5vl",
    "qwen3-vl",
    "minicpm-v",
    "pixtral",
    "moondream",
    "gemma3",
    "gemma-3",
    "llama4",
    "mistral-small3.1",
    "mistral-small3.2",
    "granite3.2-vision",
    "gpt-4o",
    "gpt-4.1",
    "gpt-5",
    "claude",
    "gemini",
];

/// The capability table: hosted providers do both; local models by name heuristics.
pub fn defaults(kind: ProviderKind, model: &str) -> Capabilities {
    match kind {
        ProviderKind::Openai | ProviderKind::Anthropic | ProviderKind::Gemini => Capabilities { tools: true, vision: true },
        // Tools go through the text protocol (docs/architecture.md says why); images only when the user says so.
        ProviderKind::OnDevice => Capabilities { tools: false, vision: false },
        ProviderKind::OpenaiCompatible => {
            let m = model.to_ascii_lowercase();
            Capabilities { tools: !NO_TOOLS.iter().any(|p| m.contains(p)), vision: VISION.iter().any(|p| m.contains(p)) }
        }
    }
}

/// Whether a failed response means "this model/server does not do function calling".
pub fn tools_rejected(status: u16, body: &str) -> bool {
    if !matches!(status, 400 | 404 | 405 | 422 | 500 | 501) {
        return false;
    }
    let b = body.to_ascii_lowercase();
    let about_tools = b.contains("tool") || b.contains("function call") || b.contains("function_call") || b.contains("functions");
    let refusal = [
        "not support",
        "unsupported",
        "no endpoints found",
        "requires",
        "not enabled",
        "not available",
        "unknown field",
        "unrecognized",
        "extra inputs are not permitted",
        "not allowed",
        "--jinja",
        "tool-call-parser",
    ];
    about_tools && refusal.iter().any(|r| b.contains(r))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::ProviderSettings;

    #[test]
    fn hosted_providers_do_everything_local_ones_depend_on_the_model() {
        assert_eq!(defaults(ProviderKind::Gemini, "x"), Capabilities { tools: true, vision: true });
        assert_eq!(defaults(ProviderKind::OpenaiCompatible, "qwen2.5:7b"), Capabilities { tools: true, vision: false });
        assert_eq!(defaults(ProviderKind::OpenaiCompatible, "llava:13b"), Capabilities { tools: false, vision: true });
        assert_eq!(defaults(ProviderKind::OpenaiCompatible, "qwen2.5vl:7b"), Capabilities { tools: true, vision: true });
        assert!(!defaults(ProviderKind::OpenaiCompatible, "gemma3:4b").tools);
    }

    #[test]
    fn settings_override_the_table() {
        let mut p = ProviderSettings::new(ProviderKind::OpenaiCompatible);
        p.model = "llava".into();
        p.supports_tools = Some(true);
        p.supports_vision = Some(false);
        assert_eq!(p.capabilities(), Capabilities { tools: true, vision: false });
    }

    #[test]
    fn recognises_servers_that_reject_tools() {
        let ollama = r#"{"error":{"message":"registry.ollama.ai/library/gemma:2b does not support tools","type":"api_error","param":null,"code":null}}"#;
        assert!(tools_rejected(400, ollama));
        let vllm = r#"{"object":"error","message":"\"auto\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set","type":"BadRequestError","code":400}"#;
        assert!(tools_rejected(400, vllm));
        assert!(tools_rejected(404, r#"{"error":{"message":"No endpoints found that support tool use.","code":404}}"#));
        assert!(tools_rejected(500, r#"{"error":{"code":500,"message":"tools param requires --jinja flag","type":"server_error"}}"#));
        assert!(!tools_rejected(401, "tools not supported"));
        assert!(!tools_rejected(
            400,
            r#"{"error":{"message":"Invalid 'messages[2]': messages with role 'tool' must be a response to a preceeding message with 'tool_calls'."}}"#
        ));
        assert!(!tools_rejected(429, "rate limited"));
    }
}
