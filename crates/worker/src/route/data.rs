//! Export, import and clear of what Dusk stores (options → Data); the rules are core::backup's.

use dusk_chrome::message::{error_text, from_js, to_js};
use dusk_chrome::storage;
use dusk_core::backup;
use dusk_core::protocol::WorkerResponse;
use serde_json::{Map, Value};

async fn stored() -> Map<String, Value> {
    storage::local_all().await.ok().and_then(|v| from_js::<Map<String, Value>>(v).ok()).unwrap_or_default()
}

pub async fn export() -> WorkerResponse {
    WorkerResponse::DataExport { data: backup::export(&stored().await) }
}

pub async fn import(data: Value) -> WorkerResponse {
    // History's index is merged: no kept chat or run may be written meanwhile.
    let _turn = crate::history::Turn::take().await;
    let items = match backup::import(&stored().await, &data) {
        Ok(items) => items,
        Err(message) => return WorkerResponse::Error { message },
    };
    if let Err(e) = storage::local_set_many(&to_js(&items)).await {
        return WorkerResponse::Error { message: error_text(&e) };
    }
    // The imported dark sites need their pre-paint registration.
    crate::dark::sync_registration(&crate::stored::load_memory().await).await;
    crate::customize::sync().await;
    crate::toolbar::refresh_all();
    WorkerResponse::Saved
}

/// What is stored, by kind (core's storage_use).
pub async fn storage_use() -> WorkerResponse {
    let total = match storage::local_bytes_in_use().await {
        Ok(n) => n as u64,
        Err(e) => return WorkerResponse::Error { message: error_text(&e) },
    };
    WorkerResponse::StorageUse(dusk_core::storage_use::measure(&stored().await, total, dusk_chrome::runtime::has_permission("unlimitedStorage")))
}

pub async fn clear() -> WorkerResponse {
    if let Err(e) = storage::clear_all().await {
        return WorkerResponse::Error { message: error_text(&e) };
    }
    crate::checkpoints::forget_all();
    crate::dark::sync_registration(&crate::stored::load_memory().await).await;
    crate::customize::sync().await;
    crate::toolbar::refresh_all();
    WorkerResponse::Saved
}
