//! Quick and Thorough dark mode: binds core's dark agent to a tab. The worker owns each run, so
//! closing the popup doesn't stop it; the popup reads the run's view from storage.

#[cfg(feature = "agents")]
mod page;
#[cfg(feature = "agents")]
mod progress;
#[cfg(feature = "agents")]
mod run;
pub(crate) mod running;
mod store;

use dusk_core::protocol::dark::{RunStage, TabDarkState};
#[cfg(feature = "agents")]
pub use run::*;

/// The popup's view of the tab's run and the site's versions.
pub async fn add_to_state(state: &mut TabDarkState) {
    if let Some(tab_id) = state.tab_id {
        state.run = store::view(tab_id).await;
        if state.run.as_ref().is_some_and(|r| r.stage.is_running()) && !running::is_running(tab_id) {
            // The worker that owned it is gone and nothing resumed it (Quick isn't checkpointed).
            if let Some(r) = state.run.as_mut() {
                r.stage = RunStage::Failed;
                r.message = Some("The run was interrupted when the background service restarted. Try again.".into());
            }
        }
    }
    if let Some(host) = &state.host {
        let themes = store::history(host).await;
        state.version = store::version_view(&themes);
        state.versions = themes.versions.len() as u32;
    }
}
