//! The toolbar popup: dark mode for the current tab's site, auto for all sites, the engine
//! choice, the site's adjustments, the run card and the status box. `?tab=ID` picks the tab
//! (tests open the popup as a tab).

mod adjust;
mod run_card;

use crate::{dom, status};
use dusk_chrome::{i18n, message, runtime};
use dusk_core::dark::site::{Mode, Restriction};
use dusk_core::protocol::dark::{DarkContentRequest, DarkRequest, DarkResponse, PagePhase, TabDarkState, DARK_PORT};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use web_sys::{Element, HtmlElement, HtmlInputElement};

pub async fn render(body: &HtmlElement) -> Result<(), JsValue> {
    dom::append_i18n(body, "h1", "title", "popupTitle")?;
    let section = dom::append(body, "section", "dark", "")?;
    section.set_id("dark");
    let tab_id = tab_param();
    let state = ask(DarkRequest::DarkGetState { tab_id }).await;
    if let Ok(TabDarkState { tab_id: Some(id), host: Some(_), .. }) = &state {
        open_page_port(*id);
    }
    let follow = section.clone();
    wasm_bindgen_futures::spawn_local(async move { show_and_follow(&follow, state).await });
    open_chat_button(body).await?;
    status::render(body).await
}

/// The chat lives in the side panel; the toolbar button opens this popup, so link the two.
async fn open_chat_button(body: &HtmlElement) -> Result<(), JsValue> {
    let Ok(window_id) = dusk_chrome::windows::current_id().await else {
        return Ok(());
    };
    let button = dom::append_i18n(body, "button", "open-chat", "openChat")?;
    button.set_id("open-chat");
    dom::on(&button, "click", move || {
        if dusk_chrome::side_panel::open(window_id).is_ok() {
            if let Some(w) = web_sys::window() {
                let _ = w.close();
            }
        }
    })
}

thread_local! {
    /// A port to the tab's content script while the popup shows; closed when the page goes away.
    static PAGE_PORT: RefCell<Option<runtime::Port>> = const { RefCell::new(None) };
}

/// Opens the port the switch uses: a message on an open port reaches the page in one hop.
fn open_page_port(tab_id: i32) {
    let Ok(port) = dusk_chrome::tabs::connect(tab_id, DARK_PORT) else { return };
    let closed = Closure::<dyn FnMut()>::new(|| {
        // A page without our content script closes the port with lastError set; read it so Chrome logs nothing.
        let _ = runtime::take_last_error();
        PAGE_PORT.with(|p| p.borrow_mut().take());
    });
    port.on_disconnect().add_listener(closed.as_ref().unchecked_ref());
    closed.forget();
    PAGE_PORT.with(|p| *p.borrow_mut() = Some(port));
}

/// Sends `request` to the tab's page: over the open port, else as a one-off message.
pub(super) fn tell_page(tab_id: i32, request: &DarkContentRequest) {
    let message = message::to_js(request);
    let sent = PAGE_PORT.with(|p| p.borrow().as_ref().is_some_and(|port| port.post_message(&message).is_ok()));
    if !sent {
        wasm_bindgen_futures::spawn_local(async move {
            let _ = dusk_chrome::tabs::send_message(tab_id, &message).await;
        });
    }
}

/// The `tab` query parameter, when the popup is opened for a specific tab.
fn tab_param() -> Option<i32> {
    let search = web_sys::window()?.location().search().ok()?;
    search.trim_start_matches('?').split('&').find_map(|kv| kv.strip_prefix("tab=")?.parse().ok())
}

pub(super) async fn ask(request: DarkRequest) -> Result<TabDarkState, String> {
    let reply = runtime::send_message(&message::to_js(&request)).await.map_err(|e| message::error_text(&e))?;
    match message::from_js::<DarkResponse>(reply)? {
        DarkResponse::DarkState(s) => Ok(*s),
        DarkResponse::Error { message } => Err(message),
        DarkResponse::DarkCss { .. } | DarkResponse::FramesLoaded => Err("unexpected reply".into()),
    }
}

/// Re-renders the dark-mode section from a fresh state.
fn show(section: &Element, state: Result<TabDarkState, String>) -> Result<(), JsValue> {
    section.set_inner_html("");
    dom::append_i18n(section, "h2", "", "darkTitle")?;
    let state = match state {
        Ok(s) => s,
        Err(e) => {
            dom::append(section, "div", "error", &format!("{} {e}", i18n::message("darkError")))?;
            return Ok(());
        }
    };
    section.set_attribute("data-on", if state.on { "true" } else { "false" })?;
    match (&state.host, state.restriction) {
        (Some(host), _) => {
            dom::append(section, "div", "host", host)?.set_id("dark-host");
            let site = switch(section, "dark-site", "darkThisSite", state.on)?;
            let tab_id = state.tab_id;
            on_change(&site, move |on| async move {
                let Some(tab_id) = tab_id else { return Err("no tab".into()) };
                // The page hears it directly, so it changes without waiting on the worker's storage round trip.
                tell_page(tab_id, &DarkContentRequest::DarkSwitch { on });
                ask(DarkRequest::DarkSetSite { tab_id, on }).await
            })?;
            page_note(section, &state)?;
        }
        (None, restriction) => {
            let key = match restriction {
                Some(Restriction::WebStore) => "darkRestrictedStore",
                Some(Restriction::LocalFile) => "darkRestrictedFile",
                _ => "darkRestrictedBrowser",
            };
            dom::append_i18n(section, "p", "note restricted", key)?.set_id("dark-restricted");
        }
    }
    let tab_id = state.tab_id;
    let auto = switch(section, "dark-auto", "darkAllSites", state.auto)?;
    on_change(&auto, move |on| async move { ask(DarkRequest::DarkSetAuto { on, tab_id }).await })?;
    modes(section, &state)
}

