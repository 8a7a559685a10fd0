//! Reads from chrome.storage.local shared by the routes and the agents: any key as JSON, the
//! dark-mode memory, and the settings.

use dusk_chrome::storage;
use dusk_core::dark::adjust::{Adjustments, GLOBAL_KEY as ADJUST_KEY, SITES_KEY as ADJUST_SITES_KEY};
use dusk_core::dark::site::{Memory, AUTO_KEY, SITES_KEY};

pub(crate) async fn read(key: &str) -> Option<serde_json::Value> {
    let v = storage::local_get(key).await.ok()?;
    serde_wasm_bindgen::from_value::<serde_json::Value>(v).ok()
}

/// The dark-mode memory, its four keys in one storage call.
pub(crate) async fn load_memory() -> Memory {
    let stored = storage::local_get_many(&[SITES_KEY, AUTO_KEY, ADJUST_KEY, ADJUST_SITES_KEY]).await.unwrap_or_default();
    let field = |key: &str| {
        let v = storage::field(&stored, key)?;
        serde_wasm_bindgen::from_value::<serde_json::Value>(v).ok()
    };
    let mut memory = Memory::from_stored(field(SITES_KEY), field(AUTO_KEY));
    memory.adjust = Adjustments::from_stored(field(ADJUST_KEY), field(ADJUST_SITES_KEY));
    memory
}

/// The settings as stored (the providers' keys included).
pub(crate) async fn settings() -> dusk_core::settings::Settings {
    dusk_core::settings::Settings::from_stored(read(dusk_core::settings::STORAGE_KEY).await)
}
