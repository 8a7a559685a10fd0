//! The provider-neutral LLM layer: conversation model, tool schemas, providers, streaming,
//! retries and a transport-agnostic client. Pure Rust so it runs natively in tests and in wasm.
//!
//! A binding crate implements `Transport` (fetch, reading `Response.body` chunk by chunk) and
//! `Sleeper` (setTimeout), then:
//!
//! ```ignore
//! let client = LlmClient::new(settings.active()?, FetchTransport, TimeoutSleeper);
//! let reply = client.complete(&ChatRequest::new(messages).with_tools(tools).streaming(true), |ev| ui.send(ev)).await?;
//! for call in &reply.tool_calls { let args: ClickArgs = parse_args(call)?; /* ... */ }
//! ```

pub mod capabilities;
pub mod client;
pub mod errors;
pub mod estimate;
pub mod http;
pub mod message;
pub mod on_device;
pub mod provider_kind;
pub mod providers;
pub mod retry;
pub mod sse;
pub mod stream;
pub mod text_protocol;
pub mod tool_call;
pub mod tools;
pub mod transport_error;
pub mod usage;

pub use capabilities::Capabilities;
pub use client::{HttpResponse, LlmClient, Sleeper, Transport};
pub use errors::LlmError;
pub use http::HttpRequest;
pub use message::{AssistantReply, ChatRequest, Image, Message, StopReason, ToolCall, ToolResult};
pub use on_device::{no_on_device_model, NoPrompt, PromptReply};
pub use provider_kind::ProviderKind;
pub use retry::RetryPolicy;
pub use stream::{StreamAccumulator, StreamEvent};
pub use tools::{parse_args, ToolArgsError, ToolSpec};
pub use transport_error::TransportError;
pub use usage::Usage;
