//! The overlay: element highlights, and a mask that blocks user input while an agent acts.
//! The mask expires on its own unless a heartbeat renews it, so it can't outlive a stopped agent,
//! an error or a restarted worker.

use crate::dom::{document, now_ms, top_rect};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};

const HOST_TAG: &str = "dusk-overlay";
pub const DEFAULT_TTL_MS: u32 = 5000;
const MAX_TTL_MS: u32 = 60_000;

const MASK_STYLE: &str = "position:fixed;inset:0;pointer-events:auto;cursor:progress;background:rgba(24,16,48,.12);\
box-shadow:inset 0 0 0 4px #7c5cff;display:flex;align-items:flex-end;justify-content:center;";
const BADGE_STYLE: &str = "margin:0 0 24px;padding:8px 16px;border-radius:999px;background:#1b1530;color:#fff;\
font:600 14px/1.4 system-ui,sans-serif;box-shadow:0 4px 16px rgba(0,0,0,.35);";
const STOP_STYLE: &str = "margin-left:12px;padding:2px 12px;border:0;border-radius:999px;background:#ff3d7f;color:#fff;\
font:600 13px/1.6 system-ui,sans-serif;cursor:pointer;";
const BOX_STYLE: &str = "position:fixed;pointer-events:none;outline:3px solid #ff3d7f;outline-offset:1px;\
background:rgba(255,61,127,.12);border-radius:2px;";
const LABEL_STYLE: &str = "position:absolute;left:0;top:-20px;padding:1px 6px;background:#ff3d7f;color:#fff;\
font:600 12px/18px system-ui,sans-serif;border-radius:3px;";

struct State {
    host: Option<(Element, web_sys::ShadowRoot)>,
    mask: Option<HtmlElement>,
    deadline: f64,
    timer: Option<Closure<dyn FnMut()>>,
    key_blocker: Option<Closure<dyn FnMut(web_sys::Event)>>,
}

thread_local! {
    static STATE: RefCell<State> = const { RefCell::new(State { host: None, mask: None, deadline: 0.0, timer: None, key_blocker: None }) };
}

/// The overlay's host: a closed shadow root so page CSS can't restyle it and page scripts can't see in.
fn root() -> Option<web_sys::ShadowRoot> {
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        if let Some((host, root)) = &s.host {
            if host.is_connected() {
                return Some(root.clone());
            }
            let parent = document().ok()?.document_element()?;
            parent.append_child(host).ok()?;
            return Some(root.clone());
        }
        let doc = document().ok()?;
        let host = doc.create_element(HOST_TAG).ok()?;
        let _ = host.set_attribute("style", "all:initial;position:fixed;inset:0;pointer-events:none;z-index:2147483647;");
        let init = web_sys::ShadowRootInit::new(web_sys::ShadowRootMode::Closed);
        let root = host.attach_shadow(&init).ok()?;
        doc.document_element()?.append_child(&host).ok()?;
        s.host = Some((host, root.clone()));
        Some(root)
    })
}

fn div(style: &str) -> Option<HtmlElement> {
    let el = document().ok()?.create_element("div").ok()?.dyn_into::<HtmlElement>().ok()?;
    let _ = el.set_attribute("style", style);
    Some(el)
}

#[inline(never)]
pub fn highlight(el: &Element, index: u32, duration_ms: u32) -> Result<(), String> {
    let root = root().ok_or("could not create the overlay")?;
    let r = top_rect(el);
    let style = format!("{BOX_STYLE}left:{}px;top:{}px;width:{}px;height:{}px;", r.x, r.y, r.width, r.height);
    let bx = div(&style).ok_or("could not create the highlight")?;
    if let Some(label) = div(LABEL_STYLE) {
        label.set_text_content(Some(&index.to_string()));
        let _ = bx.append_child(&label);
    }
    root.append_child(&bx).map_err(|_| "could not show the highlight")?;
    let remove = Closure::once_into_js(move || {
        bx.remove();
        prune();
    });
    let win = crate::dom::window()?;
    let _ = win.set_timeout_with_callback_and_timeout_and_arguments_0(remove.unchecked_ref(), duration_ms.min(MAX_TTL_MS) as i32);
    Ok(())
}

/// Shows (or renews) the mask; returns the milliseconds until it expires.
#[inline(never)]
pub fn mask(label: Option<&str>, ttl_ms: u32) -> Result<u32, String> {
    let ttl = ttl_ms.clamp(500, MAX_TTL_MS);
    let root = root().ok_or("could not create the overlay")?;
    let existing = STATE.with(|s| s.borrow().mask.clone());
    let mask = match existing {
        Some(m) => m,
        None => {
            let m = div(MASK_STYLE).ok_or("could not create the mask")?;
            let badge = div(BADGE_STYLE).ok_or("could not create the mask")?;
            let text = div("display:inline").ok_or("could not create the mask")?;
            let _ = badge.append_child(&text);
            if let Some(stop) = stop_button() {
                let _ = badge.append_child(&stop);
            }
            let _ = m.append_child(&badge);
            let _ = m.set_attribute("role", "status");
            root.append_child(&m).map_err(|_| "could not show the mask")?;
            STATE.with(|s| s.borrow_mut().mask = Some(m.clone()));
            block_keys(true);
            m
        }
    };
    if let Some(text) = mask.first_element_child().and_then(|badge| badge.first_element_child()) {
        text.set_text_content(Some(label.unwrap_or("Dusk is working on this page…")));
    }
    set_deadline(ttl);
    Ok(ttl)
}

