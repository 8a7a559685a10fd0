//! A site's customisation: the CSS and JS in effect, whether it is on, and its history.
//! The CSS in effect has its own small key, which is all a page reads at document_start.

use crate::dark_agent::sanitize::sanitize;
use serde::{Deserialize, Serialize};

/// Versions kept per site, newest last; older ones are dropped.
pub const MAX_VERSIONS: usize = 12;
/// The most JS a site may have.
pub const MAX_JS_BYTES: usize = 100 * 1024;

/// chrome.storage.local: the CSS in effect for `host` ("" when off), read by custom.js.
pub fn css_key(host: &str) -> String {
    format!("custom_css:{host}")
}

/// chrome.storage.local: the host's `SiteCustom`.
pub fn record_key(host: &str) -> String {
    format!("custom:{host}")
}

/// The host of a `record_key`, if `key` is one.
pub fn host_of_key(key: &str) -> Option<&str> {
    key.strip_prefix("custom:").filter(|h| !h.is_empty())
}

/// One saved state of a site's CSS and JS.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Version {
    pub css: String,
    pub js: String,
    /// Epoch ms.
    pub saved_ms: f64,
    /// What changed, e.g. "hide the cookie banner" or "edited in options".
    pub note: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SiteCustom {
    pub host: String,
    pub enabled: bool,
    /// Every saved state, oldest first; the last is the one in effect.
    pub versions: Vec<Version>,
}

impl SiteCustom {
    pub fn new(host: &str) -> Self {
        SiteCustom { host: host.to_ascii_lowercase(), enabled: true, versions: Vec::new() }
    }

    /// Whatever is stored; unreadable means none yet.
    pub fn from_stored(host: &str, value: Option<serde_json::Value>) -> Self {
        value
            .and_then(|v| crate::protocol::from_value::<SiteCustom>(v).ok())
            .filter(|r| r.host == host.to_ascii_lowercase())
            .unwrap_or_else(|| SiteCustom::new(host))
    }

    pub fn current(&self) -> Version {
        self.versions.last().cloned().unwrap_or_default()
    }

    pub fn css(&self) -> String {
        self.current().css
    }

    pub fn js(&self) -> String {
        self.current().js
    }

    /// What pages get now: the current CSS when on, nothing when off.
    pub fn active_css(&self) -> String {
        if self.enabled {
            self.css()
        } else {
            String::new()
        }
    }

    pub fn active_js(&self) -> String {
        if self.enabled {
            self.js()
        } else {
            String::new()
        }
    }

    pub fn is_empty(&self) -> bool {
        self.css().trim().is_empty() && self.js().trim().is_empty()
    }

    /// Saves a new version (CSS sanitised as dark mode's is); returns what the sanitiser removed.
    pub fn save(&mut self, css: &str, js: &str, note: &str, now_ms: f64) -> Result<Vec<String>, String> {
        let clean = sanitize(css)?;
        if js.len() > MAX_JS_BYTES {
            return Err(format!("the JS is {} KB; at most {} KB are accepted", js.len() / 1024, MAX_JS_BYTES / 1024));
        }
        let next = Version { css: clean.css.trim().to_string(), js: js.trim().to_string(), saved_ms: now_ms, note: note.trim().to_string() };
        let current = self.current();
        if self.versions.is_empty() || next.css != current.css || next.js != current.js {
            self.versions.push(next);
            let over = self.versions.len().saturating_sub(MAX_VERSIONS);
            self.versions.drain(..over);
        }
        self.enabled = true;
        Ok(clean.removed)
    }

    /// Makes version `index` (0 = oldest) the current one again, as a new version.
    pub fn revert(&mut self, index: usize, now_ms: f64) -> Result<(), String> {
        let Some(v) = self.versions.get(index).cloned() else {
            return Err(format!("there is no version {}; this site has {}", index + 1, self.versions.len()));
        };
        let note = format!("reverted to the version of {}", if v.note.is_empty() { format!("#{}", index + 1) } else { v.note.clone() });
        self.save(&v.css, &v.js, &note, now_ms).map(|_| ())
    }
}

/// Match patterns for the registered custom.js and user scripts: each host's pages.
pub fn patterns(records: &[SiteCustom]) -> Vec<String> {
    records.iter().filter(|r| r.enabled && !r.is_empty()).map(|r| crate::dark::site::match_pattern(&r.host)).collect()
}

/// Every record in a `chrome.storage.local.get(null)` answer, by host.
pub fn all_records(everything: &serde_json::Value) -> Vec<SiteCustom> {
    let Some(map) = everything.as_object() else { return Vec::new() };
    map.iter().filter_map(|(k, v)| Some(SiteCustom::from_stored(host_of_key(k)?, Some(v.clone())))).filter(|r| !r.versions.is_empty()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saving_keeps_a_bounded_history_and_sanitises() {
        let mut r = SiteCustom::new("News.Example");
        assert_eq!(r.host, "news.example");
        let removed = r.save("@import url(https://evil.example/x.css);\n.cookie{display:none}", "", "hide the banner", 1.0).unwrap();
        assert_eq!(removed.len(), 1, "{removed:?}");
        assert_eq!(r.css(), ".cookie{display:none}");
        r.save(".cookie{display:none}", "", "same again", 2.0).unwrap();
        assert_eq!(r.versions.len(), 1, "an unchanged save adds no version");
        for i in 0..20 {
            r.save(&format!("p{{margin:{i}px}}"), "", "", 3.0 + f64::from(i)).unwrap();
        }
        assert_eq!(r.versions.len(), MAX_VERSIONS);
        const { assert!(MAX_VERSIONS >= 8) };
        assert_eq!(r.css(), "p{margin:19px}");
    }

    #[test]
    fn revert_disable_and_storage() {
        let mut r = SiteCustom::new("a.example");
        r.save(".a{color:red}", "", "one", 1.0).unwrap();
        r.save(".b{color:blue}", "console.log(1)", "two", 2.0).unwrap();
        r.revert(0, 3.0).unwrap();
        assert_eq!((r.css().as_str(), r.js().as_str(), r.versions.len()), (".a{color:red}", "", 3));
        assert!(r.revert(9, 4.0).is_err());
        r.enabled = false;
        assert_eq!(r.active_css(), "");
        assert!(patterns(&[r.clone()]).is_empty());
        r.enabled = true;
        assert_eq!(patterns(&[r.clone()]), vec!["*://a.example/*"]);
        let all = serde_json::json!({ "custom:a.example": serde_json::to_value(&r).unwrap(), "custom_css:a.example": ".a{}", "other": 1 });
        assert_eq!(all_records(&all), vec![r.clone()]);
        assert_eq!(SiteCustom::from_stored("b.example", Some(serde_json::to_value(&r).unwrap())).versions.len(), 0, "a record under the wrong key is ignored");
    }
}
