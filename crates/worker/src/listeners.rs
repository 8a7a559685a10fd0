//! Which elements of a tab's page have their own click-like listener, asked of the browser through
//! `chrome.debugger` instead of a script in the page's world, which the page could detect
//! (docs/architecture.md, "Listener probe"). Attached on a tab's first listing, detached once
//! it has gone IDLE_MS without one. Never `Runtime.enable` or `Debugger.enable`: pages can notice those.

use dusk_chrome::debugger;
use dusk_chrome::message::{error_text, from_js, to_js};
use dusk_core::page::listeners::{clickable_nodes, EventListeners, PATHS_FUNCTION, ROOTS_EXPRESSION};
use dusk_core::protocol::caps::LISTENER_PATHS;
use js_sys::{Array, Promise, Reflect};
use serde_json::{json, Value};
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use wasm_bindgen_futures::JsFuture;

/// Keeps the debugger (and Chrome's "started debugging" bar) on through an agent's turns.
const IDLE_MS: u32 = 30_000;
/// Every remote object made for one query, released together.
const GROUP: &str = "dusk-listeners";

thread_local! {
    /// Tabs attached to, each with a count of its listings: a detach timer checks it has not moved.
    static ATTACHED: RefCell<BTreeMap<i32, u64>> = const { RefCell::new(BTreeMap::new()) };
    /// The user closed the debugging bar: Dusk does not attach again while this worker lives.
    static DECLINED: Cell<bool> = const { Cell::new(false) };
}

/// Chrome detached the debugger from a tab (worker.js, `chrome.debugger.onDetach`).
pub fn detached(tab_id: i32, reason: &str) {
    ATTACHED.with(|a| a.borrow_mut().remove(&tab_id));
    if reason == "canceled_by_user" {
        DECLINED.with(|d| d.set(true));
    }
}

/// Paths from the top document to each element with its own click-like listener
/// (`dusk_core::page::listeners`); Err when the debugger can't reach the page.
pub async fn click_listener_paths(tab_id: i32) -> Result<Vec<Vec<i32>>, String> {
    attach(tab_id).await?;
    let paths = query(tab_id).await;
    let _ = command(tab_id, "Runtime.releaseObjectGroup", json!({ "objectGroup": GROUP })).await;
    if paths.is_err() {
        ATTACHED.with(|a| a.borrow_mut().remove(&tab_id));
    }
    paths
}

async fn attach(tab_id: i32) -> Result<(), String> {
    if DECLINED.with(Cell::get) {
        return Err("the user stopped Dusk's debugging".into());
    }
    let known = ATTACHED.with(|a| a.borrow().contains_key(&tab_id));
    if !known {
        // "Already attached": this extension's, from a worker before this one.
        if let Err(e) = debugger::attach(tab_id).await.map_err(|e| error_text(&e)) {
            if !e.contains("already attached") {
                return Err(e);
            }
        }
    }
    let turn = ATTACHED.with(|a| {
        let mut a = a.borrow_mut();
        let n = a.entry(tab_id).or_insert(0);
        *n += 1;
        *n
    });
    wasm_bindgen_futures::spawn_local(async move {
        crate::fetch::sleep(IDLE_MS).await;
        if ATTACHED.with(|a| a.borrow().get(&tab_id) == Some(&turn)) {
            ATTACHED.with(|a| a.borrow_mut().remove(&tab_id));
            let _ = debugger::detach(tab_id).await;
        }
    });
    Ok(())
}

