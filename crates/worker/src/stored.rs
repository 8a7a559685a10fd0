//! Reads from chrome.storage.local shared by the routes and the agents: any key as JSON, and the
//! dark-mode memory.

use dusk_chrome::storage;
use dusk_core::dark::adjust::{Adjustments, GLOBAL_KEY as ADJUST_KEY, SITES_KEY as ADJUST_SITES_KEY};
use dusk_core::dark::site::{Memory, AUTO_KEY, SITES_KEY};

pub(crate) async fn read(key: &str) -> Option<serde_json::Value> {
    let v = storage::local_get(key).await.ok()?;
    serde_wasm_bindgen::from_value::<serde_json::Value>(v).ok()
}

pub(crate) async fn load_memory() -> Memory {
    let mut memory = Memory::from_stored(read(SITES_KEY).await, read(AUTO_KEY).await);
    memory.adjust = Adjustments::from_stored(read(ADJUST_KEY).await, read(ADJUST_SITES_KEY).await);
    memory
}
