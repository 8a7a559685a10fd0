//! Talking to the service worker: one typed request, one typed reply.

use dusk_chrome::{message, runtime};
use dusk_core::protocol::{WorkerRequest, WorkerResponse};

/// Sends a request; a dead worker or an `error` reply becomes `Err` with a readable message.
pub async fn request(req: &WorkerRequest) -> Result<WorkerResponse, String> {
    let reply = runtime::send_message(&message::to_js(req)).await.map_err(|e| message::error_text(&e))?;
    match message::from_js::<WorkerResponse>(reply)? {
        WorkerResponse::Error { message } => Err(message),
        other => Ok(other),
    }
}
