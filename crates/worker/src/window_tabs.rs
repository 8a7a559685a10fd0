//! A window's tabs as chrome.tabs.query reports them, Dusk's own pages left out.

use dusk_chrome::message::from_js;
use dusk_chrome::tabs;
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RawTab {
    pub id: Option<i32>,
    #[serde(default)]
    pub title: String,
    #[serde(default)]
    pub url: String,
    #[serde(default)]
    pub pending_url: Option<String>,
    #[serde(default)]
    pub active: bool,
    #[serde(default)]
    pub opener_tab_id: Option<i32>,
    #[serde(default)]
    pub status: Option<String>,
}

/// The window's tabs (every window's when `window_id` < 0), without Dusk's own pages.
pub async fn query(window_id: i32) -> Result<Vec<RawTab>, String> {
    let info = js_sys::Object::new();
    if window_id >= 0 {
        let _ = js_sys::Reflect::set(&info, &"windowId".into(), &window_id.into());
    }
    let list = tabs::query(&info).await.map_err(|e| dusk_chrome::message::error_text(&e))?;
    let own = dusk_chrome::runtime::get_url("");
    Ok(from_js::<Vec<RawTab>>(list)?.into_iter().filter(|t| !t.url.starts_with(&own)).collect())
}

/// The tab's URL, or "" where Chrome hides it (browser pages we have no host access to).
pub(crate) async fn tab_url(tab_id: i32) -> String {
    let Ok(tab) = tabs::get(tab_id).await else { return String::new() };
    js_sys::Reflect::get(&tab, &"url".into()).ok().and_then(|u| u.as_string()).unwrap_or_default()
}
