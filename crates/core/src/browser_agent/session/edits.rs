//! What the run did to the page's text fields, read from the page: each field's length when the
//! run first read it, and before a submit, its length now (`safety::replaced` judges them).

use super::BrowserSession;
use crate::agent::ConfirmLevel;
use crate::browser_agent::browser::Browser;
use crate::browser_agent::safety::replaced::{worst, Field, Replacement, Sent, REPLACED_CHARS};
use crate::browser_agent::safety::{Action, SitePolicy, TargetFacts};
use crate::protocol::page::ElementDetails;
use crate::protocol::{ContentRequest, ContentResponse};

impl<B: Browser> BrowserSession<'_, B> {
    /// The page described `details` (the gate's target read comes before any action on it): a
    /// text field's length is kept the first time, before any edit of the run's, and each
    /// element's form is remembered for the gate's judgement of a submit.
    pub(super) fn saw_details(&self, details: &[ElementDetails]) {
        *self.forms.borrow_mut() = details.iter().map(|d| (d.index, d.form.clone())).collect();
        let mut run = self.run.borrow_mut();
        let doc = run.doc.clone();
        for d in details {
            if let Some(before) = d.value_len() {
                run.fields.saw(Field { doc: doc.clone(), index: d.index, before, form: d.form.clone(), name: d.text.clone() });
            }
        }
    }

    /// A submit (Enter, or a click on a control that submits its form) that would send a field
    /// with more than `REPLACED_CHARS` of the page's own text gone: the level and the reason.
    /// Its fields' lengths now are read from the page only when one had that much to lose.
    pub(super) async fn replaced_text(
        &self,
        action: &Action,
        facts: Option<&TargetFacts>,
        index: Option<u32>,
        policy: SitePolicy,
    ) -> Option<(ConfirmLevel, String)> {
        *self.replacing.borrow_mut() = None;
        let form = self.forms.borrow().iter().find(|(i, _)| Some(*i) == index).and_then(|(_, f)| f.clone());
        let sent = match (action, index) {
            (Action::Submit, Some(_)) => Sent::Form(form.as_deref()),
            (Action::Submit, None) => Sent::Any,
            (Action::Click, _) if facts.is_some_and(TargetFacts::submits) => Sent::Form(form.as_deref()),
            _ => return None,
        };
        let candidates: Vec<Field> = {
            let run = self.run.borrow();
            run.fields.sent_with(&run.doc, sent).filter(|f| f.before > REPLACED_CHARS).cloned().collect()
        };
        if candidates.is_empty() {
            return None;
        }
        let indices = candidates.iter().map(|f| f.index).collect();
        let level = if policy == SitePolicy::Allow { ConfirmLevel::Notify } else { ConfirmLevel::Confirm };
        let now: Vec<(u32, u32)> = match self.rpc(ContentRequest::GetElementDetails { indices }).await {
            Ok(ContentResponse::ElementDetails { details, .. }) => details.iter().filter_map(|d| Some((d.index, d.value_len()?))).collect(),
            // Fields that had text to lose can't be read now: the submit is asked about.
            _ => return Some((level, "submits a form whose edited text Dusk could not read back".into())),
        };
        let found: Replacement = worst(candidates.iter(), &now)?;
        let reason = found.reason();
        *self.replacing.borrow_mut() = Some(found);
        Some((level, reason))
    }
}
