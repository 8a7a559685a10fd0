//! Core's `DarkPage` on a real tab: top-frame content-script RPCs, the visible tab's screenshot,
//! checkpoints in chrome.storage.session.

use dusk_chrome::tabs;
use dusk_core::agent::{Host, StopSignal};
use dusk_core::dark_agent::session::DarkPage;
use dusk_core::llm::Image;
use dusk_core::protocol::dark::{DarkContentRequest, DarkContentResponse};
use dusk_core::protocol::{ContentRequest, ContentResponse};

/// Screenshots for the dark agent are at most this wide.
pub const SCREENSHOT_WIDTH: u32 = 800;

pub struct TabPage {
    pub tab_id: i32,
    pub stop: StopSignal,
}

impl Host for TabPage {
    crate::checkpoints::worker_host_basics!();

    async fn check_target(&self) -> Result<(), String> {
        tabs::get(self.tab_id).await.map(|_| ()).map_err(|_| "the tab was closed".to_string())
    }
}

impl DarkPage for TabPage {
    async fn rpc(&self, request: ContentRequest) -> Result<ContentResponse, String> {
        crate::content_rpc::rpc(self.tab_id, &request).await
    }

    async fn dark_rpc(&self, request: DarkContentRequest) -> Result<DarkContentResponse, String> {
        crate::layer_load::dark_rpc(self.tab_id, &request).await
    }

    async fn screenshot(&self) -> Result<Image, String> {
        crate::screenshot::capture(self.tab_id, SCREENSHOT_WIDTH).await
    }
}
