use thiserror::Error;

/// Every error core can produce; binding crates convert it to a JsValue at the boundary.
#[derive(Debug, Error, PartialEq)]
pub enum CoreError {
    #[error("malformed message: {0}")]
    BadMessage(String),
    #[error("message from an untrusted sender")]
    UntrustedSender,
}
