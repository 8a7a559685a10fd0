//! The run's sites where the browser acts: `declarativeNetRequest` session rules that Chrome checks
//! before a document request leaves, whatever starts it (a server redirect, a meta refresh, a page
//! script, a link, a form, `window.open`). Core writes the rules; the worker only hands them over.
//!
//! - `run tabs`: a document load in a tab the run works in may go only to the run's sites.
//! - `opened tabs`: a document load started by a page of the run's sites, in any tab the user
//!   wasn't already using, may too. That covers a tab the run's page opens from its first request,
//!   before the worker has heard of the tab.

use serde_json::{json, Value};

/// The two rule ids of the run in one window (one run per window).
pub fn rule_ids(window_id: i32) -> [u32; 2] {
    let base = (i64::from(window_id).rem_euclid(1_000_000) as u32) * 2 + 1;
    [base, base + 1]
}

/// What the browser needs to hold the run's sites.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Boundary {
    pub window_id: i32,
    /// The run's allowed sites (registrable domains or IPs; a domain covers its subdomains).
    pub allowed: Vec<String>,
    /// Tabs the run has worked in or that its pages opened.
    pub run_tabs: Vec<i32>,
}

impl Boundary {
    /// `updateSessionRules`' argument: this run's rules replaced; `other_tabs` are the tabs the
    /// user had besides the run's, whose own browsing is left alone.
    pub fn update(&self, other_tabs: &[i32]) -> Value {
        let ids = rule_ids(self.window_id);
        let mut allowed: Vec<&str> = self.allowed.iter().map(String::as_str).filter(|s| !s.is_empty()).collect();
        allowed.sort_unstable();
        allowed.dedup();
        let block = json!({ "type": "block" });
        let mut in_run = json!({ "resourceTypes": ["main_frame"], "tabIds": self.run_tabs });
        if !allowed.is_empty() {
            in_run["excludedRequestDomains"] = json!(allowed);
        }
        let mut rules = vec![json!({ "id": ids[0], "priority": 1, "action": block, "condition": in_run })];
        if !allowed.is_empty() {
            let others: Vec<i32> = other_tabs.iter().copied().filter(|t| !self.run_tabs.contains(t)).collect();
            let mut opened = json!({ "resourceTypes": ["main_frame"], "initiatorDomains": allowed, "excludedRequestDomains": allowed });
            if !others.is_empty() {
                opened["excludedTabIds"] = json!(others);
            }
            rules.push(json!({ "id": ids[1], "priority": 1, "action": block, "condition": opened }));
        }
        json!({ "removeRuleIds": ids, "addRules": rules })
    }
}

/// `updateSessionRules`' argument that takes the run's rules off.
pub fn lift(window_id: i32) -> Value {
    json!({ "removeRuleIds": rule_ids(window_id) })
}

/// Session rules left by runs that are no longer live (a worker that died mid-run, then restarted).
pub fn stale(rule_ids_now: &[u32], live_windows: &[i32]) -> Vec<u32> {
    let live: Vec<u32> = live_windows.iter().flat_map(|w| rule_ids(*w)).collect();
    rule_ids_now.iter().copied().filter(|id| !live.contains(id)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules_block_other_sites_in_the_runs_tabs_and_in_tabs_its_pages_open() {
        let b = Boundary { window_id: 7, allowed: vec!["bank.duckdns.org".into(), "127.0.0.1".into(), "bank.duckdns.org".into()], run_tabs: vec![3] };
        let u = b.update(&[1, 3, 9]);
        assert_eq!(u["removeRuleIds"], json!([15, 16]));
        let rules = u["addRules"].as_array().unwrap();
        assert_eq!(
            rules[0]["condition"],
            json!({ "resourceTypes": ["main_frame"], "tabIds": [3], "excludedRequestDomains": ["127.0.0.1", "bank.duckdns.org"] })
        );
        assert_eq!(rules[0]["action"]["type"], "block");
        assert_eq!(rules[1]["condition"]["initiatorDomains"], json!(["127.0.0.1", "bank.duckdns.org"]));
        assert_eq!(rules[1]["condition"]["excludedTabIds"], json!([1, 9]), "the user's own tabs are left alone");
    }

    #[test]
    fn a_run_with_no_site_yet_blocks_every_load_in_its_tab_and_ids_stay_apart() {
        let u = Boundary { window_id: 1, allowed: vec![], run_tabs: vec![5] }.update(&[]);
        assert_eq!(u["addRules"].as_array().unwrap().len(), 1);
        assert!(u["addRules"][0]["condition"].get("excludedRequestDomains").is_none());
        assert_ne!(rule_ids(1), rule_ids(2));
        assert!(rule_ids(-5)[0] >= 1 && rule_ids(i32::MAX)[1] < i32::MAX as u32);
        assert_eq!(lift(7), json!({ "removeRuleIds": [15, 16] }));
        assert_eq!(stale(&[15, 16, 3, 4], &[7]), vec![3, 4]);
    }
}
