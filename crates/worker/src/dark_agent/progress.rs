//! The run's view for the popup, kept in chrome.storage.session and updated as the run goes.

use super::store;
use dusk_core::agent::{AgentEvent, Sink};
use dusk_core::dark_agent::session::{DarkPage, DarkSession};
use dusk_core::protocol::dark::{DarkRunView, RunStage};
use std::cell::RefCell;

pub struct Progress {
    tab_id: i32,
    view: RefCell<DarkRunView>,
}

impl Progress {
    pub fn new(tab_id: i32, view: DarkRunView) -> Self {
        Progress { tab_id, view: RefCell::new(view) }
    }

    /// Changes the view and writes it in the background (events can't wait).
    pub fn update(&self, f: impl FnOnce(&mut DarkRunView)) {
        f(&mut self.view.borrow_mut());
        let (tab_id, view) = (self.tab_id, self.view.borrow().clone());
        wasm_bindgen_futures::spawn_local(async move { store::set_view(tab_id, &view).await });
    }

    /// Changes the view and waits until it is written.
    pub async fn update_now(&self, f: impl FnOnce(&mut DarkRunView)) {
        f(&mut self.view.borrow_mut());
        let view = self.view.borrow().clone();
        store::set_view(self.tab_id, &view).await;
    }

    pub fn sink<'a, P: DarkPage>(&'a self, session: &'a DarkSession<'a, P>) -> RunSink<'a, P> {
        RunSink { progress: self, session }
    }
}

/// Thorough's runtime events as popup stages: "Refining (round 2 of 5)", the guard's AA, tokens.
pub struct RunSink<'a, P> {
    progress: &'a Progress,
    session: &'a DarkSession<'a, P>,
}

impl<P: DarkPage> Sink for RunSink<'_, P> {
    fn emit(&self, event: AgentEvent) {
        match event {
            AgentEvent::ModelTurn { n, of } => self.progress.update(|v| {
                v.stage = RunStage::Refining;
                v.turn = n;
                v.of = of;
            }),
            AgentEvent::ToolFinished { tool, summary, .. } if tool == "apply_css" => {
                let aa = self.session.kept().map(|k| k.quality.aa_share);
                self.progress.update(|v| {
                    v.aa = aa.or(v.aa);
                    v.message = Some(summary);
                });
            }
            AgentEvent::Usage { input_tokens, output_tokens, cost_usd } => self.progress.update(|v| {
                v.input_tokens = input_tokens;
                v.output_tokens = output_tokens;
                v.cost_usd = cost_usd;
            }),
            _ => {}
        }
    }
}
