//! The window's tabs as the chat sees them.

use crate::window_tabs::query;
use dusk_core::chat::TabInfo;

/// Tabs a user may ask about: not Dusk's own pages.
pub async fn list(window_id: i32) -> Vec<TabInfo> {
    query(window_id).await.unwrap_or_default().into_iter().filter_map(|t| Some(TabInfo { tab_id: t.id?, title: t.title, url: t.url })).collect()
}

/// The active tab, unless it is one of Dusk's own pages.
pub async fn active(window_id: i32) -> Option<TabInfo> {
    query(window_id).await.unwrap_or_default().into_iter().find(|t| t.active).and_then(|t| Some(TabInfo { tab_id: t.id?, title: t.title, url: t.url }))
}
