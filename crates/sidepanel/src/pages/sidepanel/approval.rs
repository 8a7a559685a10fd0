//! The approval card, inline on warning-container: what will happen in words (written by core,
//! in the UI's language), where, why Dusk asks, then the crop and Deny / Allow. Allow never
//! takes the default focus: the card does, so a stray Enter approves nothing.

use super::connection::Connection;
use crate::dom;
use dusk_chrome::i18n;
use dusk_core::browser_agent::card::what_will_happen;
use dusk_core::browser_agent::session::dialogs::DIALOG_TOOL;
use dusk_core::protocol::actions::FilePayload;
use dusk_core::protocol::{AgentPortEvent, AgentPortRequest, ConfirmCard};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Element, HtmlElement, HtmlInputElement};

type Conn = Connection<AgentPortRequest, AgentPortEvent>;

pub fn render(log: &Element, card: ConfirmCard, window_id: i32, conn: Conn) -> Result<Element, JsValue> {
    let r = &card.request;
    let el = dom::append(log, "div", "confirm-card", "")?;
    el.set_attribute("role", "alertdialog")?;
    el.set_attribute("tabindex", "-1")?;
    el.set_attribute("aria-labelledby", &format!("confirm-title-{}", r.step))?;
    el.set_attribute("aria-describedby", &format!("confirm-action-{}", r.step))?;
    el.set_attribute("data-run-id", &r.run_id)?;
    el.set_attribute("data-step", &r.step.to_string())?;
    el.set_attribute("data-digest", &r.digest)?;
    el.set_attribute("data-tool", &r.tool)?;
    // A page's dialog is answered, not approved: its own title, an answer box for a prompt, and its buttons.
    let dialog = (r.tool == DIALOG_TOOL).then(|| r.arguments.get("kind").and_then(|k| k.as_str()).unwrap_or_default().to_string());
    let title = if dialog.is_some() { "agentDialogTitle" } else { "agentConfirmTitle" };
    dom::append_i18n(&el, "div", "confirm-title", title)?.set_id(&format!("confirm-title-{}", r.step));
    let action = dom::append(&el, "div", "confirm-action", "")?;
    action.set_id(&format!("confirm-action-{}", r.step));
    dom::append(&action, "span", "visually-hidden", &format!("{} ", i18n::message("agentWillHappen")))?;
    dom::append(&action, "span", "confirm-sentence", &what_will_happen(r, &i18n::ui_language()))?;
    if let Some(t) = &r.target {
        let text = if t.text.is_empty() { format!("[{}] {}", t.index, t.tag) } else { format!("“{}” ({})", t.text, t.tag) };
        dom::append(&el, "div", "confirm-target", &text)?;
    }
    if let Some(page) = &r.page {
        dom::append(&el, "div", "confirm-page", &format!("{} {page}", i18n::message("agentConfirmWhere")))?;
    }
    if !r.reasons.is_empty() {
        dom::append(&el, "div", "confirm-reasons", &format!("{} {}", i18n::message("agentConfirmWhy"), r.reasons.join("; ")))?;
    }
    if let Some(detail) = &r.detail {
        dom::append(&el, "pre", "confirm-code", detail)?;
    }
    if let Some(crop) = &card.crop {
        let img = dom::append(&el, "img", "confirm-crop", "")?;
        img.set_attribute("src", crop)?;
        img.set_attribute("alt", &i18n::message("agentCropAlt"))?;
    }
    let picker: Option<HtmlInputElement> = if card.upload {
        let label = dom::append_i18n(&el, "label", "confirm-file", "agentPickFile")?;
        let input: HtmlInputElement = dom::append(&label, "input", "", "")?.dyn_into()?;
        input.set_type("file");
        Some(input)
    } else {
        None
    };
    let typed: Option<HtmlInputElement> = if dialog.as_deref() == Some("prompt") {
        let label = dom::append_i18n(&el, "label", "confirm-answer", "agentDialogAnswer")?;
        let input: HtmlInputElement = dom::append(&label, "input", "", "")?.dyn_into()?;
        input.set_type("text");
        input.set_value(r.arguments.get("default_prompt").and_then(|v| v.as_str()).unwrap_or_default());
        Some(input)
    } else {
        None
    };
    let buttons = dom::append(&el, "div", "confirm-buttons", "")?;
    let (deny_label, approve_label) = match dialog.as_deref() {
        Some("beforeunload") => ("agentDialogStay", "agentDialogLeave"),
        Some(_) => ("agentDialogCancel", "agentDialogOk"),
        // A save of the site's CSS or JS is the user's Save click.
        None if r.tool.starts_with("save_site") => ("agentDeny", "customizeSave"),
        None => ("agentDeny", "agentApprove"),
    };
    let deny = dom::append_i18n(&buttons, "button", "deny", deny_label)?;
    // An alert has one answer.
    if dialog.as_deref() == Some("alert") {
        deny.set_attribute("hidden", "")?;
    }
    let approve = dom::append_i18n(&buttons, "button", "approve primary", approve_label)?;
    {
        let (conn, card) = (conn.clone(), card.clone());
        dom::on(&approve, "click", move || {
            let (conn, card, picker, typed) = (conn.clone(), card.clone(), picker.clone(), typed.clone());
            wasm_bindgen_futures::spawn_local(async move {
                let files = match &picker {
                    Some(p) => read_files(p).await.unwrap_or_default(),
                    None => vec![],
                };
                let r = &card.request;
                let _ = conn.send(&AgentPortRequest::Approve {
                    window_id,
                    run_id: r.run_id.clone(),
                    step: r.step,
                    digest: r.digest.clone(),
                    token: card.token.clone(),
                    files,
                    text: typed.map(|t| t.value()),
                });
            });
        })?;
    }
    let request = card.request.clone();
    let token = card.token.clone();
    dom::on(&deny, "click", move || {
        let _ = conn.send(&AgentPortRequest::Deny { window_id, run_id: request.run_id.clone(), step: request.step, token: token.clone() });
    })?;
    if let Some(card) = el.dyn_ref::<HtmlElement>() {
        let _ = card.focus();
    }
    Ok(el)
}

/// The picked files as base64 (at most 5 MB in all, as the page will check again).
async fn read_files(input: &HtmlInputElement) -> Result<Vec<FilePayload>, JsValue> {
    let mut out = Vec::new();
    let Some(files) = input.files() else { return Ok(out) };
    let window = web_sys::window().ok_or("no window")?;
    for i in 0..files.length() {
        let Some(file) = files.get(i) else { continue };
        let buffer = JsFuture::from(file.array_buffer()).await?;
        let bytes = js_sys::Uint8Array::new(&buffer).to_vec();
        let binary: String = bytes.iter().map(|&b| b as char).collect();
        out.push(FilePayload { name: file.name(), mime: file.type_(), base64: window.btoa(&binary)? });
    }
    Ok(out)
}
