//! Keyboard shortcuts and context-menu clicks. worker.js opens the side panel itself (it must
//! happen inside the user's gesture); the rest lands here.

use dusk_chrome::{context_menus, i18n, storage};
use dusk_core::commands::{ChatPrefill, Command, MenuItem, CHAT_PREFILL_KEY};
use dusk_core::dark::site::host_of;
use dusk_core::protocol::dark::DarkContentRequest;
use serde::Deserialize;

/// The parts of Chrome's `Tab` these handlers use.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TabRef {
    pub id: Option<i32>,
    pub window_id: Option<i32>,
}

pub async fn on_command(name: &str, tab: TabRef) {
    let Some(tab_id) = tab.id else { return };
    match Command::from_name(name) {
        Some(Command::ToggleDark) => toggle_dark(tab_id).await,
        Some(Command::StopAgent) => stop_runs(tab_id),
        Some(Command::OpenSidePanel) | None => {}
    }
}

pub async fn on_menu(id: &str, selection: Option<String>, tab: TabRef) {
    match MenuItem::from_id(id) {
        Some(MenuItem::AskDusk) => {
            let (Some(window_id), Some(text)) = (tab.window_id, selection) else { return };
            let prefill = ChatPrefill::from_selection(window_id, &text);
            let _ = storage::session_set(CHAT_PREFILL_KEY, &dusk_chrome::message::to_js(&prefill)).await;
        }
        Some(MenuItem::DarkForSite) => {
            if let Some(tab_id) = tab.id {
                toggle_dark(tab_id).await;
            }
        }
        None => {}
    }
}

/// Dark mode for the tab's site flips, as the popup's switch does: the page first, then memory.
async fn toggle_dark(tab_id: i32) {
    let Ok(host) = host_of(&crate::window_tabs::tab_url(tab_id).await) else { return };
    let on = !crate::stored::load_memory().await.is_on(&host);
    let _ = crate::layer_load::dark_rpc(tab_id, &DarkContentRequest::DarkSwitch { on }).await;
    let _ = crate::dark::set_site(tab_id, on).await;
}

#[cfg(feature = "agents")]
fn stop_runs(tab_id: i32) {
    crate::browser_agent::stop_in_tab(tab_id);
    crate::dark_agent::stop(tab_id);
}

/// The dark-mode build runs nothing to stop: worker.js gives events to the whole build once it runs.
#[cfg(not(feature = "agents"))]
fn stop_runs(_tab_id: i32) {}

/// The context menu, created once per install or update.
pub async fn install_menus() {
    let _ = context_menus::remove_all().await;
    for item in MenuItem::ALL {
        let _ = context_menus::create(item.id(), &i18n::message(item.title_key()), item.context());
    }
}
