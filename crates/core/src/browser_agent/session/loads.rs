//! The run's sites where the browser acts: the session keeps the browser's boundary
//! (`safety::boundary`) in step with the run's sites and tabs, and turns a load the browser
//! stopped into a card naming the full URL the page tried.

use super::BrowserSession;
use crate::agent::{ConfirmRequest, Host};
use crate::browser_agent::browser::{Browser, Navigation};
use crate::browser_agent::safety::action_digest;
use crate::browser_agent::safety::boundary::Boundary;
use crate::browser_agent::safety::site::site_of;
use crate::browser_agent::safety::SitePolicy;

/// How long a declined load's way back may take before the step goes on.
const BACK_MS: f64 = 3000.0;

/// What became of a load the browser stopped.
pub enum Stopped {
    /// The user approved: the site joins the run and the URL is loading again, once.
    Reloading,
    /// Declined (or refused earlier): the message for the model.
    Declined(String),
}

impl<B: Browser> BrowserSession<'_, B> {
    /// The browser's boundary as the run stands now: its allowed sites (and the user's always-allowed
    /// hosts) and its tabs.
    pub fn boundary(&self) -> Boundary {
        let run = self.run.borrow();
        let mut allowed = run.sites.allowed();
        allowed.extend(run.settings.allowed_hosts());
        let mut run_tabs = run.run_tabs.clone();
        if !run_tabs.contains(&run.tab_id) {
            run_tabs.push(run.tab_id);
        }
        Boundary { window_id: run.window_id, allowed, run_tabs }
    }

    /// Hands the boundary to the browser; every change of the run's sites or tabs goes through here.
    pub async fn guard_loads(&self) -> Result<(), String> {
        let boundary = self.boundary();
        self.browser.set_boundary(&boundary).await.map_err(|e| format!("Dusk could not hold the run to its sites ({e})"))
    }

    /// `tab` is one of the run's tabs from now on (opened by the run or by its pages).
    pub async fn join_tab(&self, tab: i32) -> Result<(), String> {
        {
            let mut run = self.run.borrow_mut();
            if !run.known_tabs.contains(&tab) {
                run.known_tabs.push(tab);
            }
            if run.run_tabs.contains(&tab) {
                return Ok(());
            }
            run.run_tabs.push(tab);
        }
        self.guard_loads().await
    }

    /// The tab shows a web URL of a site the run may not use: the boundary stopped that load.
    pub fn is_stopped_load(&self, url: &str) -> bool {
        let run = self.run.borrow();
        site_of(url).is_some_and(|site| !run.sites.allows(&site) && run.settings.policy_for(url) != SitePolicy::Allow)
    }

    /// Asks the user about a load the browser stopped in `tab`. Approve loads it once and adds its
    /// site; Deny (or a site refused earlier) keeps the site refused and takes the tab back.
    pub async fn stopped_load(&self, tab: i32, url: &str) -> Stopped {
        let site = site_of(url).unwrap_or_default();
        let refused = self.run.borrow().sites.refused.contains(&site);
        let approved = !refused
            && {
                let (run_id, step) = self.step.borrow().clone();
                let request = ConfirmRequest {
                digest: action_digest(&run_id, step, "load", &serde_json::json!({ "url": url })),
                arguments: serde_json::json!({ "url": url }),
                run_id,
                step,
                tool: "load".into(),
                summary: format!("The page tried to take this run to {url}"),
                reasons: vec![format!("the page tried to take this run to {site}, a site this run has not been allowed to use; the browser stopped the load before anything was sent")],
                target: None,
                page: Some(self.run.borrow().url.clone()),
                detail: Some(url.to_string()),
                replaces: None,
            };
                matches!(self.browser.approval(&request).await, Some(a) if a.is_for(&request))
            };
        if approved {
            self.run.borrow_mut().sites.approve(&site);
            let reloaded = match self.guard_loads().await {
                Ok(()) => self.browser.navigate(tab, &Navigation::Url(url.to_string())).await,
                Err(e) => Err(e),
            };
            return match reloaded {
                Ok(()) => Stopped::Reloading,
                Err(e) => Stopped::Declined(format!("the page tried to take this run to {url}; the user approved, but {e}")),
            };
        }
        self.run.borrow_mut().sites.refuse(&site);
        self.back_from(tab, url).await;
        let why = if refused { "you declined an action involving it earlier in this run" } else { "the user declined" };
        Stopped::Declined(format!(
            "the page tried to take this run to {url}; the browser stopped it before anything was sent and {why}: {site} stays refused for the rest of this run, do not try to reach it, or send it anything, again in any form"
        ))
    }

    /// Takes `tab` from the stopped load back to the page the run was on (history may hold no
    /// entry for it: a stopped first load in a new tab), and waits a little for that page.
    async fn back_from(&self, tab: i32, stopped: &str) {
        let last = self.run.borrow().url.clone();
        let to = if tab == self.tab() && !last.is_empty() && !self.is_stopped_load(&last) { Navigation::Url(last) } else { Navigation::Back };
        if self.browser.navigate(tab, &to).await.is_err() {
            return;
        }
        let started = self.now_ms();
        while self.now_ms() - started < BACK_MS {
            self.browser.sleep(100).await;
            let back = self.browser.tabs().await.ok().and_then(|tabs| tabs.into_iter().find(|t| t.tab_id == tab));
            if back.is_none_or(|t| !t.loading && t.url != stopped) {
                return;
            }
        }
    }

    /// The same, for a wait that goes on: Ok once the approved URL is loading again.
    pub(super) async fn ask_stopped_load(&self, tab: i32, url: &str) -> Result<(), String> {
        match self.stopped_load(tab, url).await {
            Stopped::Reloading => Ok(()),
            Stopped::Declined(why) => Err(why),
        }
    }

    /// A load the browser stopped while nobody waited for it (a page's timer): the card comes
    /// before the next action.
    pub async fn catch_stopped_load(&self) -> Option<String> {
        let tab = self.tab();
        let now = self.browser.tabs().await.ok()?.into_iter().find(|t| t.tab_id == tab)?;
        if now.loading || !self.is_stopped_load(&now.url) {
            return None;
        }
        match self.stopped_load(tab, &now.url).await {
            Stopped::Reloading => self.wait_ready(tab, None).await.err(),
            Stopped::Declined(why) => Some(why),
        }
    }
}
