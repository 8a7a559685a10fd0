//! A model the runtime can call: `LlmClient` in the worker, a script in tests.

use crate::llm::client::{HttpResponse, LlmClient, Sleeper, Transport};
use crate::llm::{AssistantReply, Capabilities, ChatRequest, LlmError, StreamEvent};

#[allow(async_fn_in_trait)]
pub trait Model {
    async fn complete(&self, request: &ChatRequest, on_event: &mut dyn FnMut(&StreamEvent)) -> Result<AssistantReply, LlmError>;
    fn model_name(&self) -> String;
    /// Native tools or the text protocol (the client handles both); vision or text-only screenshots.
    fn capabilities(&self) -> Capabilities;
    /// The model's context window when it is small and known (the on-device model); budgets follow it.
    fn context_window(&self) -> Option<u64> {
        None
    }
    /// Whether this is the browser's on-device model.
    fn on_device(&self) -> bool {
        false
    }
    /// Whether it may drive tool loops (`llm::on_device::gate`).
    fn drives_agents(&self) -> bool {
        true
    }
}

impl<T: Transport, S: Sleeper> Model for LlmClient<T, S>
where
    T::Response: HttpResponse,
{
    async fn complete(&self, request: &ChatRequest, on_event: &mut dyn FnMut(&StreamEvent)) -> Result<AssistantReply, LlmError> {
        LlmClient::complete(self, request, |e| on_event(e)).await
    }

    fn model_name(&self) -> String {
        self.provider().effective_model()
    }

    fn capabilities(&self) -> Capabilities {
        LlmClient::capabilities(self)
    }

    fn context_window(&self) -> Option<u64> {
        LlmClient::context_window(self)
    }

    fn on_device(&self) -> bool {
        self.provider().kind.is_on_device()
    }

    fn drives_agents(&self) -> bool {
        crate::llm::on_device::gate::drives_agents(self.provider())
    }
}
