//! The toolbar popup: dark mode for the current tab's site, auto for all sites, the engine
//! choice, and the status box. `?tab=ID` picks the tab (tests open the popup as a tab).

use crate::{dom, status};
use dusk_chrome::{i18n, message, runtime};
use dusk_core::dark::site::{Mode, Restriction};
use dusk_core::protocol::dark::{DarkContentRequest, DarkRequest, DarkResponse, PagePhase, RunStage, TabDarkState, DARK_PORT};
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
fn tell_page(tab_id: i32, request: &DarkContentRequest) {
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

async fn ask(request: DarkRequest) -> Result<TabDarkState, String> {
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
    run_box(section, state)?;
    version_box(section, state)
}

fn fill(template: &str, pairs: &[(&str, String)]) -> String {
    pairs.iter().fold(template.to_string(), |t, (k, v)| t.replace(&format!("{{{k}}}"), v))
}

fn percent(share: Option<f64>) -> String {
    share.map_or("–".into(), |s| format!("{:.1}%", s * 100.0))
}

/// The tab's Quick/Thorough run: its stage, the guard's AA, and Stop; totals once it ended.
fn run_box(section: &Element, state: &TabDarkState) -> Result<(), JsValue> {
    let (Some(run), Some(tab_id)) = (&state.run, state.tab_id) else { return Ok(()) };
    let el = dom::append(section, "div", "run", "")?;
    el.set_id("dark-run");
    el.set_attribute("data-stage", &serde_json::to_value(run.stage).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default())?;
    let stage = match run.stage {
        RunStage::Analyzing => i18n::message("darkStageAnalyzing"),
        RunStage::Generating => i18n::message("darkStageGenerating"),
        RunStage::Refining => fill(&i18n::message("darkStageRefining"), &[("n", run.turn.max(1).to_string()), ("m", run.of.to_string())]),
        RunStage::Done => i18n::message("darkStageDone"),
        RunStage::Failed => i18n::message("darkStageFailed"),
        RunStage::Stopped => i18n::message("darkStageStopped"),
    };
    dom::append(&el, "div", "stage", &stage)?.set_id("dark-run-stage");
    if run.aa_instant.is_some() {
        let aa = fill(&i18n::message("darkAa"), &[("before", percent(run.aa_instant)), ("after", percent(run.aa.or(run.aa_instant)))]);
        dom::append(&el, "div", "aa", &aa)?.set_id("dark-run-aa");
    }
    if let Some(m) = &run.message {
        dom::append(&el, "div", "message", m)?.set_id("dark-run-message");
    }
    if run.stage.is_running() {
        let stop = dom::append_i18n(&el, "button", "stop", "darkStop")?;
        stop.set_id("dark-stop");
        let section = section.clone();
        dom::on(&stop, "click", move || {
            let section = section.clone();
            wasm_bindgen_futures::spawn_local(async move { show_and_follow(&section, ask(DarkRequest::DarkStop { tab_id }).await).await });
        })?;
    } else {
        let stats = fill(
            &i18n::message("darkRunStats"),
            &[
                ("turns", run.turn.to_string()),
                ("tokens", (run.input_tokens + run.output_tokens).to_string()),
                ("cost", crate::status::cost_text(run.cost_usd)),
            ],
        );
        dom::append(&el, "div", "stats", &stats)?.set_id("dark-run-stats");
    }
    Ok(())
}

/// The site's active refinement, with Regenerate, Revert and Back to Instant.
fn version_box(section: &Element, state: &TabDarkState) -> Result<(), JsValue> {
    let (Some(tab_id), Some(_)) = (state.tab_id, &state.host) else { return Ok(()) };
    let running = state.run.as_ref().is_some_and(|r| r.stage.is_running());
    if state.versions == 0 && (state.mode == Mode::Instant || !state.on) {
        return Ok(());
    }
    let el = dom::append(section, "div", "version", "")?;
    el.set_id("dark-version");
    let text = match &state.version {
        Some(v) => {
            let mode = if v.mode == Mode::Thorough { "Thorough" } else { "Quick" };
            format!(
                "{} · {mode} · {} · AA {}",
                fill(&i18n::message("darkVersion"), &[("n", v.number.to_string()), ("m", state.versions.to_string())]),
                v.model,
                percent(Some(v.aa))
            )
        }
        None => i18n::message("darkModeInstant"),
    };
    // Labelled as the site's current version, so during a run it can't read as a fallback.
    dom::append(&el, "div", "label", &format!("{} {text}", i18n::message("darkCurrentVersion")))?.set_id("dark-version-label");
    let buttons = dom::append(&el, "div", "buttons", "")?;
    let regenerate_mode = if state.mode == Mode::Instant { Mode::Quick } else { state.mode };
    let actions: [(&str, &str, bool, DarkRequest); 3] = [
        ("dark-regenerate", "darkRegenerate", state.provider_configured && state.on && !running, DarkRequest::DarkRefine { tab_id, mode: regenerate_mode }),
        ("dark-revert", "darkRevert", state.version.is_some() && !running, DarkRequest::DarkRevert { tab_id }),
        ("dark-instant", "darkBackToInstant", state.version.is_some() && !running, DarkRequest::DarkBackToInstant { tab_id }),
    ];
    for (id, key, enabled, request) in actions {
        let button = dom::append_i18n(&buttons, "button", "", key)?;
        button.set_id(id);
        if !enabled {
            button.set_attribute("disabled", "")?;
        }
        let section = section.clone();
        dom::on(&button, "click", move || {
            let (section, request) = (section.clone(), request.clone());
            wasm_bindgen_futures::spawn_local(async move { show_and_follow(&section, ask(request).await).await });
        })?;
    }
    Ok(())
}

/// Shows a state and, while a run goes, keeps asking the worker where it stands.
async fn show_and_follow(section: &Element, state: Result<TabDarkState, String>) {
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
