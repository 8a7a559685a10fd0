use dusk_chrome::message::{error_text, from_js, to_js};
use dusk_chrome::tabs;
use dusk_core::protocol::{ContentRequest, WorkerResponse};

/// Relays a DOM RPC; a tab without our content script (chrome://, the Web Store) is a clear error.
pub async fn relay(tab_id: i32, rpc: ContentRequest) -> WorkerResponse {
    match tabs::send_message(tab_id, &to_js(&rpc)).await {
        Ok(reply) => match from_js::<serde_json::Value>(reply) {
            Ok(response) => WorkerResponse::Content { response },
            Err(e) => WorkerResponse::Error { message: e },
        },
        Err(e) => WorkerResponse::Error { message: format!("the page did not answer: {}", error_text(&e)) },
    }
}
