//! Routes dark-mode messages: per-site memory in chrome.storage.local, the pre-paint fallback
//! CSS registered for the sites that are on, and the tab state the popup shows.

use crate::console::web_sys_log;
use crate::stored::{load_memory, read};
use crate::window_tabs::tab_url;
use dusk_chrome::message::{error_text, to_js};
use dusk_chrome::{scripting, storage, tabs};
use dusk_core::dark::adjust::{Adjust, GLOBAL_KEY as ADJUST_KEY, SITES_KEY as ADJUST_SITES_KEY};
use dusk_core::dark::site::{host_of, is_dark_registration, match_pattern, Memory, Mode, Restriction, AUTO_KEY, MODE_KEY, SITES_KEY};
use dusk_core::protocol::dark::{DarkContentRequest, DarkContentResponse, DarkRequest, DarkResponse, PageDarkStatus, TabDarkState};
use dusk_core::protocol::layer::Layer;
use serde::Serialize;

/// A page that hangs its main thread must not hang the popup or the memory write.
const PAGE_STATUS_LIMIT_MS: u32 = 500;
/// Loading the dark layer into a big page takes longer than answering.
const LAYER_LOAD_LIMIT_MS: u32 = 2000;

pub async fn handle(request: DarkRequest, sender: &dusk_core::protocol::Sender) -> DarkResponse {
    let state = match request {
        DarkRequest::DarkFetchCss { url } => return crate::foreign_css::handle(url, sender).await,
        DarkRequest::DarkGetState { tab_id } => state_of(tab_id, None).await,
        DarkRequest::DarkSetSite { tab_id, on } => set_site(tab_id, on).await,
        DarkRequest::DarkSetAuto { on, tab_id } => set_auto(on, tab_id).await,
        DarkRequest::DarkSetMode { mode, tab_id } => set_mode(mode, tab_id).await,
        DarkRequest::DarkForgetSite { host } => forget_site(&host).await,
        DarkRequest::DarkSetAdjust { tab_id, site, adjust } => set_adjust(tab_id, site, adjust).await,
        DarkRequest::DarkLoadFrames => {
            let Some(tab) = sender.tab_id() else { return DarkResponse::Error { message: "not from a tab".into() } };
            return match crate::layer_load::load(tab, Layer::Dark).await {
                Ok(()) => DarkResponse::FramesLoaded,
                Err(message) => DarkResponse::Error { message },
            };
        }
        // What is left: Quick and Thorough.
        request => refinement(request).await,
    };
    match state {
        Ok(state) => DarkResponse::DarkState(Box::new(state)),
        Err(message) => DarkResponse::Error { message },
    }
}

/// Quick and Thorough: the runs and their versions, in the agents' build.
#[cfg(feature = "agents")]
async fn refinement(request: DarkRequest) -> Result<TabDarkState, String> {
    match request {
        DarkRequest::DarkRefine { tab_id, mode } => match crate::dark_agent::refine(tab_id, mode).await {
            Ok(()) => state_of(Some(tab_id), None).await,
            Err(e) => Err(e),
        },
        DarkRequest::DarkStop { tab_id } => {
            crate::dark_agent::stop(tab_id);
            state_of(Some(tab_id), None).await
        }
        DarkRequest::DarkRevert { tab_id } => match crate::dark_agent::revert(tab_id, false).await {
            Ok(()) => state_of(Some(tab_id), None).await,
            Err(e) => Err(e),
        },
        DarkRequest::DarkBackToInstant { tab_id } => match crate::dark_agent::revert(tab_id, true).await {
            Ok(()) => state_of(Some(tab_id), None).await,
            Err(e) => Err(e),
        },
        _ => Err("not a refinement".into()),
    }
}

/// The dark-mode build hands refinements to the agents' build (`handle_message`).
#[cfg(not(feature = "agents"))]
async fn refinement(_request: DarkRequest) -> Result<TabDarkState, String> {
    Err("refinements run in the agents' build".into())
}

