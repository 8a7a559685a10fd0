//! The toolbar popup: a header with the All sites switch; the site card (favicon, host, a large
//! switch and its reason line); the engine as a segmented radio group; the run and result card;
//! Adjust, folded; a footer with Open side panel, Settings and Help. `?tab=ID` picks the tab
//! (tests open the popup as a tab).

mod adjust;
mod run_card;
mod touches;

use crate::icons::{self, Icon};
use crate::{dom, status};
use dusk_chrome::{i18n, message, runtime};
use dusk_core::dark::site::{Mode, Restriction};
use dusk_core::protocol::dark::{DarkContentRequest, DarkRequest, DarkResponse, PagePhase, TabDarkState, DARK_PORT};
use std::cell::RefCell;
use touches::{note_touches, touches};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement, HtmlInputElement};

pub async fn render(body: &HtmlElement) -> Result<(), JsValue> {
    // The header and footer come first: the page shows its controls before the worker answers.
    let head = dom::append(body, "header", "popup-head", "")?;
    let title = dom::append(&head, "h1", "title", "")?;
    icons::append(&title, Icon::Moon)?;
    dom::append_i18n(&title, "span", "", "popupTitle")?;
    let auto = crate::switch::switch(&head, "dark-auto", "darkAllSites", false)?;
    auto.set_attribute("aria-busy", "true")?;
    let main = dom::append(body, "main", "popup-body", "")?;
    let section = dom::append(&main, "section", "dark", "")?;
    section.set_id("dark");
    section.set_attribute("aria-labelledby", "dark-title")?;
    footer(body)?;
    note_touches(body)?;
    bind_auto(&auto, &section)?;
    let tab_id = tab_param();
    let state = ask(DarkRequest::DarkGetState { tab_id }).await;
    if let Ok(TabDarkState { tab_id: Some(id), host: Some(_), .. }) = &state {
        open_page_port(*id);
    }
    let follow = section.clone();
    wasm_bindgen_futures::spawn_local(async move { show_and_follow(&follow, state).await });
    let badge_parent = main.clone();
    wasm_bindgen_futures::spawn_local(async move {
        if let Ok(s) = status::fetch().await {
            if s.on_device {
                if let Ok(b) = dom::append_i18n(&badge_parent, "p", "status on-device", "onThisDevice") {
                    b.set_id("on-device-badge");
                }
            }
        }
    });
    Ok(())
}

/// "Open side panel" on the left; Settings and Help on the right.
fn footer(body: &HtmlElement) -> Result<(), JsValue> {
    let foot = dom::append(body, "footer", "popup-foot", "")?;
    let open = dom::append(&foot, "button", "text", "")?;
    open.set_id("open-chat");
    icons::append(&open, Icon::Panel)?;
    dom::append_i18n(&open, "span", "", "openSidePanel")?;
    dom::on(&open, "click", move || {
        wasm_bindgen_futures::spawn_local(async move {
            let Ok(window_id) = dusk_chrome::windows::current_id().await else { return };
            if dusk_chrome::side_panel::open(window_id).is_ok() {
                if let Some(w) = web_sys::window() {
                    let _ = w.close();
                }
            }
        });
    })?;
    dom::append(&foot, "span", "spacer", "")?;
    let settings = icons::button(&foot, "open-options", Icon::Settings, &i18n::message("openSettings"))?;
    dom::on(&settings, "click", || {
        wasm_bindgen_futures::spawn_local(async {
            let _ = runtime::open_options_page().await;
        })
    })?;
    let help = icons::button(&foot, "open-help", Icon::Help, &i18n::message("helpButton"))?;
    dom::on(&help, "click", || {
        if let Some(w) = web_sys::window() {
            let _ = w.open_with_url_and_target(&runtime::get_url("options.html#about"), "_blank");
        }
    })
}

/// The header's "All sites" switch: every site dark unless turned off.
fn bind_auto(auto: &Element, section: &Element) -> Result<(), JsValue> {
    let section = section.clone();
    on_toggle(auto, move |on| {
        let section = section.clone();
        async move {
            let tab_id = current_tab(&section);
            ask(DarkRequest::DarkSetAuto { on, tab_id }).await
        }
    })
}

