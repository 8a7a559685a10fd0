//! Kept conversations and runs in chrome.storage.local (core::history): one key per item plus the
//! index. Writes go one at a time, so a chat and a run ending together never lose each other.

use dusk_chrome::message::{error_text, from_js, to_js};
use dusk_chrome::storage;
use dusk_core::history::{item_key, HistoryList, Index, Item, INDEX_KEY, LIMITS};
use dusk_core::protocol::WorkerResponse;
use std::cell::Cell;

thread_local! {
    static BUSY: Cell<bool> = const { Cell::new(false) };
}

/// Held while the index is read, changed and written (here, and by a backup's import).
pub(crate) struct Turn;

impl Turn {
    pub(crate) async fn take() -> Turn {
        while BUSY.with(|b| b.replace(true)) {
            crate::fetch::sleep(10).await;
        }
        Turn
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        BUSY.with(|b| b.set(false));
    }
}

async fn index() -> Index {
    storage::local_get(INDEX_KEY).await.ok().and_then(|v| from_js(v).ok()).unwrap_or_default()
}

/// Keeps `item` (a new one, or a continued chat), dropping the oldest past the bound.
pub async fn save(item: &Item) {
    let _turn = Turn::take().await;
    let mut index = index().await;
    let removed = index.put(item.summary.clone(), &LIMITS);
    // The item and the index in one write: fewer storage calls for a next question to queue behind.
    let both = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&both, &item_key(&item.summary.id).into(), &to_js(item));
    let _ = js_sys::Reflect::set(&both, &INDEX_KEY.into(), &to_js(&index));
    if storage::local_set_many(&both).await.is_err() {
        return;
    }
    if !removed.is_empty() {
        let keys: Vec<String> = removed.iter().map(|id| item_key(id)).collect();
        let _ = storage::local_remove_many(&keys.iter().map(String::as_str).collect::<Vec<_>>()).await;
    }
}

pub async fn get(id: &str) -> Option<Item> {
    from_js(storage::local_get(&item_key(id)).await.ok()?).ok()
}

pub async fn list() -> WorkerResponse {
    WorkerResponse::History(HistoryList::of(&index().await))
}

pub async fn item(id: &str) -> WorkerResponse {
    match get(id).await {
        Some(item) => WorkerResponse::HistoryItem { item },
        None => WorkerResponse::Error { message: "this conversation or run is no longer kept".into() },
    }
}

pub async fn delete(id: &str) -> WorkerResponse {
    let _turn = Turn::take().await;
    let mut index = index().await;
    index.remove(id);
    let written = storage::local_set(INDEX_KEY, &to_js(&index)).await;
    let removed = storage::local_remove_many(&[&item_key(id)]).await;
    match written.and(removed) {
        Ok(()) => WorkerResponse::History(HistoryList::of(&index)),
        Err(e) => WorkerResponse::Error { message: error_text(&e) },
    }
}

pub async fn clear() -> WorkerResponse {
    let _turn = Turn::take().await;
    let mut keys: Vec<String> = index().await.items.iter().map(|s| item_key(&s.id)).collect();
    keys.push(INDEX_KEY.to_string());
    match storage::local_remove_many(&keys.iter().map(String::as_str).collect::<Vec<_>>()).await {
        Ok(()) => WorkerResponse::History(HistoryList::of(&Index::default())),
        Err(e) => WorkerResponse::Error { message: error_text(&e) },
    }
}