pub(crate) async fn set_site(tab_id: i32, on: bool) -> Result<TabDarkState, String> {
    // The popup has told the page itself; every tab of the site follows the stored memory.
    let host = host_of(&tab_url(tab_id).await).map_err(|r| format!("this page can't be themed: {r:?}"))?;
    // The page answers once its switch frame is out: storage and registration work (every
    // renderer hears of it) then stays off that frame.
    let page = page_status(tab_id).await;
    let mut memory = load_memory().await;
    memory.set(&host, on);
    store(SITES_KEY, &memory.sites).await?;
    sync_registration(&memory).await;
    if on {
        spread(vec![match_pattern(&host)]);
    }
    crate::toolbar::refresh_all();
    // That answer came after the switch: it is the page's state now, so it is not asked twice.
    state_of(Some(tab_id), Some(page)).await
}

async fn forget_site(host: &str) -> Result<TabDarkState, String> {
    let mut memory = load_memory().await;
    memory.sites.remove(&host.to_ascii_lowercase());
    store(SITES_KEY, &memory.sites).await?;
    sync_registration(&memory).await;
    if memory.auto {
        spread(vec![match_pattern(host)]);
    }
    crate::toolbar::refresh_all();
    state_of(None, None).await
}

async fn set_auto(on: bool, tab_id: Option<i32>) -> Result<TabDarkState, String> {
    store(AUTO_KEY, &on).await?;
    sync_registration(&load_memory().await).await;
    if on {
        spread(vec!["<all_urls>".into()]);
    }
    crate::toolbar::refresh_all();
    state_of(tab_id, None).await
}

/// Stores the site's own adjustment (or the global one); every page of the site hears the change
/// from storage and rebuilds its theme, and its next document reads it with its memory.
async fn set_adjust(tab_id: Option<i32>, site: bool, adjust: Option<Adjust>) -> Result<TabDarkState, String> {
    let mut memory = load_memory().await;
    if site {
        let Some(tab_id) = tab_id else { return Err("no tab".into()) };
        let host = host_of(&tab_url(tab_id).await).map_err(|r| format!("this page can't be themed: {r:?}"))?;
        memory.adjust.set_site(&host, adjust);
        store(ADJUST_SITES_KEY, &memory.adjust.sites).await?;
    } else {
        memory.adjust.global = adjust.unwrap_or_default().clamped();
        store(ADJUST_KEY, &memory.adjust.global).await?;
    }
    // The next document's pre-paint fallback carries the new adjustment.
    sync_registration(&memory).await;
    state_of(tab_id, None).await
}

async fn set_mode(mode: Mode, tab_id: Option<i32>) -> Result<TabDarkState, String> {
    store(MODE_KEY, &mode).await?;
    state_of(tab_id, None).await
}

/// The tab's state; `page` is the page's answer if the caller already has it.
async fn state_of(tab_id: Option<i32>, page: Option<PageReply>) -> Result<TabDarkState, String> {
    let tab_id = match tab_id {
        Some(id) => Some(id),
        None => active_tab().await,
    };
    let url = match tab_id {
        Some(id) => tab_url(id).await,
        None => String::new(),
    };
    let memory = load_memory().await;
    let mode: Mode = read(MODE_KEY).await.and_then(|v| dusk_core::protocol::from_value(v).ok()).unwrap_or_default();
    let provider_configured = crate::stored::settings().await.provider_configured();
    let (host, restriction) = match host_of(&url) {
        Ok(h) => (Some(h), None),
        Err(r) => (None, Some(r)),
    };
    let reply = match (tab_id, &host, page) {
        (_, _, Some(known)) => known,
        (Some(id), Some(_), None) => page_status(id).await,
        _ => PageReply::Absent,
    };
    let (page, page_busy) = match reply {
        PageReply::Status(s) => (Some(s), false),
        PageReply::Busy => (None, true),
        PageReply::Absent => (None, false),
    };
    let adjust = host.as_deref().map_or(memory.adjust.global, |h| memory.adjust_for(h));
    let adjust_own = host.as_deref().is_some_and(|h| memory.adjust.has_own(h));
    let mut state = TabDarkState {
        tab_id,
        on: host.as_deref().is_some_and(|h| memory.is_on(h)),
        explicit: host.as_deref().is_some_and(|h| memory.sites.contains_key(h)),
        host,
        restriction: restriction.or_else(|| tab_id.is_none().then_some(Restriction::BrowserPage)),
        auto: memory.auto,
        mode,
        effective_mode: mode.effective(provider_configured),
        provider_configured,
        page,
        page_busy,
        adjust,
        adjust_own,
        adjust_global: memory.adjust.global,
        ..Default::default()
    };
    crate::dark_agent::add_to_state(&mut state).await;
    Ok(state)
}

