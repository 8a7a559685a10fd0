//! Export and import of what Dusk keeps in chrome.storage.local: settings, per-site dark-mode
//! choices and themes, agent settings. API keys are never exported; an import keeps the keys
//! already stored.

use crate::settings::{Settings, STORAGE_KEY as SETTINGS_KEY};
use serde_json::{json, Map, Value};

pub const FORMAT: &str = "dusk-backup";

/// Keys a backup may carry: exact names, and per-site prefixes.
const KEYS: &[&str] = &[SETTINGS_KEY, "dark_sites", "dark_auto", "dark_mode", "dark_agent", "agent_settings"];
const PREFIXES: &[&str] = &["dark_theme:", "dark_history:"];

fn kept(key: &str) -> bool {
    KEYS.contains(&key) || PREFIXES.iter().any(|p| key.starts_with(p))
}

/// The backup file's JSON, from everything in chrome.storage.local.
pub fn export(stored: &Map<String, Value>) -> Value {
    let mut data: Map<String, Value> = stored.iter().filter(|(k, _)| kept(k)).map(|(k, v)| (k.clone(), v.clone())).collect();
    if let Some(settings) = data.get(SETTINGS_KEY).cloned() {
        let mut s = Settings::from_stored(Some(settings));
        s.providers.iter_mut().for_each(|p| p.api_key.clear());
        data.insert(SETTINGS_KEY.into(), serde_json::to_value(s).unwrap_or(Value::Null));
    }
    json!({ "format": FORMAT, "version": crate::VERSION, "data": data })
}

/// What to write for `backup`: its known keys, with each provider's stored API key kept.
pub fn import(stored: &Map<String, Value>, backup: &Value) -> Result<Map<String, Value>, String> {
    if backup.get("format").and_then(Value::as_str) != Some(FORMAT) {
        return Err("this file is not a Dusk backup".into());
    }
    let data = backup.get("data").and_then(Value::as_object).ok_or("the backup has no data")?;
    let mut out: Map<String, Value> = data.iter().filter(|(k, _)| kept(k)).map(|(k, v)| (k.clone(), v.clone())).collect();
    if let Some(incoming) = out.get(SETTINGS_KEY).cloned() {
        let mut s: Settings = serde_json::from_value(incoming).map_err(|e| format!("the backup's settings are malformed: {e}"))?;
        let current = Settings::from_stored(stored.get(SETTINGS_KEY).cloned());
        for p in &mut s.providers {
            p.api_key = current.providers.iter().find(|c| c.kind == p.kind).map(|c| c.api_key.clone()).unwrap_or_default();
        }
        out.insert(SETTINGS_KEY.into(), serde_json::to_value(s).map_err(|e| e.to_string())?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stored() -> Map<String, Value> {
        let settings = json!({"active": 0, "providers": [{"kind": "openai", "api_key": "sk-secret", "model": "gpt-4.1-mini"}]});
        let v = json!({"settings": settings, "dark_sites": {"a.example": true}, "dark_theme:a.example": "body{}", "usage": {"requests": 3}});
        v.as_object().unwrap().clone()
    }

    #[test]
    fn export_drops_keys_and_unknown_data_and_import_keeps_stored_keys() {
        let backup = export(&stored());
        let text = backup.to_string();
        assert!(!text.contains("sk-secret"), "{text}");
        assert!(!text.contains("usage"), "only settings and per-site data");
        assert_eq!(backup["data"]["dark_sites"]["a.example"], true);
        let written = import(&stored(), &backup).unwrap();
        let s = Settings::from_stored(written.get("settings").cloned());
        assert_eq!(s.providers[0].api_key, "sk-secret", "the stored key stays");
        assert_eq!(written["dark_theme:a.example"], "body{}");
        let elsewhere = import(&Map::new(), &backup).unwrap();
        assert_eq!(Settings::from_stored(elsewhere.get("settings").cloned()).providers[0].api_key, "", "no key comes from a backup");
        assert!(import(&Map::new(), &json!({"format": "other"})).is_err());
        let mut junk = backup.clone();
        junk["data"]["chat_session"] = json!("x");
        assert!(!import(&Map::new(), &junk).unwrap().contains_key("chat_session"));
    }
}
