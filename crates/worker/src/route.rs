use dusk_chrome::message::{error_text, from_js, to_js};
use dusk_chrome::{storage, tabs};
use dusk_core::protocol::{WorkerRequest, WorkerResponse};
use dusk_core::settings::{Settings, STORAGE_KEY};

pub async fn handle(request: WorkerRequest) -> WorkerResponse {
    match request {
        WorkerRequest::Ping => WorkerResponse::Pong {
            version: dusk_core::VERSION.to_string(),
            init_ms: crate::init_ms(),
        },
        WorkerRequest::GetStatus => WorkerResponse::Status(load_settings().await.status(dusk_core::VERSION)),
        WorkerRequest::TabRpc { tab_id, rpc } => match tabs::send_message(tab_id, &to_js(&rpc)).await {
            Ok(reply) => match from_js::<serde_json::Value>(reply) {
                Ok(response) => WorkerResponse::Content { response },
                Err(e) => WorkerResponse::Error { message: e },
            },
            Err(e) => WorkerResponse::Error { message: format!("the page did not answer: {}", error_text(&e)) },
        },
    }
}

async fn load_settings() -> Settings {
    let stored = storage::local_get(STORAGE_KEY).await.ok();
    Settings::from_stored(stored.and_then(|v| serde_wasm_bindgen::from_value(v).ok()))
}