async fn query(tab_id: i32) -> Result<Vec<Vec<i32>>, String> {
    // A world of the debugger's own in the top frame: nothing run there is seen by the page.
    let tree = command(tab_id, "Page.getFrameTree", json!({})).await?;
    let frame = tree.pointer("/frameTree/frame/id").cloned().ok_or("no top frame")?;
    let world = command(tab_id, "Page.createIsolatedWorld", json!({ "frameId": frame, "worldName": "dusk" })).await?;
    let context = world.get("executionContextId").cloned().ok_or("no isolated world")?;
    // The page's own document, as the page's world holds it (listeners are asked of that world),
    // and its open shadow roots and same-origin frames' documents, found in the debugger's world.
    let doc = command(tab_id, "DOM.getDocument", json!({ "depth": 0 })).await?;
    let doc = command(tab_id, "DOM.resolveNode", json!({ "nodeId": doc.pointer("/root/nodeId"), "objectGroup": GROUP })).await?;
    let mut roots = vec![doc.pointer("/object/objectId").cloned().ok_or("no document")?];
    let found = command(tab_id, "Runtime.evaluate", json!({ "expression": ROOTS_EXPRESSION, "contextId": context, "objectGroup": GROUP })).await?;
    if let Some(array) = found.pointer("/result/objectId") {
        let items = command(tab_id, "Runtime.getProperties", json!({ "objectId": array, "ownProperties": true })).await?;
        let ids = items.get("result").and_then(Value::as_array).into_iter().flatten().filter(|p| p["name"].as_str().is_some_and(|n| n.parse::<u32>().is_ok()));
        let described = all(tab_id, "DOM.describeNode", ids.map(|p| json!({ "objectId": p.pointer("/value/objectId") })).collect()).await;
        let backend = described.iter().filter_map(|d| d.pointer("/node/backendNodeId").cloned());
        let resolved = all(tab_id, "DOM.resolveNode", backend.map(|id| json!({ "backendNodeId": id, "objectGroup": GROUP })).collect()).await;
        roots.extend(resolved.iter().filter_map(|r| r.pointer("/object/objectId").cloned()));
    }
    // Not `pierce`: it would do the roots in one call, but crashed renderers adding and removing frames.
    let per_root = all(tab_id, "DOMDebugger.getEventListeners", roots.iter().map(|id| json!({ "objectId": id, "depth": -1, "pierce": false })).collect()).await;
    let mut listeners = Vec::new();
    for found in per_root.into_iter().filter_map(|f| serde_json::from_value::<EventListeners>(f).ok()) {
        listeners.extend(found.listeners);
    }
    let mut nodes = clickable_nodes(&listeners);
    nodes.truncate(LISTENER_PATHS);
    if nodes.is_empty() {
        return Ok(vec![]);
    }
    let resolved =
        all(tab_id, "DOM.resolveNode", nodes.iter().map(|id| json!({ "backendNodeId": id, "executionContextId": context, "objectGroup": GROUP })).collect())
            .await;
    let args: Vec<Value> = resolved.iter().filter_map(|r| r.pointer("/object/objectId")).map(|id| json!({ "objectId": id })).collect();
    let call = json!({ "functionDeclaration": PATHS_FUNCTION, "executionContextId": context, "arguments": args, "returnByValue": true, "objectGroup": GROUP });
    let paths = command(tab_id, "Runtime.callFunctionOn", call).await?;
    serde_json::from_value(paths.pointer("/result/value").cloned().unwrap_or_default()).map_err(|e| e.to_string())
}

/// The same command with each of `params`, all in flight at once: the answers that came, in order.
async fn all(tab_id: i32, method: &str, params: Vec<Value>) -> Vec<Value> {
    let pending: Array = params.iter().filter_map(|p| debugger::command(tab_id, method, &to_js(p)).ok()).collect();
    let Ok(settled) = JsFuture::from(Promise::all_settled(&pending)).await else { return vec![] };
    Array::from(&settled)
        .iter()
        .filter_map(|s| Reflect::get(&s, &"value".into()).ok())
        .filter(|v| !v.is_undefined())
        .filter_map(|v| from_js::<Value>(v).ok())
        .collect()
}

async fn command(tab_id: i32, method: &str, params: Value) -> Result<Value, String> {
    let reply = debugger::send_command(tab_id, method, &to_js(&params)).await.map_err(|e| format!("{method}: {}", error_text(&e)))?;
    from_js(reply)
}
