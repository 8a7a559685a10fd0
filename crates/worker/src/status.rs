//! What both builds answer: `ping`, and the status the popup asks for on opening.

use dusk_core::protocol::WorkerResponse;

pub fn pong() -> WorkerResponse {
    WorkerResponse::Pong { version: dusk_core::VERSION.to_string(), init_ms: crate::init_ms() }
}

pub async fn status() -> WorkerResponse {
    WorkerResponse::Status(crate::stored::settings().await.status(dusk_core::VERSION))
}
