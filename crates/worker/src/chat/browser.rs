//! Core's `ChatBrowser` on real tabs: content-script RPCs, captureVisibleTab, checkpoints in
//! chrome.storage.session.

use super::store;
use dusk_chrome::message::error_text;
use dusk_chrome::tabs;
use dusk_core::agent::{Host, StopSignal};
use dusk_core::chat::{ChatBrowser, TabInfo};
use dusk_core::llm::Image;
use dusk_core::protocol::actions::{Direction, Target};
use dusk_core::protocol::page::PageText;
use dusk_core::protocol::{ContentRequest, ContentResponse};

pub struct TabBrowser {
    pub window_id: i32,
    pub stop: StopSignal,
}

async fn rpc(tab: &TabInfo, request: ContentRequest) -> Result<ContentResponse, String> {
    crate::content_rpc::rpc(tab.tab_id, &request).await
}

impl Host for TabBrowser {
    crate::checkpoints::worker_host_basics!();
}

impl ChatBrowser for TabBrowser {
    async fn read_page(&self, tab: &TabInfo, max_chars: u32) -> Result<PageText, String> {
        crate::content_rpc::page_blocks(tab.tab_id, max_chars).await
    }

    async fn screenshot(&self, tab: &TabInfo) -> Result<Image, String> {
        let props = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&props, &"active".into(), &true.into());
        let updated = tabs::update(tab.tab_id, &props).await.map_err(|e| error_text(&e))?;
        let window_id = js_sys::Reflect::get(&updated, &"windowId".into()).ok().and_then(|w| w.as_f64()).unwrap_or(-2.0);
        let options = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&options, &"format".into(), &"jpeg".into());
        let _ = js_sys::Reflect::set(&options, &"quality".into(), &70.into());
        let url = tabs::capture_visible_tab(window_id as i32, &options).await.map_err(|e| error_text(&e))?;
        let url = url.as_string().unwrap_or_default();
        let data = url.split_once(";base64,").map(|(_, d)| d.to_string()).ok_or("the browser returned no image")?;
        Ok(Image::new("image/jpeg", data))
    }

    async fn scroll(&self, tab: &TabInfo, down: bool, screens: f64) -> Result<String, String> {
        let direction = if down { Direction::Down } else { Direction::Up };
        let amount = Some(screens.clamp(0.1, 10.0) * 800.0);
        match rpc(tab, ContentRequest::Scroll { target: Target::default(), direction, amount }).await? {
            ContentResponse::Action(r) if r.success => Ok(r.message),
            ContentResponse::Action(r) => Err(r.message),
            other => Err(other.unexpected()),
        }
    }

    async fn tab_exists(&self, tab: &TabInfo) -> bool {
        tabs::get(tab.tab_id).await.is_ok()
    }

    fn run_id(&self) -> String {
        store::run_id(self.window_id)
    }
}
