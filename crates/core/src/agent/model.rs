//! A model the runtime can call: `LlmClient` in the worker, a script in tests.

use crate::llm::client::{HttpResponse, LlmClient, Sleeper, Transport};
use crate::llm::{AssistantReply, Capabilities, ChatRequest, LlmError, StreamEvent};

#[allow(async_fn_in_trait)]
pub trait Model {
    async fn complete(&self, request: ChatRequest, on_event: &mut dyn FnMut(&StreamEvent)) -> Result<AssistantReply, LlmError>;
    fn model_name(&self) -> String;
    /// Native tools or the text protocol (the client handles both); vision or text-only screenshots.
    fn capabilities(&self) -> Capabilities;
}

impl<T: Transport, S: Sleeper> Model for LlmClient<T, S>
where
    T::Response: HttpResponse,
{
    async fn complete(&self, request: ChatRequest, on_event: &mut dyn FnMut(&StreamEvent)) -> Result<AssistantReply, LlmError> {
        LlmClient::complete(self, request, |e| on_event(e)).await
    }

    fn model_name(&self) -> String {
        self.provider().effective_model()
    }

    fn capabilities(&self) -> Capabilities {
        LlmClient::capabilities(self)
    }
}
