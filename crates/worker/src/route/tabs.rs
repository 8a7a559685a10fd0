use dusk_chrome::message::{from_js, to_js};
use dusk_core::protocol::{ContentRequest, WorkerResponse};

/// Relays a DOM RPC; a tab without our content script (chrome://, the Web Store) is a clear error.
pub async fn relay(tab_id: i32, rpc: ContentRequest) -> WorkerResponse {
    // A reply the worker makes goes out as it is made: through a JS object and back into JSON, a
    // 12,000-token text_snapshot cost more than its making.
    if rpc.made_by_worker() {
        return match crate::content_rpc::rpc(tab_id, &rpc).await.map(|r| serde_json::to_value(&r)) {
            Ok(Ok(response)) => WorkerResponse::Content { response },
            Ok(Err(e)) => WorkerResponse::Error { message: e.to_string() },
            Err(message) => WorkerResponse::Error { message },
        };
    }
    match crate::content_rpc::relay(tab_id, &to_js(&rpc)).await {
        Ok(reply) => match from_js::<serde_json::Value>(reply) {
            Ok(response) => WorkerResponse::Content { response },
            Err(e) => WorkerResponse::Error { message: e },
        },
        Err(message) => WorkerResponse::Error { message },
    }
}