/// What a tab's page said when asked for its status.
enum PageReply {
    Status(PageDarkStatus),
    /// Its content script is there but did not answer in time: the main thread is busy.
    Busy,
    /// No content script (not reloaded since install, or a page we can't reach).
    Absent,
}

async fn page_status(tab_id: i32) -> PageReply {
    let ask = || crate::fetch::within(PAGE_STATUS_LIMIT_MS, crate::layer_load::send(tab_id, DarkContentRequest::DarkStatus));
    let mut reply = ask().await;
    if let Some(Ok(DarkContentResponse::LayerMissing { layer })) = reply {
        // A switch needs the engine in the page: load it now, while the popup opens.
        if crate::fetch::within(LAYER_LOAD_LIMIT_MS, crate::layer_load::load(tab_id, layer)).await.is_none() {
            return PageReply::Busy;
        }
        reply = ask().await;
    }
    match reply {
        None => PageReply::Busy,
        Some(Ok(DarkContentResponse::DarkStatus(s))) => PageReply::Status(s),
        Some(_) => PageReply::Absent,
    }
}

async fn active_tab() -> Option<i32> {
    let query = to_js(&serde_json::json!({"active": true, "lastFocusedWindow": true}));
    let list = tabs::query(&query).await.ok()?;
    let first = js_sys::Reflect::get(&list, &0.into()).ok()?;
    js_sys::Reflect::get(&first, &"id".into()).ok()?.as_f64().map(|n| n as i32)
}

async fn store<T: Serialize>(key: &str, value: &T) -> Result<(), String> {
    storage::local_set(key, &to_js(value)).await.map_err(|e| error_text(&e))
}

/// Loads the dark layer into open tabs matching `patterns` that lack it, so they switch now;
/// pages opened later get it from the registration.
fn spread(patterns: Vec<String>) {
    wasm_bindgen_futures::spawn_local(async move {
        let Ok(list) = tabs::query(&to_js(&serde_json::json!({ "url": patterns }))).await else { return };
        for tab in js_sys::Array::from(&list).iter() {
            if let Some(id) = js_sys::Reflect::get(&tab, &"id".into()).ok().and_then(|v| v.as_f64()) {
                let _ = crate::layer_load::load(id as i32, Layer::Dark).await;
            }
        }
    });
}

/// Registers the dark layer and its fallback CSS for exactly the sites that are dark, each with
/// its adjustment's fallback files; Chromium injects them pre-paint.
pub async fn sync_registration(memory: &Memory) {
    unregister_ours().await;
    let scripts: Vec<serde_json::Value> = memory
        .registrations()
        .into_iter()
        .map(|reg| {
            serde_json::json!({
                "id": reg.id,
                "matches": reg.matches,
                "excludeMatches": reg.exclude_matches,
                "css": reg.css,
                "js": [Layer::Dark.file()],
                "runAt": "document_start",
                "allFrames": true,
                // about:blank, srcdoc and blob frames of a dark site, which carry its origin.
                "matchOriginAsFallback": true,
                "persistAcrossSessions": true,
            })
        })
        .collect();
    if scripts.is_empty() {
        return;
    }
    let scripts = to_js(&scripts);
    if let Err(e) = scripting::register_content_scripts(&scripts).await {
        // A concurrent sync may have registered first; replace it with ours.
        unregister_ours().await;
        if scripting::register_content_scripts(&scripts).await.is_err() {
            web_sys_log(&format!("dusk: could not register the dark fallback: {}", error_text(&e)));
        }
    }
}

/// Unregisters every dark-layer registration (not the customisations').
async fn unregister_ours() {
    let Ok(list) = scripting::get_registered_content_scripts().await else { return };
    let ids: Vec<String> = js_sys::Array::from(&list)
        .iter()
        .filter_map(|s| js_sys::Reflect::get(&s, &"id".into()).ok()?.as_string())
        .filter(|id| is_dark_registration(id))
        .collect();
    if !ids.is_empty() {
        let _ = scripting::unregister_content_scripts(&to_js(&serde_json::json!({ "ids": ids }))).await;
    }
}
