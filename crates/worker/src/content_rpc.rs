//! One content-script RPC to a tab's top frame, the way every agent and the chat send them, with a
//! missing layer loaded first (`layer_load`). `text_snapshot` and `page_summary` need no layer: they are made here
//! from `page_text` and `page_facts`, and a page_summary (an agent starting) loads the page layer
//! in the background, since the agent's next reads and actions need it.

use crate::layer_load::{ask, inject, load_and_resend, load_once, load_page_layer, missing, page_layer_loading, send, send_raw};
use dusk_chrome::message::{from_js, long_text, to_js};
use dusk_core::page::listeners::ListenerChanges;
use dusk_core::page::snapshot::text_snapshot;
use dusk_core::page::summary::{facts_request, page_summary};
use dusk_core::page::text::{snapshot_chars, HEADING_SELECTOR};
use dusk_core::protocol::layer::{Layer, LayerHint};
use dusk_core::protocol::page::PageText;
use dusk_core::protocol::page_facts::PageFacts;
use dusk_core::protocol::{ContentRequest, ContentResponse};
use js_sys::{Promise, Reflect};
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;

/// The page's answer; its `error` replies, and a page that can't answer, are Err for the caller.
pub async fn rpc(tab_id: i32, request: &ContentRequest) -> Result<ContentResponse, String> {
    match *request {
        ContentRequest::TextSnapshot { token_budget } => {
            return Ok(ContentResponse::TextSnapshot(text_snapshot(&page_blocks(tab_id, snapshot_chars(token_budget)).await?, token_budget)));
        }
        ContentRequest::PageSummary { text_limit } => {
            let facts = page_facts(tab_id, text_limit).await?;
            if !facts.layer {
                // Not waited for: the agent's next reads and actions need it, after its model's answer.
                let _ = load_page_layer(tab_id, None);
            }
            // So is the debugger's first look for click listeners (attach, node lookups): its next
            // listing is quicker. Only the first: the gate reads a summary before every action,
            // and a whole-page lookup each time would hold up the listing after it.
            if !crate::listeners::attached(tab_id) && crate::debugger_choice::allowed().await {
                wasm_bindgen_futures::spawn_local(async move {
                    let _ = crate::listeners::click_listener_paths(tab_id).await;
                });
            }
            return Ok(ContentResponse::PageSummary(page_summary(facts, text_limit)));
        }
        _ => {}
    }
    hand_over_listeners(tab_id, request).await;
    match ask(tab_id, &to_js(request), request.hint()).await? {
        ContentResponse::Error { message } => Err(message),
        ContentResponse::LayerCrashed { error, .. } => Err(restart(tab_id, request, &error).await.unexpected()),
        other => Ok(other),
    }
}

/// After the page layer crashed answering `request`: loads a fresh one, and the error that says so.
async fn restart(tab_id: i32, request: &ContentRequest, error: &str) -> ContentResponse {
    request.crashed(error, load_once(tab_id, Layer::Page, None).await)
}

/// The error of a `layer_crashed` reply, read without decoding any other reply.
fn crash_error(reply: &JsValue) -> Option<String> {
    let tag = Reflect::get(reply, &"type".into()).ok().and_then(|t| t.as_string());
    if tag.as_deref() != Some("layer_crashed") {
        return None;
    }
    Reflect::get(reply, &"error".into()).ok().and_then(|e| e.as_string())
}

/// Before a listing: tells the page layer which elements have their own click listener, as the
/// debugger found them (crate::listeners). The layer says what was added since the last time, so
/// the debugger is asked about only that, or not at all. A page the debugger can't reach is listed without.
async fn hand_over_listeners(tab_id: i32, request: &ContentRequest) {
    if !matches!(request, ContentRequest::GetElements { .. }) || !crate::debugger_choice::allowed().await {
        return;
    }
    // One hand-over, whichever way the paths were found: each await of it is more code.
    if let Some((found, add)) = look_for_listeners(tab_id).await {
        hand_over(tab_id, found, add).await;
    }
}

/// The click listeners' paths to hand over (with `add`, beside the elements the layer keeps), or none.
async fn look_for_listeners(tab_id: i32) -> Option<(Result<JsValue, JsValue>, bool)> {
    // A layer missing or being loaded (an agent's page_summary starts it) is new to this
    // document: the whole page is looked at while it loads.
    let loading = match page_layer_loading(tab_id) {
        Some(loading) => loading,
        None => match send_raw(tab_id, &to_js(&ContentRequest::ListenerChanges)).await {
            Ok(reply) if missing::<ContentResponse>(&reply).is_some() => load_page_layer(tab_id, Some(LayerHint::FindShadowRoots)),
            Ok(reply) => return changed(tab_id, from_js(reply)).await,
            Err(_) => return None,
        },
    };
    let whole = whole_page_lookup(tab_id);
    let _ = JsFuture::from(loading).await;
    Some((JsFuture::from(whole).await, false))
}

