//! Why a request never produced a response, as a transport (fetch, or the on-device model) reports
//! it. Below the client and the on-device reply, which both carry it.

use super::errors::LlmError;
use super::on_device;

/// Why a request never produced a response.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TransportError {
    #[error("{0}")]
    Network(String),
    #[error("timed out")]
    Timeout,
    #[error("aborted")]
    Aborted,
    /// The Prompt API rejected a call: the DOMException's name and message.
    #[error("{name}: {message}")]
    OnDevice { name: String, message: String },
    /// `availability()` did not say "available" when the request started.
    #[error("the on-device model is {0:?}")]
    NotReady(on_device::Availability),
}

impl From<TransportError> for LlmError {
    fn from(e: TransportError) -> Self {
        match e {
            TransportError::Network(m) => LlmError::Network(m),
            TransportError::Timeout => LlmError::Timeout,
            TransportError::Aborted => LlmError::Aborted,
            TransportError::OnDevice { name, message } => on_device::errors::classify(&name, &message),
            TransportError::NotReady(a) => on_device::errors::not_ready(a).unwrap_or_else(|| LlmError::OnDeviceUnavailable(format!("{a:?}"))),
        }
    }
}
