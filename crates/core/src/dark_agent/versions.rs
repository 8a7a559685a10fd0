//! A site's refined themes: a history of versions, one of them active (or none: Instant alone).
//! The active CSS has its own small storage key, which is all a page reads at document_start.

use crate::dark::site::Mode;
use serde::{Deserialize, Serialize};

/// Versions kept per site; older ones are dropped.
pub const MAX_VERSIONS: usize = 10;

/// chrome.storage.local: the active refinement's CSS for `host`, read by the content script.
pub fn theme_key(host: &str) -> String {
    format!("dark_theme:{host}")
}

/// chrome.storage.local: the host's `SiteThemes`.
pub fn history_key(host: &str) -> String {
    format!("dark_history:{host}")
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ThemeVersion {
    pub css: String,
    pub mode: Mode,
    pub model: String,
    pub turns: u32,
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub cost_usd: f64,
    /// AA share under Instant and under this version, as the guard measured them.
    pub aa_instant: f64,
    pub aa: f64,
    /// Epoch ms.
    pub created_ms: f64,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SiteThemes {
    pub versions: Vec<ThemeVersion>,
    /// Index into `versions`; None means Instant alone.
    pub active: Option<usize>,
}

impl SiteThemes {
    pub fn push(&mut self, version: ThemeVersion) {
        self.versions.push(version);
        if self.versions.len() > MAX_VERSIONS {
            self.versions.remove(0);
        }
        self.active = Some(self.versions.len() - 1);
    }

    /// The version before the active one; from the first, back to Instant. False if nothing changed.
    pub fn revert(&mut self) -> bool {
        match self.active {
            Some(0) => self.active = None,
            Some(i) => self.active = Some(i - 1),
            None => return false,
        }
        true
    }

    pub fn back_to_instant(&mut self) {
        self.active = None;
    }

    pub fn active_version(&self) -> Option<&ThemeVersion> {
        self.versions.get(self.active?)
    }

    pub fn active_css(&self) -> Option<&str> {
        self.active_version().map(|v| v.css.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(css: &str) -> ThemeVersion {
        ThemeVersion {
            css: css.into(),
            mode: Mode::Quick,
            model: "m".into(),
            turns: 1,
            input_tokens: 1,
            output_tokens: 1,
            cost_usd: 0.0,
            aa_instant: 1.0,
            aa: 1.0,
            created_ms: 0.0,
        }
    }

    #[test]
    fn history_keeps_ten_and_reverts_back_to_instant() {
        let mut t = SiteThemes::default();
        for i in 0..12 {
            t.push(v(&format!("a{i}")));
        }
        assert_eq!(t.versions.len(), MAX_VERSIONS);
        assert_eq!(t.active_css(), Some("a11"));
        assert!(t.revert());
        assert_eq!(t.active_css(), Some("a10"));
        t.active = Some(0);
        assert!(t.revert());
        assert_eq!(t.active_css(), None);
        assert!(!t.revert());
        t.push(v("new"));
        t.back_to_instant();
        assert_eq!(t.active_version(), None);
        let back: SiteThemes = crate::protocol::from_value(serde_json::to_value(&t).unwrap()).unwrap();
        assert_eq!(back, t);
    }
}
