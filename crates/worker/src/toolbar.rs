//! The toolbar button per tab: core's badge for the tab's site and for runs acting on it.

use dusk_chrome::message::to_js;
use dusk_chrome::{action, i18n, tabs};
use dusk_core::dark::site::host_of;
use dusk_core::toolbar::badge;

pub async fn refresh(tab_id: i32) {
    let host = host_of(&crate::window_tabs::tab_url(tab_id).await).ok();
    let on = match &host {
        Some(h) => crate::stored::load_memory().await.is_on(h),
        None => false,
    };
    let working = crate::dark_agent::running::is_running(tab_id) || acting_on(tab_id);
    let b = badge(on, working);
    let title = i18n::message(b.title_key).replace("{host}", host.as_deref().unwrap_or("—"));
    // A tab closed meanwhile has nothing to update.
    let _ = action::set_for_tab(tab_id, b.text, b.color, &title).await;
}

#[cfg(feature = "agents")]
fn acting_on(tab_id: i32) -> bool {
    crate::browser_agent::current::is_acting_on(tab_id)
}

/// The dark-mode build runs no browser agent.
#[cfg(not(feature = "agents"))]
fn acting_on(_tab_id: i32) -> bool {
    false
}

pub fn refresh_soon(tab_id: i32) {
    wasm_bindgen_futures::spawn_local(refresh(tab_id));
}

/// After a choice that may change many tabs (a site switched, auto on or off).
pub fn refresh_all() {
    wasm_bindgen_futures::spawn_local(async {
        let Ok(list) = tabs::query(&to_js(&serde_json::json!({}))).await else { return };
        for tab in js_sys::Array::from(&list).iter() {
            if let Some(id) = js_sys::Reflect::get(&tab, &"id".into()).ok().and_then(|v| v.as_f64()) {
                refresh(id as i32).await;
            }
        }
    });
}