/// What the page itself reports, when it is worth telling the user.
fn page_note(section: &Element, state: &TabDarkState) -> Result<(), JsValue> {
    let key = match (&state.page, state.on) {
        (Some(p), _) if p.phase == PagePhase::AlreadyDark => "darkAlreadyDark",
        (None, _) if state.page_busy => "darkPageBusy",
        (None, true) => "darkReload",
        _ => return Ok(()),
    };
    dom::append_i18n(section, "p", "note", key)?.set_id("dark-page-note");
    Ok(())
}

fn modes(section: &Element, state: &TabDarkState) -> Result<(), JsValue> {
    let group = dom::append(section, "fieldset", "modes", "")?;
    group.set_id("dark-mode");
    dom::append_i18n(&group, "legend", "", "darkModeLabel")?;
    let running = state.run.as_ref().is_some_and(|r| r.stage.is_running());
    let segments = dom::append(&group, "div", "segments", "")?;
    for (mode, key) in [(Mode::Instant, "darkModeInstantShort"), (Mode::Quick, "darkModeQuickShort"), (Mode::Thorough, "darkModeThoroughShort")] {
        let label = dom::append(&segments, "label", "mode", "")?;
        let input: HtmlInputElement = dom::document()?.create_element("input")?.dyn_into()?;
        input.set_type("radio");
        input.set_name("dark-mode");
        let value = serde_json::to_value(mode).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default();
        input.set_value(&value);
        input.set_checked(state.mode == mode);
        input.set_disabled((mode != Mode::Instant && !state.provider_configured) || running);
        label.append_child(&input)?;
        dom::append_i18n(&label, "span", "", key)?;
        let section = section.clone();
        let (tab_id, refine) = (state.tab_id, state.on && state.host.is_some());
        let had_version = state.version.is_some();
        let handler = Closure::<dyn FnMut()>::new(move || {
            let section = section.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let mut next = ask(DarkRequest::DarkSetMode { mode, tab_id }).await;
                if let (Some(tab_id), true) = (tab_id, refine) {
                    if mode != Mode::Instant {
                        next = ask(DarkRequest::DarkRefine { tab_id, mode }).await;
                    } else if had_version {
                        next = ask(DarkRequest::DarkBackToInstant { tab_id }).await;
                    }
                }
                show_and_follow(&section, next).await;
            });
        });
        input.add_event_listener_with_callback("change", handler.as_ref().unchecked_ref())?;
        handler.forget();
    }
    let desc = match state.mode {
        Mode::Instant => "darkModeInstantDesc",
        Mode::Quick => "darkModeQuickDesc",
        Mode::Thorough => "darkModeThoroughDesc",
    };
    dom::append_i18n(&group, "p", "mode-desc", desc)?.set_id("dark-mode-desc");
    if !state.provider_configured {
        dom::append_i18n(&group, "p", "note", "darkModeNoProvider")?.set_id("dark-mode-note");
    } else if state.mode != Mode::Instant && !state.on && state.host.is_some() {
        dom::append_i18n(&group, "p", "note", "darkTurnOn")?.set_id("dark-mode-note");
    }
    run_card::render(section, state)?;
    adjust::render(section, state)
}

/// Shows a state and, while a run goes, keeps asking the worker where it stands.
pub(super) async fn show_and_follow(section: &Element, state: Result<TabDarkState, String>) {
    let mut state = state;
    let mut shown: Option<Result<TabDarkState, String>> = None;
    loop {
        let tab_id = state.as_ref().ok().and_then(|s| s.tab_id);
        let running = state.as_ref().ok().and_then(|s| s.run.as_ref()).is_some_and(|r| r.stage.is_running());
        // Re-rendering an unchanged state would only replace the buttons under the user's pointer.
        if shown.as_ref() != Some(&state) {
            let _ = show(section, state.clone());
            shown = Some(state);
        }
        if !running || !section.is_connected() {
            return;
        }
        sleep(400).await;
        state = ask(DarkRequest::DarkGetState { tab_id }).await;
    }
}

/// A labelled checkbox switch.
fn switch(parent: &Element, id: &str, message_key: &str, checked: bool) -> Result<HtmlInputElement, JsValue> {
    let label = dom::append(parent, "label", "switch", "")?;
    let input: HtmlInputElement = dom::document()?.create_element("input")?.dyn_into()?;
    input.set_type("checkbox");
    input.set_id(id);
    input.set_checked(checked);
    label.append_child(&input)?;
    dom::append_i18n(&label, "span", "", message_key)?;
    Ok(input)
}

/// Sends the switch's new value and re-renders the section from the worker's answer.
fn on_change<F, Fut>(input: &HtmlInputElement, send: F) -> Result<(), JsValue>
where
    F: Fn(bool) -> Fut + 'static,
    Fut: std::future::Future<Output = Result<TabDarkState, String>> + 'static,
{
    let target = input.clone();
    let handler = Closure::<dyn FnMut()>::new(move || {
        let on = target.checked();
        let fut = send(on);
        let section = target.closest("#dark").ok().flatten();
        wasm_bindgen_futures::spawn_local(async move {
            let state = fut.await;
            let tab_id = state.as_ref().ok().and_then(|s| s.tab_id);
            let Some(section) = section else { return };
            let _ = show(&section, state);
            // The page applies the change on its own clock; ask again so its verdict (e.g. already dark) shows.
            sleep(400).await;
            let _ = show(&section, ask(DarkRequest::DarkGetState { tab_id }).await);
        });
    });
    input.add_event_listener_with_callback("change", handler.as_ref().unchecked_ref())?;
    handler.forget();
    Ok(())
}

async fn sleep(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        if let Some(w) = web_sys::window() {
            let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}
