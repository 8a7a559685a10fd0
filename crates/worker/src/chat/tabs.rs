//! The window's tabs as the chat sees them.

use crate::window_tabs::query;
use dusk_core::chat::TabInfo;

/// Tabs a user may ask about (not Dusk's own pages), and the active one among them, from one query.
pub struct WindowTabs {
    pub tabs: Vec<TabInfo>,
    pub active: Option<TabInfo>,
}

pub async fn window(window_id: i32) -> WindowTabs {
    let mut active = None;
    let tabs = query(window_id)
        .await
        .unwrap_or_default()
        .into_iter()
        .filter_map(|t| {
            let info = TabInfo { tab_id: t.id?, title: t.title, url: t.url };
            if t.active {
                active = Some(info.clone());
            }
            Some(info)
        })
        .collect();
    WindowTabs { tabs, active }
}

/// Tabs a user may ask about.
pub async fn list(window_id: i32) -> Vec<TabInfo> {
    window(window_id).await.tabs
}

/// The active tab, unless it is one of Dusk's own pages.
pub async fn active(window_id: i32) -> Option<TabInfo> {
    window(window_id).await.active
}

/// The text selected in the tab's frames (the first frame that has some), or "".
pub async fn selection(tab_id: i32) -> String {
    use js_sys::{Array, Object, Reflect};
    let target = Object::new();
    let _ = Reflect::set(&target, &"tabId".into(), &tab_id.into());
    let _ = Reflect::set(&target, &"allFrames".into(), &true.into());
    let injection = Object::new();
    let _ = Reflect::set(&injection, &"target".into(), &target);
    let _ = Reflect::set(&injection, &"func".into(), &Reflect::get(&js_sys::global(), &"duskSelection".into()).unwrap_or_default());
    let Ok(results) = dusk_chrome::scripting::execute_script(&injection).await else { return String::new() };
    Array::from(&results).iter().filter_map(|r| Reflect::get(&r, &"result".into()).ok()?.as_string()).find(|s| !s.trim().is_empty()).unwrap_or_default()
}
