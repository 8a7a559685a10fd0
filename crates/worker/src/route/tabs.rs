use dusk_chrome::message::{from_js, to_js};
use dusk_core::protocol::{ContentRequest, WorkerResponse};

/// Relays a DOM RPC; a tab without our content script (chrome://, the Web Store) is a clear error.
pub async fn relay(tab_id: i32, rpc: ContentRequest) -> WorkerResponse {
    match crate::content_rpc::relay(tab_id, &to_js(&rpc)).await {
        Ok(reply) => match from_js::<serde_json::Value>(reply) {
            Ok(response) => WorkerResponse::Content { response },
            Err(e) => WorkerResponse::Error { message: e },
        },
        Err(message) => WorkerResponse::Error { message },
    }
}
