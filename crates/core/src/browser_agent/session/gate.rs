//! The session's gate: the real target and page of an action, judged by `safety::assess` and by
//! the run's sites (`safety::reach`), never by the model's words.

use super::{BrowserSession, GATE_TEXT};
use crate::agent::{ConfirmLevel, Gate, GateTarget};
use crate::browser_agent::browser::Browser;
use crate::browser_agent::safety::{assess, fail_closed, Action, PageFacts, Reach, ReachVerdict, SitePolicy, TargetFacts};
use crate::protocol::{ContentRequest, ContentResponse};

/// What reading an action's target found.
pub enum TargetRead {
    Found(Box<(TargetFacts, GateTarget)>),
    /// The page no longer has the listed element: the action can't run on it.
    Gone(String),
    /// The read itself failed or made no sense: nothing about the target was checked.
    Unread(String),
}

impl<B: Browser> BrowserSession<'_, B> {
    /// The real target of an action, read from the page (never from the model's words).
    pub async fn target(&self, index: u32) -> Result<(TargetFacts, GateTarget), String> {
        match self.read_target(index).await {
            TargetRead::Found(found) => Ok(*found),
            TargetRead::Gone(e) | TargetRead::Unread(e) => Err(e),
        }
    }

    async fn read_target(&self, index: u32) -> TargetRead {
        let details = match self.rpc(ContentRequest::GetElementDetails { indices: vec![index] }).await {
            Ok(ContentResponse::ElementDetails { details, missing }) => match details.into_iter().next() {
                Some(d) => d,
                None if missing.contains(&index) => {
                    return TargetRead::Gone(format!("stale: element {index} is no longer on the page; call get_elements for fresh indices"))
                }
                None => return TargetRead::Unread(format!("the page did not describe element {index}")),
            },
            Ok(other) => return TargetRead::Unread(other.unexpected()),
            Err(e) => return TargetRead::Unread(e),
        };
        if details.tag.trim().is_empty() {
            return TargetRead::Unread(format!("the page gave element {index} no tag"));
        }
        let attr = |k: &str| details.attributes.get(k).cloned();
        let hints = ["name", "id", "autocomplete", "aria-label"].iter().filter_map(|k| attr(k)).collect::<Vec<_>>().join(" ");
        let facts = TargetFacts {
            tag: details.tag.clone(),
            text: details.text.clone(),
            role: attr("role"),
            input_type: attr("type").map(|t| t.to_ascii_lowercase()),
            field_hints: hints,
            form_action: details.form_action.clone(),
            link: details.link.clone(),
        };
        TargetRead::Found(Box::new((facts, GateTarget { index, tag: details.tag, text: details.text, rect: details.rect })))
    }

    /// How sensitive `action` on `index` is: read-only calls need only the site's policy; a
    /// changing action reads its target and the page first.
    pub async fn gate(&self, action: Action, index: Option<u32>) -> Gate {
        *self.crossing.borrow_mut() = None;
        {
            let mut seen = self.seen.borrow_mut();
            seen.text.clear();
            seen.on_screen = false;
        }
        // A load the browser stopped since the last step (a page's timer) is asked about first.
        let _ = self.catch_stopped_load().await;
        if action == Action::Read {
            let a = assess(&action, None, &PageFacts { url: self.run.borrow().url.clone(), text: String::new() }, self.policy());
            return Gate::new(a.level, a.reasons);
        }
        // The page and the target are read at once: neither needs the other.
        let target = async {
            match index {
                Some(i) => Some(self.read_target(i).await),
                None => None,
            }
        };
        let (summary, target) = super::together::both(self.summary(GATE_TEXT), target).await;
        // Every check that could not run is named, so the gate asks instead of letting it through.
        let mut unchecked = Vec::new();
        let mut page = match summary {
            Ok(s) => PageFacts { url: s.url, text: s.text },
            Err(e) => {
                if matches!(action, Action::Click | Action::Select | Action::Submit) || index.is_some() {
                    unchecked.push(format!("Dusk couldn't read the page to check this action ({e})"));
                }
                PageFacts { url: self.run.borrow().url.clone(), text: String::new() }
            }
        };
        self.seen.borrow_mut().text = page.text.clone();
        let (facts, target) = match target {
            Some(TargetRead::Found(found)) => {
                let (f, t) = *found;
                (Some(f), Some(t))
            }
            Some(TargetRead::Gone(why)) => return Gate { level: ConfirmLevel::Block, reasons: vec![why.clone()], refused: Some(why), ..Gate::default() },
            Some(TargetRead::Unread(e)) => {
                unchecked.push(format!("Dusk couldn't check element [{}] ({e})", index.unwrap_or_default()));
                (None, None)
            }
            None => (None, None),
        };
        // An element in another origin's frame acts on that frame's site.
        if let Some((frame, _)) = index.and_then(|i| self.frame_of(i)) {
            page.url = frame.url;
        }
        let mut policy = self.policy();
        if let Action::Navigate { to_url } = &action {
            if self.run.borrow().settings.policy_for(to_url) == SitePolicy::Block {
                policy = SitePolicy::Block;
            }
        }
        *self.gated.borrow_mut() = target.clone();
        let mut a = assess(&action, facts.as_ref(), &page, policy);
        for why in unchecked {
            fail_closed(&mut a, why);
        }
        let reach = self.reach(&action, facts.as_ref(), &page.url);
        let (mut level, mut reasons) = (a.level, a.reasons);
        level = level.max(reach.level);
        reasons.extend(reach.reasons);
        let detail = match &action {
            Action::Type { text } => Some(text.clone()),
            Action::Navigate { to_url } | Action::SwitchTab { to_url } => Some(to_url.clone()),
            Action::Click | Action::Submit if reach.site.is_some() => {
                facts.as_ref().and_then(|f| f.destination().or(f.form_action.as_deref())).map(str::to_string)
            }
            _ => None,
        };
        let declined = reach.site.filter(|_| reach.level == ConfirmLevel::Confirm).map(|site| {
            *self.crossing.borrow_mut() = Some(site.clone());
            format!("the user declined; {site} now stays refused for the rest of this run: do not try to reach it, or send it anything, again in any form")
        });
        Gate { level, reasons, target, page: Some(page.url), detail, declined, refused: None }
    }

    /// The run's sites' verdict on `action` from the page at `page_url` (safety::reach).
    fn reach(&self, action: &Action, facts: Option<&TargetFacts>, page_url: &str) -> ReachVerdict {
        let run = self.run.borrow();
        let mut reach = Reach { page_url, changes: true, url_carries: true, ..Reach::default() };
        match action {
            Action::Navigate { to_url } => {
                reach.changes = false;
                reach.destination = Some(to_url);
            }
            Action::SwitchTab { to_url } => {
                (reach.changes, reach.url_carries) = (false, false);
                reach.destination = Some(to_url);
            }
            Action::Type { text } => reach.typed = Some(text),
            Action::Submit => reach.destination = facts.and_then(|f| f.form_action.as_deref()),
            _ => reach.destination = facts.and_then(TargetFacts::destination),
        }
        run.sites.judge(&reach, |url| run.settings.policy_for(url) == SitePolicy::Allow)
    }
}