/// Looks where the page layer's `listener_changes` says, or nowhere. A subtree lookup that
/// could not ask every subtree gives way to the whole page's, in the same listing.
async fn changed(tab_id: i32, changes: Result<ContentResponse, String>) -> Option<(Result<JsValue, JsValue>, bool)> {
    if let Ok(ContentResponse::ListenerChanges { changes: ListenerChanges { full: false, added } }) = changes {
        if added.is_empty() {
            crate::listeners::keep(tab_id);
            return None;
        }
        if let Ok(found) = crate::listeners::added_listener_paths(tab_id, &added).await {
            return Some((Ok(to_js(&found)), true));
        }
    }
    Some((JsFuture::from(whole_page_lookup(tab_id)).await, false))
}

/// The debugger's lookup of the whole page, started now.
fn whole_page_lookup(tab_id: i32) -> Promise {
    wasm_bindgen_futures::future_to_promise(async move {
        crate::listeners::click_listener_paths(tab_id).await.map(|paths| to_js(&paths)).map_err(|e| JsValue::from_str(&e))
    })
}

/// Gives the page layer what a lookup found (with `add`, beside the elements it keeps).
async fn hand_over(tab_id: i32, found: Result<JsValue, JsValue>, add: bool) {
    if let Some(paths) = found.ok().and_then(|p| from_js::<Vec<Vec<i32>>>(p).ok()) {
        let _ = ask::<ContentResponse>(tab_id, &to_js(&ContentRequest::ClickListeners { paths, add }), Some(LayerHint::FindShadowRoots)).await;
    }
}

/// The always-on script's measure of the page as boxes and blocks of text, which needs no layer.
/// A page whose script does not answer (a tab open from before Dusk, a document replaced since)
/// gets the script injected and is asked once more.
pub async fn page_blocks(tab_id: i32, max_chars: u32) -> Result<PageText, String> {
    let request = to_js(&ContentRequest::PageText { headings: HEADING_SELECTOR.into(), max_chars: Some(max_chars), blocks: true, as_text: true });
    let reply = match crate::read_port::ask(tab_id, &request).await {
        Some(reply) => reply,
        None => {
            let reply = match send_raw(tab_id, &request).await {
                Ok(reply) => reply,
                Err(_) => {
                    inject(tab_id, &0.into(), ALWAYS_ON_SCRIPT).await.map_err(|e| {
                        format!("Dusk's script can't run in this page ({e}); Chrome lets no extension read pages like chrome:// and the Web Store")
                    })?;
                    send_raw(tab_id, &request).await?
                }
            };
            crate::read_port::open_soon(tab_id);
            reply
        }
    };
    let reply = match long_text(&reply) {
        Some(text) => dusk_core::protocol::page_text_reply(&text).map_err(|e| format!("malformed message: {e}"))?,
        None => from_js(reply)?,
    };
    match reply {
        ContentResponse::PageText(page) => Ok(page),
        ContentResponse::Error { message } => Err(message),
        other => Err(other.unexpected()),
    }
}

/// The always-on script, as the manifest names it.
const ALWAYS_ON_SCRIPT: &str = "content.js";

/// The always-on script's reads for a page_summary.
async fn page_facts(tab_id: i32, text_limit: u32) -> Result<PageFacts, String> {
    match send(tab_id, facts_request(text_limit)).await? {
        ContentResponse::PageFacts(facts) => Ok(*facts),
        other => Err(other.unexpected()),
    }
}

/// Any message as it comes back (for the tests' relay), loading a missing layer first. The
/// requests the worker answers itself (`made_by_worker`) go to [`rpc`] instead.
pub async fn relay(tab_id: i32, message: &JsValue) -> Result<JsValue, String> {
    let request = from_js::<ContentRequest>(message.clone()).ok();
    if let Some(request) = &request {
        hand_over_listeners(tab_id, request).await;
    }
    let reply = send_raw(tab_id, message).await?;
    let reply = match missing::<ContentResponse>(&reply) {
        Some(layer) => load_and_resend::<ContentResponse>(tab_id, layer, request.as_ref().and_then(|r| r.hint()), message).await?,
        None => reply,
    };
    match (request, crash_error(&reply)) {
        (Some(request), Some(error)) => Ok(to_js(&restart(tab_id, &request, &error).await)),
        _ => Ok(reply),
    }
}
