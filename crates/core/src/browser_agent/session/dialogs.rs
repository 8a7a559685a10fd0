//! The page's own dialogs (alert, confirm, prompt, leave-page) during a step. The browser reports
//! them (never a script in the page); each becomes a card with the page's words, the user's
//! answer goes to the page, and the model is told what the page asked and what the user
//! answered. The model never answers a dialog.

use super::together::either;
use super::BrowserSession;
use crate::agent::ConfirmRequest;
use crate::browser_agent::browser::{Browser, DialogAnswer, DialogKind, PageDialog};
use crate::browser_agent::safety::action_digest;
use std::future::Future;

/// The card's `tool`: not one of the model's, the page's doing.
pub const DIALOG_TOOL: &str = "dialog";
/// With dialogs unwatched, an action the page has not answered in this long may be held by one.
pub const UNWATCHED_MS: u32 = 15_000;

impl<B: Browser> BrowserSession<'_, B> {
    /// Has the browser report the tab's dialogs from here on (the debugger's switch may say no).
    pub async fn watch_dialogs(&self) {
        let watched = self.browser.watch_dialogs(self.tab()).await;
        *self.dialogs_watched.borrow_mut() = watched;
    }

    /// Runs `work` (a round trip to the page, which a dialog holds), asking the user about each
    /// dialog the page opens in the meantime.
    pub async fn through_dialogs<F: Future>(&self, tab: i32, work: F) -> F::Output {
        let mut work = std::pin::pin!(work);
        loop {
            match either(work.as_mut(), self.browser.dialog_opened(tab)).await {
                Ok(out) => return out,
                Err(dialog) => self.ask_dialog(tab, dialog).await,
            }
        }
    }

    /// An action's round trip: with dialogs unwatched, a page that has not answered in
    /// `UNWATCHED_MS` ends the step with a result that says a dialog may be waiting.
    pub async fn or_unseen_dialog<T>(&self, work: impl Future<Output = Result<T, String>>) -> Result<T, String> {
        if *self.dialogs_watched.borrow() {
            return work.await;
        }
        match either(work, self.browser.sleep(UNWATCHED_MS)).await {
            Ok(out) => out,
            Err(()) => Err(format!(
                "the page did not answer within {} s: it may be showing a dialog (alert, confirm, prompt or leave this page) that waits for the user; Dusk can't see dialogs while its use of Chrome's debugger is off, so ask the user to answer it in the tab",
                UNWATCHED_MS / 1000
            )),
        }
    }

    /// What pages asked and users answered since the last call, for the model.
    pub fn take_dialog_notes(&self) -> Vec<String> {
        std::mem::take(&mut *self.dialog_notes.borrow_mut())
    }

    /// The user chose to stay on the page a navigation was leaving: the message for the model,
    /// with what the page asked, once.
    pub fn stayed(&self) -> Option<String> {
        if !std::mem::take(&mut *self.stayed.borrow_mut()) {
            return None;
        }
        let notes = self.take_dialog_notes().join("; ");
        Some(format!("{notes}: the tab stays on this page and nothing new was loaded"))
    }

    /// Shows the dialog to the user as a card and gives the page the user's answer.
    async fn ask_dialog(&self, tab: i32, dialog: PageDialog) {
        let (run_id, step) = self.step.borrow().clone();
        let arguments = serde_json::json!({ "kind": dialog.kind, "message": dialog.message, "default_prompt": dialog.default_prompt });
        let request = ConfirmRequest {
            digest: action_digest(&run_id, step, DIALOG_TOOL, &arguments),
            arguments,
            run_id,
            step,
            tool: DIALOG_TOOL.into(),
            summary: format!("The page asks: {}", dialog.message),
            reasons: vec!["the page opened a dialog and waits for an answer; only you answer it".into()],
            target: None,
            page: Some(if dialog.url.is_empty() { self.page_url() } else { dialog.url.clone() }),
            detail: Some(dialog.message.clone()).filter(|m| !m.trim().is_empty()),
            replaces: None,
        };
        let approved = matches!(self.browser.approval(&request).await, Some(a) if a.is_for(&request));
        let prompt_text = match (approved, dialog.kind) {
            (true, DialogKind::Prompt) => Some(self.browser.typed_answer(step).unwrap_or_else(|| dialog.default_prompt.clone())),
            _ => None,
        };
        let answer = DialogAnswer { accept: approved, prompt_text };
        let given = self.browser.answer_dialog(tab, &answer).await;
        if dialog.kind == DialogKind::Beforeunload && !answer.accept && given.is_ok() {
            *self.stayed.borrow_mut() = true;
        }
        self.dialog_notes.borrow_mut().push(note(&dialog, &answer, given.err()));
    }
}

/// "the page asked (confirm): “Really delete?”; the user answered OK", for the model.
pub fn note(dialog: &PageDialog, answer: &DialogAnswer, failed: Option<String>) -> String {
    let words = dialog.message.trim();
    let asked = match dialog.kind {
        DialogKind::Alert => format!("the page showed an alert: “{words}”"),
        DialogKind::Confirm => format!("the page asked (confirm dialog): “{words}”"),
        DialogKind::Prompt => format!("the page asked for text (prompt dialog): “{words}”"),
        DialogKind::Beforeunload => "the page asked whether to leave it (changes may not be saved)".to_string(),
    };
    let answered = match (dialog.kind, answer.accept, &answer.prompt_text) {
        (DialogKind::Alert, _, _) => "the user closed it".to_string(),
        (DialogKind::Prompt, true, Some(text)) => format!("the user answered “{text}” (OK)"),
        (DialogKind::Beforeunload, true, _) => "the user chose Leave".to_string(),
        (DialogKind::Beforeunload, false, _) => "the user chose Stay".to_string(),
        (_, true, _) => "the user answered OK".to_string(),
        (_, false, _) => "the user answered Cancel".to_string(),
    };
    match failed {
        None => format!("{asked}; {answered}"),
        Some(e) => format!("{asked}; {answered}, but the answer could not be given to the page ({e})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dialog(kind: DialogKind, message: &str) -> PageDialog {
        PageDialog { kind, message: message.into(), ..PageDialog::default() }
    }

    #[test]
    fn the_model_is_told_what_the_page_asked_and_what_the_user_answered() {
        let ok = DialogAnswer { accept: true, prompt_text: None };
        let cancel = DialogAnswer { accept: false, prompt_text: None };
        let confirm = dialog(DialogKind::Confirm, "Really delete selected item(s)?");
        assert_eq!(note(&confirm, &ok, None), "the page asked (confirm dialog): “Really delete selected item(s)?”; the user answered OK");
        assert_eq!(note(&confirm, &cancel, None), "the page asked (confirm dialog): “Really delete selected item(s)?”; the user answered Cancel");
        let named = DialogAnswer { accept: true, prompt_text: Some("Ada".into()) };
        assert_eq!(
            note(&dialog(DialogKind::Prompt, "Your name?"), &named, None),
            "the page asked for text (prompt dialog): “Your name?”; the user answered “Ada” (OK)"
        );
        assert_eq!(note(&dialog(DialogKind::Alert, "Saved."), &cancel, None), "the page showed an alert: “Saved.”; the user closed it");
        assert_eq!(
            note(&dialog(DialogKind::Beforeunload, ""), &cancel, None),
            "the page asked whether to leave it (changes may not be saved); the user chose Stay"
        );
        assert!(note(&confirm, &ok, Some("no dialog is showing".into())).ends_with("but the answer could not be given to the page (no dialog is showing)"));
    }
}