/// The mask's Stop: asks the worker to stop the agent working in this tab (the worker knows the tab
/// from the sender, so a page can't stop another tab's run).
fn stop_button() -> Option<HtmlElement> {
    let button = document().ok()?.create_element("button").ok()?.dyn_into::<HtmlElement>().ok()?;
    let _ = button.set_attribute("style", STOP_STYLE);
    let _ = button.set_attribute("type", "button");
    button.set_text_content(Some("Stop"));
    let on_click = Closure::<dyn FnMut(web_sys::Event)>::new(|e: web_sys::Event| {
        if !e.is_trusted() {
            return;
        }
        let message = crate::dom::obj(&[("type", "agent_stop".into())]);
        wasm_bindgen_futures::spawn_local(async move {
            let _ = dusk_chrome::runtime::send_message(&message).await;
        });
    });
    let _ = button.add_event_listener_with_callback("click", on_click.as_ref().unchecked_ref());
    on_click.forget();
    Some(button)
}

/// Renews the mask's lifetime; does nothing when no mask is shown.
#[inline(never)]
pub fn heartbeat(ttl_ms: u32) -> u32 {
    if STATE.with(|s| s.borrow().mask.is_none()) {
        return 0;
    }
    let ttl = ttl_ms.clamp(500, MAX_TTL_MS);
    set_deadline(ttl);
    ttl
}

#[inline(never)]
pub fn unmask() {
    let mask = STATE.with(|s| {
        let mut s = s.borrow_mut();
        s.deadline = 0.0;
        s.mask.take()
    });
    if let Some(m) = mask {
        m.remove();
    }
    block_keys(false);
    // The run is over: its host element goes too, highlights and all, so the page keeps no trace.
    if let Some((host, _)) = STATE.with(|s| s.borrow_mut().host.take()) {
        host.remove();
    }
}

/// The host leaves the page once nothing is shown in it.
fn prune() {
    let empty = STATE.with(|s| {
        let s = s.borrow();
        s.mask.is_none() && s.host.as_ref().is_some_and(|(_, root)| root.child_element_count() == 0)
    });
    if empty {
        if let Some((host, _)) = STATE.with(|s| s.borrow_mut().host.take()) {
            host.remove();
        }
    }
}

pub fn remaining_ms() -> u32 {
    STATE.with(|s| {
        let s = s.borrow();
        if s.mask.is_none() {
            0
        } else {
            (s.deadline - now_ms()).max(0.0) as u32
        }
    })
}

fn set_deadline(ttl: u32) {
    STATE.with(|s| s.borrow_mut().deadline = now_ms() + f64::from(ttl));
    schedule(ttl);
}

/// One reusable timer callback: expire if past the deadline, else check again at the deadline.
fn schedule(delay: u32) {
    let Ok(win) = crate::dom::window() else { return };
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        if s.timer.is_none() {
            s.timer = Some(Closure::new(|| {
                let left = remaining_ms();
                if STATE.with(|s| s.borrow().mask.is_some()) {
                    if left == 0 {
                        unmask();
                    } else {
                        schedule(left);
                    }
                }
            }));
        }
        if let Some(t) = &s.timer {
            let _ = win.set_timeout_with_callback_and_timeout_and_arguments_0(t.as_ref().unchecked_ref(), delay as i32 + 20);
        }
    });
}

/// While masked, the user's own keystrokes are swallowed; the agent's synthetic ones are untrusted and pass.
fn block_keys(on: bool) {
    let Ok(win) = crate::dom::window() else { return };
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        if s.key_blocker.is_none() {
            s.key_blocker = Some(Closure::new(|e: web_sys::Event| {
                if e.is_trusted() && STATE.with(|s| s.borrow().mask.is_some()) {
                    e.prevent_default();
                    e.stop_immediate_propagation();
                }
            }));
        }
        if let Some(f) = &s.key_blocker {
            // Wheel and touch listeners on window are passive by default; ours must be able to cancel.
            let options = crate::dom::obj(&[("capture", true.into()), ("passive", false.into())]);
            for kind in ["keydown", "keypress", "keyup", "wheel", "touchmove"] {
                let f: &js_sys::Function = f.as_ref().unchecked_ref();
                let _ = if on {
                    win.add_event_listener_with_callback_and_add_event_listener_options(kind, f, options.unchecked_ref())
                } else {
                    win.remove_event_listener_with_callback_and_bool(kind, f, true)
                };
            }
        }
    });
}

/// Lets the agent's own hit-testing see through the mask for the duration of one action.
pub fn suspend(on: bool) {
    if let Some(m) = STATE.with(|s| s.borrow().mask.clone()) {
        let _ = m.style().set_property("pointer-events", if on { "none" } else { "auto" });
    }
}
