//! Per-site memory: which sites are dark, what the worker registers, and where extensions can't run.

use super::adjust::{Adjust, Adjustments};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// chrome.storage.local key: hostname → true (dark) / false (explicitly light).
pub const SITES_KEY: &str = "dark_sites";
/// chrome.storage.local key: dark on every site without an explicit choice.
pub const AUTO_KEY: &str = "dark_auto";
/// chrome.storage.local key: the engine the user picked.
pub const MODE_KEY: &str = "dark_mode";

/// How dark mode is computed. Quick and Thorough refine Instant with an LLM provider.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    #[default]
    Instant,
    Quick,
    Thorough,
}

impl Mode {
    /// The engine actually used: without a provider, Quick and Thorough fall back to Instant.
    pub fn effective(self, provider_configured: bool) -> Mode {
        if provider_configured {
            self
        } else {
            Mode::Instant
        }
    }
}

/// The user's dark-mode choices as stored.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Memory {
    pub sites: BTreeMap<String, bool>,
    pub auto: bool,
    /// Brightness, contrast, sepia and grayscale: the global ones and each site's own.
    #[serde(default)]
    pub adjust: Adjustments,
}

impl Memory {
    /// Reads the stored values; anything malformed counts as unset.
    pub fn from_stored(sites: Option<serde_json::Value>, auto: Option<serde_json::Value>) -> Memory {
        Memory {
            sites: sites.and_then(|v| serde_json::from_value(v).ok()).unwrap_or_default(),
            auto: auto.and_then(|v| v.as_bool()).unwrap_or(false),
            adjust: Adjustments::default(),
        }
    }

    /// The adjustment `host`'s theme is built with: the site's own beats the global one.
    pub fn adjust_for(&self, host: &str) -> Adjust {
        self.adjust.for_host(host)
    }

    /// An explicit choice for the site wins; otherwise the auto switch decides.
    pub fn is_on(&self, host: &str) -> bool {
        self.sites.get(&host.to_ascii_lowercase()).copied().unwrap_or(self.auto)
    }

    /// Records a choice; a choice equal to the auto default is still kept, so it survives auto changes.
    pub fn set(&mut self, host: &str, on: bool) {
        self.sites.insert(host.to_ascii_lowercase(), on);
    }

    /// The dynamic content script (the pre-paint fallback CSS) the worker should register.
    pub fn registration(&self) -> Option<Registration> {
        let pattern = |h: &String| match_pattern(h);
        if self.auto {
            let exclude: Vec<String> = self.sites.iter().filter(|(_, on)| !**on).map(|(h, _)| pattern(h)).collect();
            Some(Registration { matches: vec!["<all_urls>".into()], exclude_matches: exclude })
        } else {
            let matches: Vec<String> = self.sites.iter().filter(|(_, on)| **on).map(|(h, _)| pattern(h)).collect();
            (!matches.is_empty()).then(|| Registration { matches, exclude_matches: Vec::new() })
        }
    }
}

/// The match pattern (for registered scripts and `tabs.query`) of every page of `host`.
pub fn match_pattern(host: &str) -> String {
    format!("*://{host}/*")
}

/// Match patterns for `chrome.scripting.registerContentScripts`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Registration {
    pub matches: Vec<String>,
    pub exclude_matches: Vec<String>,
}

/// Why a tab's page can't be themed, or None if it can.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Restriction {
    /// Browser pages (chrome://, about:, other extensions' pages, or a URL we may not see).
    BrowserPage,
    /// The Chrome Web Store, where Chrome forbids extensions.
    WebStore,
    /// Local files, unless the user allowed file access.
    LocalFile,
}

/// The host a page's dark-mode memory is kept under, if it is a page extensions can theme.
pub fn host_of(url: &str) -> Result<String, Restriction> {
    let (scheme, rest) = url.split_once("://").ok_or(Restriction::BrowserPage)?;
    let scheme = scheme.to_ascii_lowercase();
    if scheme == "file" {
        return Err(Restriction::LocalFile);
    }
    if scheme != "http" && scheme != "https" {
        return Err(Restriction::BrowserPage);
    }
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host_port = authority.rsplit('@').next().unwrap_or("");
    let host = if host_port.starts_with('[') {
        host_port.split(']').next().map(|h| format!("{h}]")).unwrap_or_default()
    } else {
        host_port.split(':').next().unwrap_or("").to_string()
    }
    .to_ascii_lowercase();
    if host.is_empty() {
        return Err(Restriction::BrowserPage);
    }
    let path = &rest[authority.len()..];
    if host == "chromewebstore.google.com" || (host == "chrome.google.com" && path.starts_with("/webstore")) {
        return Err(Restriction::WebStore);
    }
    Ok(host)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn hosts_and_restricted_pages() {
        assert_eq!(host_of("https://Docs.Python.org:8443/3/x?y#z"), Ok("docs.python.org".into()));
        assert_eq!(host_of("http://127.0.0.1:4000/a"), Ok("127.0.0.1".into()));
        assert_eq!(host_of("http://user:pw@[::1]:80/"), Ok("[::1]".into()));
        assert_eq!(host_of("chrome://extensions/"), Err(Restriction::BrowserPage));
        assert_eq!(host_of(""), Err(Restriction::BrowserPage));
        assert_eq!(host_of("chrome-extension://abc/popup.html"), Err(Restriction::BrowserPage));
        assert_eq!(host_of("https://chromewebstore.google.com/detail/x"), Err(Restriction::WebStore));
        assert_eq!(host_of("https://chrome.google.com/webstore/x"), Err(Restriction::WebStore));
        assert_eq!(host_of("file:///tmp/a.html"), Err(Restriction::LocalFile));
    }

    #[test]
    fn explicit_choice_beats_auto() {
        let mut m = Memory::from_stored(Some(json!({"a.com": true, "b.com": false})), Some(json!(true)));
        assert!(m.is_on("a.com") && !m.is_on("B.com") && m.is_on("c.com"));
        m.auto = false;
        assert!(!m.is_on("c.com"));
        m.set("C.com", true);
        assert!(m.is_on("c.com"));
        assert!(!Memory::from_stored(Some(json!("junk")), Some(json!("yes"))).is_on("a.com"));
    }

    #[test]
    fn registration_follows_memory() {
        let mut m = Memory::default();
        assert_eq!(m.registration(), None);
        m.set("a.com", true);
        m.set("b.com", false);
        assert_eq!(m.registration().unwrap().matches, vec!["*://a.com/*"]);
        m.auto = true;
        let r = m.registration().unwrap();
        assert_eq!((r.matches, r.exclude_matches), (vec!["<all_urls>".to_string()], vec!["*://b.com/*".to_string()]));
    }
}
