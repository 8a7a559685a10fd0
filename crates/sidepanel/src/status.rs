//! The status line every page shows: version and whether a provider is configured.

use crate::dom;
use dusk_chrome::i18n;
use dusk_core::protocol::{Status, WorkerRequest, WorkerResponse};
use wasm_bindgen::JsValue;
use web_sys::Element;

/// `$0.0123`, or "cost unknown" when no model involved has a known price (never a false $0).
pub fn cost_text(cost_usd: Option<f64>) -> String {
    cost_usd.map_or_else(|| i18n::message("costUnknown"), |c| format!("${c:.4}"))
}

pub async fn fetch() -> Result<Status, String> {
    match crate::worker::request(&WorkerRequest::GetStatus).await? {
        WorkerResponse::Status(status) => Ok(status),
        other => Err(format!("unexpected reply: {other:?}")),
    }
}

/// Renders the status box; a dead worker shows as a clear error, not a blank page.
pub async fn render(parent: &Element) -> Result<(), JsValue> {
    let boxed = dom::append(parent, "section", "status", "")?;
    boxed.set_id("status");
    match fetch().await {
        Ok(status) => {
            dom::append(&boxed, "div", "version", &format!("{} {}", i18n::message("version"), status.version))?;
            let provider = match &status.provider {
                Some(p) => format!("{} {p}", i18n::message("providerConfigured")),
                None => i18n::message("noProvider"),
            };
            let line = dom::append(&boxed, "div", "provider", &provider)?;
            line.set_attribute("data-configured", if status.provider_configured { "true" } else { "false" })?;
            if status.on_device {
                // Privacy shown, not claimed: the page's text goes to the browser's own model.
                let badge = dom::append_i18n(&boxed, "div", "on-device", "onThisDevice")?;
                badge.set_id("on-device-badge");
            }
        }
        Err(e) => {
            dom::append(&boxed, "div", "error", &format!("{} {e}", i18n::message("workerUnreachable")))?;
        }
    }
    Ok(())
}
