//! The status line every page shows: version and whether a provider is configured.

use crate::dom;
use dusk_chrome::i18n;
use dusk_chrome::{message, runtime};
use dusk_core::llm::usage::{format_usd, group_digits};
use dusk_core::llm::ProviderKind;
use dusk_core::protocol::{Status, StatusReply, UsageTotals, WorkerRequest};
use wasm_bindgen::JsValue;
use web_sys::Element;

/// `$0.04`, or "cost unknown" when no model involved has a known price (never a false $0).
pub fn cost_text(cost_usd: Option<f64>) -> String {
    cost_usd.map_or_else(|| i18n::message("costUnknown"), format_usd)
}

/// "12 requests · 48,210 tokens in · 3,120 out · $0.04", in the UI's language.
pub fn usage_words(t: &UsageTotals) -> String {
    let requests = if t.requests == 1 { i18n::message("usageOneRequest") } else { i18n::message_with("usageRequests", &[&group_digits(t.requests)]) };
    let (input, output) = (group_digits(t.input_tokens), group_digits(t.output_tokens));
    i18n::message_with("usageLine", &[&requests, &input, &output, &cost_text(t.known_cost())])
}

/// Read as a [`StatusReply`], not a whole `WorkerResponse`: the popup's module stays small.
pub async fn fetch() -> Result<Status, String> {
    let reply = runtime::send_message(&message::to_js(&WorkerRequest::GetStatus)).await.map_err(|e| message::error_text(&e))?;
    match message::from_js::<StatusReply>(reply)? {
        StatusReply::Status(status) => Ok(status),
        StatusReply::Error { message } => Err(message),
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
                Some(p) => {
                    let name = ProviderKind::ALL.iter().find(|k| k.as_str() == p).map_or(p.as_str(), |k| k.display_name());
                    format!("{} {name}", i18n::message("providerConfigured"))
                }
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