fn current_tab(section: &Element) -> Option<i32> {
    section.get_attribute("data-tab").and_then(|t| t.parse().ok()).or_else(tab_param)
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

/// Re-renders the dark-mode section from a fresh state: the site card, the engine, the run and
/// result card, then Adjust; the header's All sites switch follows the state too.
fn show(section: &Element, state: Result<TabDarkState, String>) -> Result<(), JsValue> {
    // Adjust stays open or closed as the user left it across redraws.
    let adjust_open = section.query_selector("#dark-adjust-fold")?.is_some_and(|d| d.has_attribute("open"));
    section.set_inner_html("");
    dom::append_i18n(section, "h2", "visually-hidden", "darkTitle")?.set_id("dark-title");
    let state = match state {
        Ok(s) => s,
        Err(e) => {
            dom::append(section, "div", "error", &format!("{} {e}", i18n::message("darkError")))?;
            return Ok(());
        }
    };
    if let Some(auto) = dom::document()?.get_element_by_id("dark-auto") {
        crate::switch::set_on(&auto, state.auto);
        auto.remove_attribute("aria-busy")?;
    }
    if let Some(id) = state.tab_id {
        section.set_attribute("data-tab", &id.to_string())?;
    }
    section.set_attribute("data-on", if state.on { "true" } else { "false" })?;
    let card = dom::append(section, "div", "site-card", "")?;
    card.set_id("site-card");
    card.set_attribute("data-on", if state.on && state.host.is_some() { "true" } else { "false" })?;
    let favicon = dom::append(&card, "img", "favicon", "")?;
    favicon.set_attribute("alt", "")?;
    favicon.set_attribute("src", "icons/16.png")?;
    if let Some(id) = state.tab_id {
        show_favicon(id, favicon);
    }
    let text = dom::append(&card, "div", "site-text", "")?;
    match (&state.host, state.restriction) {
        (Some(host), _) => {
            dom::append(&text, "div", "host", host)?.set_id("dark-host");
            let reason = dom::append_i18n(&text, "div", "reason", reason_key(&state))?;
            reason.set_id("dark-reason");
            let site = dom::append(&card, "button", "switch", "")?;
            site.set_id("dark-site");
            site.set_attribute("type", "button")?;
            site.set_attribute("role", "switch")?;
            site.set_attribute("aria-labelledby", "dark-host")?;
            site.set_attribute("aria-describedby", "dark-reason")?;
            crate::switch::set_on(&site, state.on);
            let tab_id = state.tab_id;
            on_toggle(&site, move |on| async move {
                let Some(tab_id) = tab_id else { return Err("no tab".into()) };
                // The page hears it directly, so it changes without waiting on the worker's storage round trip.
                tell_page(tab_id, &DarkContentRequest::DarkSwitch { on });
                ask(DarkRequest::DarkSetSite { tab_id, on }).await
            })?;
            page_note(section, &state)?;
        }
        (None, restriction) => {
            dom::append_i18n(&text, "div", "host", "darkThisPage")?.set_id("dark-host");
            dom::append_i18n(&text, "div", "reason", "darkReasonCantRun")?.set_id("dark-reason");
            let key = match restriction {
                Some(Restriction::WebStore) => "darkRestrictedStore",
                Some(Restriction::LocalFile) => "darkRestrictedFile",
                _ => "darkRestrictedBrowser",
            };
            dom::append_i18n(section, "p", "note restricted", key)?.set_id("dark-restricted");
        }
    }
    modes(section, &state)?;
    if let Some(fold) = section.query_selector("#dark-adjust-fold")? {
        fold.toggle_attribute_with_force("open", adjust_open)?;
    }
    Ok(())
}

/// The site card's reason line: On / Off / Can't run here / Already dark.
fn reason_key(state: &TabDarkState) -> &'static str {
    match (&state.page, state.on) {
        (Some(p), _) if p.phase == PagePhase::AlreadyDark => "darkReasonAlreadyDark",
        (_, true) => "darkReasonOn",
        (_, false) => "darkReasonOff",
    }
}

/// The tab's own favicon, when Chrome has one for it.
fn show_favicon(tab_id: i32, img: Element) {
    wasm_bindgen_futures::spawn_local(async move {
        let Ok(tab) = dusk_chrome::tabs::get(tab_id).await else { return };
        let url = js_sys::Reflect::get(&tab, &"favIconUrl".into()).ok().and_then(|v| v.as_string()).unwrap_or_default();
        if url.starts_with("data:image/") || url.starts_with("http://") || url.starts_with("https://") {
            let _ = img.set_attribute("src", &url);
        }
    });
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

/// Flips the switch at once, sends its new value and re-renders the section from the answer.
fn on_toggle<F, Fut>(switch: &Element, send: F) -> Result<(), JsValue>
where
    F: Fn(bool) -> Fut + 'static,
    Fut: std::future::Future<Output = Result<TabDarkState, String>> + 'static,
{
    let target = switch.clone();
    dom::on(switch, "click", move || {
        let on = target.get_attribute("aria-checked").as_deref() != Some("true");
        crate::switch::set_on(&target, on);
        let fut = send(on);
        let section = dom::document().ok().and_then(|d| d.get_element_by_id("dark"));
        let refocus = target.id();
        let seen = touches();
        wasm_bindgen_futures::spawn_local(async move {
            let state = fut.await;
            let tab_id = state.as_ref().ok().and_then(|s| s.tab_id);
            let Some(section) = section else { return };
            let _ = show(&section, state);
            keep_focus(&refocus);
            // The page applies the change on its own clock; ask again so its verdict (e.g. already dark) shows.
            sleep(400).await;
            // Unless the user has moved on: a redraw would take the control they are using from under them.
            if touches() != seen {
                return;
            }
            let _ = show(&section, ask(DarkRequest::DarkGetState { tab_id }).await);
            keep_focus(&refocus);
        });
    })
}

/// A redraw replaces the site switch; the focus goes back to its new self.
fn keep_focus(id: &str) {
    let Some(document) = dom::document().ok() else { return };
    let lost = document.active_element().is_none_or(|a| a.tag_name() == "BODY");
    if let (true, Some(el)) = (lost, document.get_element_by_id(id)) {
        let _ = el.dyn_into::<HtmlElement>().map(|e| e.focus());
    }
}

async fn sleep(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        if let Some(w) = web_sys::window() {
            let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}
