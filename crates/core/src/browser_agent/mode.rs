//! How the agent sees the page (dom, vision, hybrid) and the user's agent settings.

use super::safety::SitePolicy;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// The storage key (chrome.storage.local) of `AgentSettings`.
pub const STORAGE_KEY: &str = "agent_settings";
pub const DEFAULT_TURNS: u32 = 20;
pub const MAX_TURNS: u32 = 50;

/// What a run on the browser session does: act on pages or customise a site.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunKind {
    #[default]
    Act,
    Customize,
}

/// What the user picked in options; `Auto` follows the provider's capabilities.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ModeChoice {
    #[default]
    Auto,
    Dom,
    Vision,
    Hybrid,
}

/// How a run sees pages: element lists, labelled screenshots, or both.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AgentMode {
    Dom,
    Vision,
    Hybrid,
}

impl ModeChoice {
    /// A model without vision always gets `Dom`: it could not read the pictures.
    pub fn resolve(self, vision: bool) -> AgentMode {
        match (self, vision) {
            (_, false) | (ModeChoice::Dom, _) => AgentMode::Dom,
            (ModeChoice::Vision, true) => AgentMode::Vision,
            (ModeChoice::Auto | ModeChoice::Hybrid, true) => AgentMode::Hybrid,
        }
    }
}

