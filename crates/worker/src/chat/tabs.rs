//! The window's tabs as the chat sees them.

use dusk_chrome::message::from_js;
use dusk_chrome::tabs;
use dusk_core::chat::TabInfo;
use serde::Deserialize;

#[derive(Deserialize)]
struct RawTab {
    id: Option<i32>,
    #[serde(default)]
    title: String,
    #[serde(default)]
    url: String,
    #[serde(default)]
    active: bool,
}

async fn query(window_id: i32) -> Vec<RawTab> {
    let info = js_sys::Object::new();
    if window_id >= 0 {
        let _ = js_sys::Reflect::set(&info, &"windowId".into(), &window_id.into());
    }
    match tabs::query(&info).await {
        Ok(v) => from_js::<Vec<RawTab>>(v).unwrap_or_default(),
        Err(_) => vec![],
    }
}

/// Tabs a user may ask about: not Dusk's own pages.
pub async fn list(window_id: i32) -> Vec<TabInfo> {
    query(window_id)
        .await
        .into_iter()
        .filter(|t| !t.url.starts_with(&dusk_chrome::runtime::get_url("")))
        .filter_map(|t| Some(TabInfo { tab_id: t.id?, title: t.title, url: t.url }))
        .collect()
}

/// The active tab, unless it is one of Dusk's own pages.
pub async fn active(window_id: i32) -> Option<TabInfo> {
    let own = dusk_chrome::runtime::get_url("");
    query(window_id)
        .await
        .into_iter()
        .find(|t| t.active && !t.url.starts_with(&own))
        .and_then(|t| Some(TabInfo { tab_id: t.id?, title: t.title, url: t.url }))
}
