//! Confirmation cards waiting for the user. Each card is issued with a random token that only
//! the side panel receives; an answer must name the run, the step and that token.

use dusk_core::agent::StopSignal;
use dusk_core::protocol::actions::FilePayload;
use std::cell::RefCell;
use std::rc::Rc;

pub enum Answer {
    Approved { digest: String, files: Vec<FilePayload>, text: Option<String> },
    Denied,
}

struct Pending {
    run_id: String,
    step: u32,
    token: String,
    answer: Rc<RefCell<Option<Answer>>>,
    /// Raced against the wait, so an answer (or the timeout) ends it at once.
    done: StopSignal,
}

thread_local! {
    static PENDING: RefCell<Vec<Pending>> = const { RefCell::new(Vec::new()) };
    /// Files picked for an approved upload, by run and step, until the tool takes them.
    static FILES: RefCell<Vec<(String, u32, Vec<FilePayload>)>> = const { RefCell::new(Vec::new()) };
    /// Text typed on an approved card (a page's prompt), by run and step, until the step takes it.
    static TEXTS: RefCell<Vec<(String, u32, String)>> = const { RefCell::new(Vec::new()) };
}

/// A token nobody but the panel that gets the card can know.
pub fn new_token() -> String {
    let crypto = js_sys::Reflect::get(&js_sys::global(), &"crypto".into()).unwrap_or_default();
    js_sys::Reflect::get(&crypto, &"randomUUID".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .and_then(|f| f.call0(&crypto).ok())
        .and_then(|v| v.as_string())
        .unwrap_or_else(|| format!("{:x}{:x}", (js_sys::Math::random() * 1e15) as u64, (js_sys::Math::random() * 1e15) as u64))
}

use wasm_bindgen::JsCast;

/// Waits for the answer to the card `(run_id, step, token)`; None after `timeout_ms`.
pub async fn wait(run_id: &str, step: u32, token: &str, timeout_ms: u32) -> Option<Answer> {
    let answer = Rc::new(RefCell::new(None));
    let done = StopSignal::new();
    PENDING.with(|p| p.borrow_mut().push(Pending { run_id: run_id.into(), step, token: token.into(), answer: answer.clone(), done: done.clone() }));
    let timer = done.clone();
    wasm_bindgen_futures::spawn_local(async move {
        crate::fetch::sleep(timeout_ms).await;
        timer.stop();
    });
    done.race(std::future::pending::<()>()).await;
    PENDING.with(|p| p.borrow_mut().retain(|x| !(x.run_id == run_id && x.step == step)));
    let taken = answer.borrow_mut().take();
    taken
}

/// The panel's answer. Err when no such card waits, or the token is not the one issued with it.
pub fn answer(run_id: &str, step: u32, token: &str, answer: Answer) -> Result<(), String> {
    PENDING.with(|p| {
        let pending = p.borrow();
        let Some(card) = pending.iter().find(|x| x.run_id == run_id && x.step == step) else {
            return Err("no action is waiting for this answer".to_string());
        };
        if card.token != token {
            return Err("refused: this approval was not issued to Dusk's side panel".to_string());
        }
        if let Answer::Approved { files, text, .. } = &answer {
            let files = files.clone();
            FILES.with(|f| f.borrow_mut().push((run_id.to_string(), step, files)));
            if let Some(text) = text.clone() {
                TEXTS.with(|t| t.borrow_mut().push((run_id.to_string(), step, text)));
            }
        }
        *card.answer.borrow_mut() = Some(answer);
        card.done.stop();
        Ok(())
    })
}

/// Ends every card of a run that stopped while the user was being asked.
pub fn drop_run(run_id: &str) {
    PENDING.with(|p| p.borrow().iter().filter(|x| x.run_id == run_id).for_each(|x| x.done.stop()));
    FILES.with(|f| f.borrow_mut().retain(|(r, _, _)| r != run_id));
    TEXTS.with(|t| t.borrow_mut().retain(|(r, _, _)| r != run_id));
}

pub fn take_text(run_id: &str, step: u32) -> Option<String> {
    TEXTS.with(|t| {
        let mut texts = t.borrow_mut();
        let i = texts.iter().position(|(r, s, _)| r == run_id && *s == step)?;
        Some(texts.remove(i).2)
    })
}

pub fn take_files(run_id: &str, step: u32) -> Vec<FilePayload> {
    FILES.with(|f| {
        let mut files = f.borrow_mut();
        match files.iter().position(|(r, s, _)| r == run_id && *s == step) {
            Some(i) => files.remove(i).2,
            None => Vec::new(),
        }
    })
}