impl AgentMode {
    /// Screenshots with index labels after each action.
    pub fn screenshots(self) -> bool {
        self != AgentMode::Dom
    }
    /// Element lines in action results.
    pub fn element_text(self) -> bool {
        self != AgentMode::Vision
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AgentSettings {
    pub mode: ModeChoice,
    pub max_turns: u32,
    /// Per-site policy by host (`example.com`, or `127.0.0.1:8080`).
    pub sites: BTreeMap<String, SitePolicy>,
    /// The composer's permission chip: "Ask before acting" makes every site ask before every
    /// action that changes something; off, only sensitive actions ask. Blocked sites stay blocked.
    pub ask_before_acting: bool,
    /// Options' "Find clickable parts with Chrome's debugger": off, Dusk never attaches the
    /// debugger, and listings miss elements whose only sign of being clickable is their own listener.
    pub use_debugger: bool,
}

/// What a run with `use_debugger` off loses, said once in the panel.
pub const NO_DEBUGGER_NOTE: &str =
    "Chrome's debugger is off (Options → Browser agent), so elements that are clickable only through their own script may be missing from what the agent sees.";

impl Default for AgentSettings {
    fn default() -> Self {
        AgentSettings { mode: ModeChoice::Auto, max_turns: DEFAULT_TURNS, sites: BTreeMap::new(), ask_before_acting: false, use_debugger: true }
    }
}

impl AgentSettings {
    /// Whatever is stored; anything unreadable falls back to the defaults, field by field.
    pub fn from_stored(value: Option<Value>) -> AgentSettings {
        let Some(Value::Object(map)) = value else { return AgentSettings::default() };
        let mut s = AgentSettings::default();
        if let Some(m) = map.get("mode").and_then(|v| crate::protocol::from_value(v.clone()).ok()) {
            s.mode = m;
        }
        if let Some(n) = map.get("max_turns").and_then(Value::as_u64) {
            s.max_turns = (n as u32).clamp(1, MAX_TURNS);
        }
        if let Some(Value::Object(sites)) = map.get("sites") {
            for (host, policy) in sites {
                if let Ok(p) = crate::protocol::from_value(policy.clone()) {
                    s.sites.insert(host.to_ascii_lowercase(), p);
                }
            }
        }
        s.ask_before_acting = map.get("ask_before_acting").and_then(Value::as_bool).unwrap_or(false);
        s.use_debugger = map.get("use_debugger").and_then(Value::as_bool).unwrap_or(true);
        s
    }

    /// The policy for a page: the site's own, turned to "always ask" by the permission chip
    /// (a block stays a block).
    pub fn policy_for(&self, url: &str) -> SitePolicy {
        match self.site_policy(url) {
            SitePolicy::Block => SitePolicy::Block,
            _ if self.ask_before_acting => SitePolicy::AlwaysAsk,
            p => p,
        }
    }

    /// The site's policy as set in options: its host with port, then the host, then each parent
    /// domain. The host is the one the browser will load (`a.example\\@b.example` is a.example).
    fn site_policy(&self, url: &str) -> SitePolicy {
        let Some(host) = super::safety::site::host(url) else {
            return SitePolicy::Default;
        };
        let port = super::safety::web_url::parse(url).and_then(|u| u.port);
        if let Some(p) = port.and_then(|port| self.sites.get(&format!("{host}:{port}"))) {
            return *p;
        }
        let mut host = host.as_str();
        loop {
            if let Some(p) = self.sites.get(host) {
                return *p;
            }
            match host.split_once('.') {
                Some((_, parent)) if parent.contains('.') => host = parent,
                _ => return SitePolicy::Default,
            }
        }
    }

    /// The hosts the user always allows, for the browser's own boundary.
    pub fn allowed_hosts(&self) -> Vec<String> {
        if self.ask_before_acting {
            return vec![];
        }
        let host = |k: &String| k.rsplit_once(':').filter(|(_, p)| p.chars().all(|c| c.is_ascii_digit())).map_or(k.clone(), |(h, _)| h.to_string());
        self.sites.iter().filter(|(_, p)| **p == SitePolicy::Allow).map(|(k, _)| host(k)).collect()
    }
}

/// The options page's text form of the per-site list: one `host = ask | allow | block` per line.
pub fn sites_text(sites: &BTreeMap<String, SitePolicy>) -> String {
    let word = |p: &SitePolicy| match p {
        SitePolicy::AlwaysAsk => "ask",
        SitePolicy::Allow => "allow",
        SitePolicy::Block => "block",
        SitePolicy::Default => "default",
    };
    sites.iter().map(|(h, p)| format!("{h} = {}", word(p))).collect::<Vec<_>>().join("\n")
}

/// Parses `sites_text`'s form; lines it can't read come back as errors naming the line.
pub fn parse_sites(text: &str) -> (BTreeMap<String, SitePolicy>, Vec<String>) {
    let mut sites = BTreeMap::new();
    let mut errors = Vec::new();
    for (n, line) in text.lines().enumerate().map(|(i, l)| (i + 1, l.trim())).filter(|(_, l)| !l.is_empty()) {
        let Some((host, policy)) = line.split_once('=') else {
            errors.push(format!("line {n}: write `host = ask`, `allow` or `block`"));
            continue;
        };
        let host = host.trim().trim_start_matches("https://").trim_start_matches("http://").trim_end_matches('/').to_ascii_lowercase();
        let policy = match policy.trim().to_ascii_lowercase().as_str() {
            "ask" | "always ask" | "always_ask" => SitePolicy::AlwaysAsk,
            "allow" => SitePolicy::Allow,
            "block" => SitePolicy::Block,
            "default" => SitePolicy::Default,
            other => {
                errors.push(format!("line {n}: “{other}” is not ask, allow or block"));
                continue;
            }
        };
        if host.is_empty() || host.contains(char::is_whitespace) {
            errors.push(format!("line {n}: no host"));
            continue;
        }
        sites.insert(host, policy);
    }
    (sites, errors)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vision_modes_need_a_model_that_sees() {
        assert_eq!(ModeChoice::Auto.resolve(true), AgentMode::Hybrid);
        assert_eq!(ModeChoice::Auto.resolve(false), AgentMode::Dom);
        assert_eq!(ModeChoice::Vision.resolve(false), AgentMode::Dom);
        assert_eq!(ModeChoice::Vision.resolve(true), AgentMode::Vision);
        assert_eq!(ModeChoice::Dom.resolve(true), AgentMode::Dom);
    }

    #[test]
    fn settings_tolerate_garbage_and_match_hosts() {
        let s = AgentSettings::from_stored(Some(serde_json::json!({
            "mode": "sideways", "max_turns": 500,
            "sites": {"Shop.example": "block", "127.0.0.1:8080": "always_ask", "bad": "nonsense"}
        })));
        assert_eq!((s.mode, s.max_turns), (ModeChoice::Auto, MAX_TURNS));
        assert_eq!(s.policy_for("https://pay.shop.example/checkout"), SitePolicy::Block);
        assert_eq!(s.policy_for("http://127.0.0.1:8080/x"), SitePolicy::AlwaysAsk);
        assert_eq!(s.policy_for("http://127.0.0.1:9090/x"), SitePolicy::Default);
        assert_eq!(s.policy_for("chrome://settings"), SitePolicy::Default);
        assert_eq!(AgentSettings::from_stored(None), AgentSettings::default());
    }

    #[test]
    fn ask_before_acting_makes_every_site_ask_and_keeps_blocks() {
        let stored = serde_json::json!({"sites": {"shop.example": "allow", "bank.example": "block"}, "ask_before_acting": true});
        let s = AgentSettings::from_stored(Some(stored));
        assert_eq!(s.policy_for("https://shop.example/cart"), SitePolicy::AlwaysAsk, "a trusted site asks too");
        assert_eq!(s.policy_for("https://news.example/"), SitePolicy::AlwaysAsk);
        assert_eq!(s.policy_for("https://bank.example/"), SitePolicy::Block, "the chip never unblocks");
        let off = AgentSettings { ask_before_acting: false, ..s };
        assert_eq!(off.policy_for("https://shop.example/cart"), SitePolicy::Allow);
        assert_eq!(off.policy_for("https://news.example/"), SitePolicy::Default);
    }

    #[test]
    fn the_debugger_is_used_unless_the_user_turned_it_off() {
        assert!(AgentSettings::from_stored(None).use_debugger);
        assert!(AgentSettings::from_stored(Some(serde_json::json!({"mode": "dom", "use_debugger": "no"}))).use_debugger);
        let off = AgentSettings::from_stored(Some(serde_json::json!({"use_debugger": false})));
        assert!(!off.use_debugger);
        let stored = serde_json::to_value(&off).unwrap();
        assert_eq!(stored["use_debugger"], false);
        assert!(!AgentSettings::from_stored(Some(stored)).use_debugger);
    }

    #[test]
    fn the_site_list_round_trips_through_text() {
        let (sites, errors) = parse_sites("https://Bank.example/ = block\nshop.example = ask\n\nnews.example allow\nx = maybe");
        assert_eq!(sites.get("bank.example"), Some(&SitePolicy::Block));
        assert_eq!(sites.get("shop.example"), Some(&SitePolicy::AlwaysAsk));
        assert_eq!(errors.len(), 2);
        assert_eq!(parse_sites(&sites_text(&sites)).0, sites);
    }
}
