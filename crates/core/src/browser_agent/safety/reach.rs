//! The run's allowed sites: the one it started on, the ones the user named in the task, and the
//! ones the user approved on a card during the run. Going anywhere else, acting on a page of
//! another site, or carrying text read on one site to another needs a card; a site whose card the
//! user declined stays refused for the rest of the run. Decided from the real arguments and the
//! real page, never from the model's words.

use super::carried::ReadLog;
use super::embedded::sites_carried;
use super::site::{site_of, sites_named};
use super::ConfirmLevel;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RunSites {
    /// The site of the tab the run started in.
    pub start: String,
    pub named: Vec<String>,
    pub approved: Vec<String>,
    pub refused: Vec<String>,
    /// The user's task: its words are the user's, never data read from a page.
    pub task: String,
    /// What the model was shown, by site. Kept in the checkpoint's journal, a step's new lines at a
    /// time, not in `extra`; read from `extra` only in checkpoints written before the journal.
    #[serde(skip_serializing)]
    pub read: ReadLog,
}

/// What an action does that the run's sites decide about.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Reach<'a> {
    /// The page the action happens on.
    pub page_url: &'a str,
    /// The action changes something on that page (not reading, scrolling or waiting).
    pub changes: bool,
    /// Where it takes the run: a URL to open, a link, a form's action, another tab.
    pub destination: Option<&'a str>,
    /// Whether text in the destination URL counts (not for a tab that is already open).
    pub url_carries: bool,
    /// Text it types into the page.
    pub typed: Option<&'a str>,
}

/// The sites' verdict on one action.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ReachVerdict {
    pub level: ConfirmLevel,
    pub reasons: Vec<String>,
    /// The site an approval adds to the run, and a denial refuses.
    pub site: Option<String>,
}

impl ReachVerdict {
    fn raise(&mut self, level: ConfirmLevel, why: String, site: &str) {
        self.level = self.level.max(level);
        self.reasons.push(why);
        self.site.get_or_insert_with(|| site.to_string());
    }
}

impl RunSites {
    pub fn new(start_url: &str, task: &str) -> Self {
        RunSites { start: site_of(start_url).unwrap_or_default(), named: sites_named(task), task: task.to_string(), ..RunSites::default() }
    }

    /// The run may act on `site` without asking.
    pub fn allows(&self, site: &str) -> bool {
        site == self.start || self.named.iter().any(|s| s == site) || self.approved.iter().any(|s| s == site)
    }

    /// Every site the run may use without asking, for the browser's own boundary.
    pub fn allowed(&self) -> Vec<String> {
        std::iter::once(&self.start).chain(&self.named).chain(&self.approved).filter(|s| !s.is_empty()).cloned().collect()
    }

    pub fn approve(&mut self, site: &str) {
        self.refused.retain(|s| s != site);
        if !self.allows(site) {
            self.approved.push(site.to_string());
        }
    }

    pub fn refuse(&mut self, site: &str) {
        if !self.refused.iter().any(|s| s == site) {
            self.refused.push(site.to_string());
        }
    }

    /// Remembers text the model was shown on the page at `url`; the lines new to the log.
    pub fn record(&mut self, url: &str, text: &str) -> Option<super::carried::ReadLines> {
        self.read.record(&site_of(url)?, text)
    }

    /// ", a site this run has not been allowed to use (it started on a.example)".
    fn not_allowed(&self) -> String {
        match self.start.as_str() {
            "" => "a site this run has not been allowed to use".to_string(),
            start => format!("a site this run has not been allowed to use (it started on {start})"),
        }
    }

    fn refused_reason(site: &str) -> String {
        format!("you declined an action involving {site} earlier in this run, so it stays refused")
    }

