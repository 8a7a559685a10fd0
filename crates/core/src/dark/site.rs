//! Per-site memory: which sites are dark, what the worker registers, and where extensions can't run.

use super::adjust::{fallback_files, Adjust, Adjustments};
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
            sites: sites.and_then(|v| crate::protocol::from_value(v).ok()).unwrap_or_default(),
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

    /// The dynamic content scripts (the dark layer and its pre-paint fallback CSS) the worker
    /// should register: one for the sites on the global adjustment, one per other adjustment
    /// (its fallback files differ), never two for one page.
    pub fn registrations(&self) -> Vec<Registration> {
        let pattern = |h: &String| match_pattern(h);
        let global = fallback_files(self.adjust.global);
        let mut own: BTreeMap<Vec<String>, Vec<String>> = BTreeMap::new();
        for (host, adjust) in &self.adjust.sites {
            let files = fallback_files(*adjust);
            if files != global && self.is_on(host) {
                own.entry(files).or_default().push(pattern(host));
            }
        }
        let owned: Vec<&String> = own.values().flatten().collect();
        let mut out = Vec::new();
        if self.auto {
            let mut exclude: Vec<String> = self.sites.iter().filter(|(_, on)| !**on).map(|(h, _)| pattern(h)).collect();
            exclude.extend(owned.iter().map(|p| p.to_string()));
            out.push(Registration { id: String::new(), matches: vec!["<all_urls>".into()], exclude_matches: exclude, css: global });
        } else {
            let matches: Vec<String> = self.sites.iter().filter(|(h, on)| **on && !owned.contains(&&pattern(h))).map(|(h, _)| pattern(h)).collect();
            if !matches.is_empty() {
                out.push(Registration { id: String::new(), matches, exclude_matches: Vec::new(), css: global });
            }
        }
        out.extend(own.into_iter().map(|(css, matches)| Registration { id: String::new(), matches, exclude_matches: Vec::new(), css }));
        for (i, reg) in out.iter_mut().enumerate() {
            reg.id = if i == 0 { REGISTRATION_ID.to_string() } else { format!("{REGISTRATION_ID}-{i}") };
        }
        out
    }
}

/// The id of the dark layer's first registered content script; the others extend it.
pub const REGISTRATION_ID: &str = "dusk-dark-fallback";

/// Whether a registered content script is one of the dark layer's (not a customisation's).
pub fn is_dark_registration(id: &str) -> bool {
    id == REGISTRATION_ID || id.strip_prefix(REGISTRATION_ID).and_then(|rest| rest.strip_prefix('-')).is_some_and(|n| n.parse::<u32>().is_ok())
}

/// The match pattern (for registered scripts and `tabs.query`) of every page of `host`.
pub fn match_pattern(host: &str) -> String {
    format!("*://{host}/*")
}

/// Match patterns for `chrome.scripting.registerContentScripts`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Registration {
    /// `REGISTRATION_ID`, then `-1`, `-2`… for the sites with their own adjustment.
    pub id: String,
    pub matches: Vec<String>,
    pub exclude_matches: Vec<String>,
    /// The fallback CSS files, in order.
    pub css: Vec<String>,
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
        assert_eq!(m.registrations(), vec![]);
        m.set("a.com", true);
        m.set("b.com", false);
        assert_eq!(m.registrations()[0].matches, vec!["*://a.com/*"]);
        assert_eq!(m.registrations()[0].css, vec!["dark-fallback.css"]);
        m.auto = true;
        let r = m.registrations().remove(0);
        assert_eq!((r.matches, r.exclude_matches), (vec!["<all_urls>".to_string()], vec!["*://b.com/*".to_string()]));
    }

    #[test]
    fn a_site_with_its_own_adjustment_gets_its_own_fallback_and_one_registration() {
        let mut m = Memory::default();
        m.set("a.com", true);
        m.set("b.com", true);
        m.adjust.global.sepia = 20;
        m.adjust.set_site("b.com", Some(Adjust { brightness: 120, ..Default::default() }));
        m.adjust.set_site("c.com", Some(Adjust { brightness: 120, ..Default::default() }));
        let r = m.registrations();
        assert_eq!(r.len(), 2, "{r:?}");
        assert_eq!((r[0].id.as_str(), r[1].id.as_str()), (REGISTRATION_ID, "dusk-dark-fallback-1"));
        assert!(r.iter().all(|reg| is_dark_registration(&reg.id)));
        assert!(!is_dark_registration("dusk-custom-a.com") && !is_dark_registration("dusk-dark-fallbackx"));
        assert_eq!(
            (r[0].matches.clone(), r[0].css.clone()),
            (vec!["*://a.com/*".to_string()], vec!["dark-fallback.css".to_string(), "fallback/sepia-20.css".into()])
        );
        assert_eq!(
            (r[1].matches.clone(), r[1].css.clone()),
            (vec!["*://b.com/*".to_string()], vec!["dark-fallback.css".to_string(), "fallback/brightness-120.css".into()])
        );
        m.auto = true;
        let r = m.registrations();
        assert_eq!(r[0].exclude_matches, vec!["*://b.com/*", "*://c.com/*"], "auto's registration leaves the sites with their own out");
        assert_eq!(r[1].matches, vec!["*://b.com/*", "*://c.com/*"]);
    }
}
