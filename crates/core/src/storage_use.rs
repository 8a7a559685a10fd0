//! What Dusk keeps in `chrome.storage.local`, by kind, for options → Data. Sizes are counted the
//! way Chrome counts them: each key's length plus its value's JSON length.

use crate::protocol::UsageTotals;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StoredKind {
    Settings,
    DarkSites,
    DarkThemes,
    Customisations,
    Usage,
    History,
    Other,
}

impl StoredKind {
    pub const ALL: [StoredKind; 7] = [
        StoredKind::Settings,
        StoredKind::DarkSites,
        StoredKind::DarkThemes,
        StoredKind::Customisations,
        StoredKind::Usage,
        StoredKind::History,
        StoredKind::Other,
    ];

    pub fn of(key: &str) -> StoredKind {
        match key {
            "settings" | "agent_settings" | "dark_mode" | "dark_agent" => StoredKind::Settings,
            "dark_sites" | "dark_auto" => StoredKind::DarkSites,
            k if k == UsageTotals::STORAGE_KEY => StoredKind::Usage,
            k if k.starts_with("dark_theme:") || k.starts_with("dark_history:") => StoredKind::DarkThemes,
            k if k.starts_with("custom:") || k.starts_with("custom_css:") => StoredKind::Customisations,
            k if k == crate::history::INDEX_KEY || k.starts_with("history:") => StoredKind::History,
            _ => StoredKind::Other,
        }
    }

    /// The `_locales` message that names the kind.
    pub fn label_key(self) -> &'static str {
        match self {
            StoredKind::Settings => "storageSettings",
            StoredKind::DarkSites => "storageDarkSites",
            StoredKind::DarkThemes => "storageDarkThemes",
            StoredKind::Customisations => "storageCustom",
            StoredKind::Usage => "storageUsage",
            StoredKind::History => "storageHistory",
            StoredKind::Other => "storageOther",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KindUse {
    pub kind: StoredKind,
    pub bytes: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StorageUse {
    /// What Chrome reports for the whole area.
    pub total_bytes: u64,
    pub kinds: Vec<KindUse>,
    /// The extension holds `unlimitedStorage`, so the 10 MB quota does not apply.
    pub unlimited: bool,
}

/// Bytes per kind of everything in `stored`.
pub fn measure(stored: &Map<String, Value>, total_bytes: u64, unlimited: bool) -> StorageUse {
    let mut kinds: Vec<KindUse> = StoredKind::ALL.iter().map(|&kind| KindUse { kind, bytes: 0 }).collect();
    for (key, value) in stored {
        let bytes = (key.len() + value.to_string().len()) as u64;
        if let Some(k) = kinds.iter_mut().find(|k| k.kind == StoredKind::of(key)) {
            k.bytes += bytes;
        }
    }
    StorageUse { total_bytes, kinds, unlimited }
}

/// `812 B`, `12.3 KB`, `9.8 MB`.
pub fn format_bytes(n: u64) -> String {
    match n {
        0..1024 => format!("{n} B"),
        1024..1_048_576 => format!("{:.1} KB", n as f64 / 1024.0),
        _ => format!("{:.1} MB", n as f64 / 1_048_576.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keys_are_counted_by_kind_as_chrome_counts_them() {
        let stored = json!({
            "settings": {"provider": "openai"},
            "dark_sites": {"a.example": "on"},
            "dark_theme:a.example": "body{}",
            "dark_history:a.example": [],
            "custom:a.example": {},
            "usage_totals": {},
            "history_index": {},
            "history:chat-1": 1,
            "zz": "x",
        });
        let used = measure(stored.as_object().unwrap(), 123, true);
        let of = |k: StoredKind| used.kinds.iter().find(|u| u.kind == k).unwrap().bytes;
        assert_eq!(of(StoredKind::Settings), ("settings".len() + r#"{"provider":"openai"}"#.len()) as u64);
        assert_eq!(of(StoredKind::DarkThemes), ("dark_theme:a.example".len() + 8 + "dark_history:a.example".len() + 2) as u64);
        assert_eq!(of(StoredKind::Other), 2 + 3);
        assert_eq!(of(StoredKind::History), ("history_index".len() + 2 + "history:chat-1".len() + 1) as u64);
        assert_eq!(used.kinds.len(), 7);
        assert_eq!((format_bytes(812), format_bytes(12_595), format_bytes(10_276_044)), ("812 B".into(), "12.3 KB".into(), "9.8 MB".into()));
    }
}