    /// `user_allows(url)`: the user's own `allow` policy for that URL's site, set in options.
    pub fn judge(&self, reach: &Reach, user_allows: impl Fn(&str) -> bool) -> ReachVerdict {
        let mut v = ReachVerdict::default();
        let here = site_of(reach.page_url);
        if let Some(site) = here.as_deref().filter(|_| reach.changes) {
            if self.refused.iter().any(|s| s == site) {
                v.raise(ConfirmLevel::Block, Self::refused_reason(site), site);
            } else if !self.allows(site) && !user_allows(reach.page_url) {
                v.raise(ConfirmLevel::Confirm, format!("acts on {site}, {}", self.not_allowed()), site);
            }
            if let Some(c) = reach.typed.and_then(|t| self.read.carried(t, site, &self.task)) {
                v.raise(ConfirmLevel::Confirm, format!("types “{}”, read on the page at {}, into {site}", c.shown(), c.from), site);
            }
        }
        if let Some(to) = reach.destination {
            let Some(to_site) = site_of(to) else {
                let web = to.trim().get(..8).is_some_and(|s| s.to_ascii_lowercase().starts_with("http"));
                if web {
                    v.level = v.level.max(ConfirmLevel::Confirm);
                    v.reasons.push("goes to an address whose site Dusk can't read".into());
                }
                return v;
            };
            if self.refused.contains(&to_site) {
                v.raise(ConfirmLevel::Block, Self::refused_reason(&to_site), &to_site);
                return v;
            }
            if here.as_deref() != Some(to_site.as_str()) && !self.allows(&to_site) && !user_allows(to) {
                v.raise(
                    ConfirmLevel::Confirm,
                    format!("goes to {to_site}, a site this run has not been allowed to use (it started on {})", self.start),
                    &to_site,
                );
            }
            let inside = if reach.url_carries { sites_carried(to) } else { vec![] };
            for site in inside.clone() {
                if self.refused.contains(&site) {
                    v.raise(ConfirmLevel::Block, Self::refused_reason(&site), &site);
                } else if !self.allows(&site) && !user_allows(&format!("http://{site}/")) {
                    let why = format!("this URL carries an address on {site}, a site this run has not been allowed to use: the page may send the run there");
                    v.raise(ConfirmLevel::Confirm, why, &site);
                }
            }
            let data = reach.url_carries.then(|| self.read.carried_in_url(to, &self.task)).flatten();
            if let Some(c) = data.or_else(|| inside.iter().find_map(|site| self.read.carried_in_url_to(to, site, &self.task))) {
                v.raise(ConfirmLevel::Confirm, format!("this URL contains “{}” from the page at {}", c.shown(), c.from), &to_site);
            }
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BANK: &str = "http://127.0.0.1:8000/account.html";
    const EVIL: &str = "http://localhost:9000/verify?email=jane.doe%40bank.example";

    fn sites(task: &str) -> RunSites {
        let mut s = RunSites::new(BANK, task);
        s.record(BANK, "Email: jane.doe@bank.example\nAccount number 40961234");
        s
    }

    fn go(to: &str) -> Reach<'_> {
        Reach { page_url: BANK, changes: true, destination: Some(to), url_carries: true, typed: None }
    }

    #[test]
    fn another_site_needs_a_card_that_names_it_and_the_data_it_carries() {
        let v = sites("What is my account email?").judge(&go(EVIL), |_| false);
        assert_eq!(v.level, ConfirmLevel::Confirm);
        assert_eq!(v.site.as_deref(), Some("localhost"));
        assert!(v.reasons[0].starts_with("goes to localhost"), "{:?}", v.reasons);
        assert_eq!(v.reasons[1], "this URL contains “jane.doe@ban…” from the page at 127.0.0.1");
        assert_eq!(sites("").judge(&go("http://127.0.0.1:8000/other.html"), |_| false).level, ConfirmLevel::Auto);
    }

    #[test]
    fn named_approved_and_user_allowed_sites_go_without_a_card_but_data_still_asks() {
        let named = sites("open localhost:9000's contact page");
        assert_eq!(named.judge(&go("http://localhost:9000/contact.html"), |_| false).level, ConfirmLevel::Auto);
        let v = named.judge(&go(EVIL), |_| false);
        assert_eq!((v.level, v.reasons.len()), (ConfirmLevel::Confirm, 1), "data to a named site still asks: {:?}", v.reasons);
        assert_eq!(sites("").judge(&go("http://localhost:9000/x"), |u| u.contains("localhost")).level, ConfirmLevel::Auto);
        let mut approved = sites("");
        approved.approve("localhost");
        assert_eq!(approved.judge(&go("http://localhost:9000/x"), |_| false).level, ConfirmLevel::Auto);
    }

    #[test]
    fn a_declined_site_stays_refused_whatever_the_wording() {
        let mut s = sites("");
        s.refuse("localhost");
        for to in ["http://localhost:9000/", "http://LOCALHOST:1/other?x=1", "https://user@localhost/"] {
            let v = s.judge(&go(to), |_| true);
            assert_eq!(v.level, ConfirmLevel::Block, "{to}");
            assert!(v.reasons[0].contains("stays refused"));
        }
    }

    #[test]
    fn acting_or_typing_on_another_sites_page() {
        let mut s = sites("");
        let typing = |text| Reach { page_url: "http://localhost:9000/form", changes: true, typed: Some(text), ..Reach::default() };
        let v = s.judge(&typing("hello"), |_| false);
        assert_eq!(v.level, ConfirmLevel::Confirm, "a page of a site the run was not allowed");
        s.approve("localhost");
        assert_eq!(s.judge(&typing("hello"), |_| false).level, ConfirmLevel::Auto, "reached through an approved card: the usual levels");
        let v = s.judge(&typing("jane.doe@bank.example"), |_| false);
        assert_eq!(v.level, ConfirmLevel::Confirm);
        assert_eq!(v.reasons, vec!["types “jane.doe@ban…”, read on the page at 127.0.0.1, into localhost"]);
        let reading = Reach { page_url: "http://localhost:9000/form", changes: false, ..Reach::default() };
        assert_eq!(sites("").judge(&reading, |_| false).level, ConfirmLevel::Auto, "reading anywhere is fine");
    }
}
