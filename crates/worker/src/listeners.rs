//! Which elements of a tab's page have their own click-like listener, asked of the browser through
//! `chrome.debugger` instead of a script in the page's world, which the page could detect
//! (docs/architecture.md, "Listener probe"). Attached on a tab's first listing, detached once
//! it has gone IDLE_MS without one. Never `Runtime.enable` or `Debugger.enable`: pages can notice those.

use dusk_chrome::debugger;
use dusk_chrome::message::{error_text, from_js, to_js};
use dusk_core::page::listeners::{clickable_nodes, flatten, EventListener, EventListeners, PATHS_FUNCTION, RESOLVE_FUNCTION, ROOTS_EXPRESSION};
use dusk_core::protocol::caps::LISTENER_PATHS;
use js_sys::{Array, Promise, Reflect};
use serde_json::{json, Value};
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;

/// Keeps the debugger (and Chrome's "started debugging" bar) on through an agent's turns.
const IDLE_MS: u32 = 30_000;
/// The remote objects made for one query, released together after it (each query its own group).
const GROUP: &str = "dusk-listeners";
/// The longest a lookup waits for the one before it in the same tab.
const WAIT_MS: u32 = 3_000;
/// The listener nodes, kept from one listing to the next: resolving each costs a round trip.
const HELD: &str = "dusk-held";

/// A tab the debugger is attached to.
#[derive(Default)]
struct Session {
    /// Listings so far: a detach timer checks it has not moved.
    turn: u64,
    /// The debugger's world in the top document, the document as the page's world holds it, and
    /// the listener nodes resolved in the debugger's world.
    world: Option<Value>,
    doc: Option<Value>,
    held: BTreeMap<i64, Value>,
}

thread_local! {
    static SESSIONS: RefCell<BTreeMap<i32, Session>> = const { RefCell::new(BTreeMap::new()) };
    /// The user closed the debugging bar: Dusk does not attach again while this worker lives.
    static DECLINED: Cell<bool> = const { Cell::new(false) };
    /// The lookup under way in each tab: the next waits for it. Two at once (an agent's warm-up
    /// lookup and its first listing) released each other's objects and replaced each other's
    /// world, and the subtree lookup then found no listeners (a MiniWoB inbox's rows).
    static UNDER_WAY: RefCell<BTreeMap<i32, Promise>> = const { RefCell::new(BTreeMap::new()) };
    static QUERIES: Cell<u32> = const { Cell::new(0) };
}

/// Paths to elements with a click listener, or why the debugger could not find them.
type Lookup<'a> = std::pin::Pin<Box<dyn std::future::Future<Output = Result<Vec<Vec<i32>>, String>> + 'a>>;

/// Runs `lookup` once the tab's lookup under way (if any) has ended. Boxed, so the waiting is
/// compiled once, not once per kind of lookup.
async fn one_at_a_time(tab_id: i32, lookup: Lookup<'_>) -> Result<Vec<Vec<i32>>, String> {
    let mut finish = None;
    let done = Promise::new(&mut |resolve, _| finish = Some(resolve));
    if let Some(before) = UNDER_WAY.with(|u| u.borrow_mut().insert(tab_id, done.clone())) {
        // Not forever: a debugger command that never answers must not hold every later listing.
        let _ = crate::fetch::within(WAIT_MS, JsFuture::from(before)).await;
    }
    let out = lookup.await;
    if let Some(finish) = finish {
        let _ = finish.call0(&JsValue::NULL);
    }
    UNDER_WAY.with(|u| {
        let mut u = u.borrow_mut();
        if u.get(&tab_id).is_some_and(|p| js_sys::Object::is(p, &done)) {
            u.remove(&tab_id);
        }
    });
    out
}

/// A fresh object group for one query: releasing it can't touch another query's objects.
fn query_group() -> String {
    let n = QUERIES.with(|q| {
        q.set(q.get().wrapping_add(1));
        q.get()
    });
    format!("{GROUP}-{n}")
}

/// Releases a query's objects; not waited for: the listing need not wait on the cleanup.
fn release_group(tab_id: i32, group: String) {
    wasm_bindgen_futures::spawn_local(async move {
        let _ = command(tab_id, "Runtime.releaseObjectGroup", json!({ "objectGroup": group })).await;
    });
}

/// Chrome detached the debugger from a tab (worker.js, `chrome.debugger.onDetach`).
pub fn detached(tab_id: i32, reason: &str) {
    SESSIONS.with(|s| s.borrow_mut().remove(&tab_id));
    if reason == "canceled_by_user" {
        DECLINED.with(|d| d.set(true));
    }
}

/// The debugger is attached to the tab, or a lookup there is under way.
pub fn attached(tab_id: i32) -> bool {
    SESSIONS.with(|s| s.borrow().contains_key(&tab_id)) || UNDER_WAY.with(|u| u.borrow().contains_key(&tab_id))
}

/// A run has ended: the debugger leaves its tab now, not after the idle wait.
pub async fn release(tab_id: i32) {
    if SESSIONS.with(|s| s.borrow_mut().remove(&tab_id)).is_some() {
        let _ = debugger::detach(tab_id).await;
    }
}

/// The debugger was switched off in Options: it leaves every tab now.
pub async fn release_all() {
    let tabs: Vec<i32> = SESSIONS.with(|s| std::mem::take(&mut *s.borrow_mut()).into_keys().collect());
    for tab_id in tabs {
        let _ = debugger::detach(tab_id).await;
    }
}

/// Paths from the top document to each element with its own click-like listener
/// (`dusk_core::page::listeners`); Err when the debugger can't reach the page.
pub async fn click_listener_paths(tab_id: i32) -> Result<Vec<Vec<i32>>, String> {
    one_at_a_time(tab_id, Box::pin(whole(tab_id))).await
}

async fn whole(tab_id: i32) -> Result<Vec<Vec<i32>>, String> {
    attach(tab_id).await?;
    let group = query_group();
    let paths = query(tab_id, &group).await;
    release_group(tab_id, group);
    if paths.is_err() {
        // Attached afresh next time, with nothing held.
        SESSIONS.with(|s| s.borrow_mut().remove(&tab_id));
    }
    paths
}

async fn attach(tab_id: i32) -> Result<(), String> {
    if DECLINED.with(Cell::get) {
        return Err("the user stopped Dusk's debugging".into());
    }
    if !crate::debugger_choice::allowed().await {
        return Err("the debugger is switched off in Options".into());
    }
    if SESSIONS.with(|s| !s.borrow().contains_key(&tab_id)) {
        // "Already attached": this extension's, from a worker before this one.
        if let Err(e) = debugger::attach(tab_id).await.map_err(|e| error_text(&e)) {
            if !e.contains("already attached") {
                return Err(e);
            }
        }
        let _ = command(tab_id, "Runtime.releaseObjectGroup", json!({ "objectGroup": HELD })).await;
    }
    SESSIONS.with(|s| {
        s.borrow_mut().entry(tab_id).or_default();
    });
    keep(tab_id);
    Ok(())
}

/// A listing of the tab: the debugger (if attached) stays on until IDLE_MS after the last one.
pub fn keep(tab_id: i32) {
    let Some(turn) = SESSIONS.with(|s| {
        s.borrow_mut().get_mut(&tab_id).map(|session| {
            session.turn += 1;
            session.turn
        })
    }) else {
        return;
    };
    wasm_bindgen_futures::spawn_local(async move {
        crate::fetch::sleep(IDLE_MS).await;
        if SESSIONS.with(|s| s.borrow().get(&tab_id).map(|s| s.turn) == Some(turn)) {
            SESSIONS.with(|s| s.borrow_mut().remove(&tab_id));
            let _ = debugger::detach(tab_id).await;
        }
    });
}

/// Paths to the elements with their own click-like listener in the subtrees at `roots` (paths
/// from the page layer's `listener_changes`): only those subtrees are asked about. Err when any
/// subtree that is still there could not be asked (the caller then looks at the whole page).
pub async fn added_listener_paths(tab_id: i32, roots: &[Vec<i32>]) -> Result<Vec<Vec<i32>>, String> {
    one_at_a_time(tab_id, Box::pin(subtrees(tab_id, roots))).await
}

async fn subtrees(tab_id: i32, roots: &[Vec<i32>]) -> Result<Vec<Vec<i32>>, String> {
    attach(tab_id).await?;
    let world = match SESSIONS.with(|s| s.borrow().get(&tab_id).and_then(|s| s.world.clone())) {
        Some(world) => world,
        None => setup(tab_id).await?.0,
    };
    let group = query_group();
    let paths = added(tab_id, &world, roots, &group).await;
    release_group(tab_id, group);
    if paths.is_err() {
        SESSIONS.with(|s| s.borrow_mut().remove(&tab_id));
    }
    paths
}

async fn added(tab_id: i32, world: &Value, roots: &[Vec<i32>], group: &str) -> Result<Vec<Vec<i32>>, String> {
    // The subtrees, each found from the debugger's own world (the page's world is never run in).
    let calls = roots.iter().map(|p| json!({ "functionDeclaration": RESOLVE_FUNCTION, "executionContextId": world, "arguments": [{ "value": flatten(std::slice::from_ref(p)) }], "objectGroup": group }));
    let found = all_keyed(tab_id, "Runtime.callFunctionOn", calls.collect()).await;
    if found.iter().any(Option::is_none) {
        return Err("the debugger's world is gone".into());
    }
    // A subtree removed since the page layer named it has no node (undefined): nothing to ask.
    let ids: Vec<&Value> = found.iter().flatten().filter_map(|f| f.pointer("/result/objectId")).collect();
    let described = all(tab_id, "DOM.describeNode", ids.iter().map(|id| json!({ "objectId": id })).collect()).await;
    let backend = described.iter().filter_map(|d| d.pointer("/node/backendNodeId").cloned());
    // Listeners are asked of each node as the page's own world holds it.
    let resolved = all(tab_id, "DOM.resolveNode", backend.map(|id| json!({ "backendNodeId": id, "objectGroup": group })).collect()).await;
    let subtrees: Vec<Value> = resolved.iter().filter_map(|r| r.pointer("/object/objectId").cloned()).collect();
    let asked = subtrees.len();
    let listeners = listeners_of(tab_id, subtrees).await;
    if asked < ids.len() || listeners.len() < asked {
        return Err("a subtree's listeners could not be read".into());
    }
    let mut nodes = clickable_nodes(&listeners.into_iter().flatten().collect::<Vec<_>>());
    nodes.truncate(LISTENER_PATHS);
    if nodes.is_empty() {
        return Ok(vec![]);
    }
    let params = nodes.iter().map(|id| json!({ "backendNodeId": id, "executionContextId": world, "objectGroup": group })).collect();
    let args: Vec<Value> =
        all(tab_id, "DOM.resolveNode", params).await.iter().filter_map(|r| r.pointer("/object/objectId")).map(|o| json!({ "objectId": o })).collect();
    if args.len() < nodes.len() {
        return Err("a listener's node could not be resolved".into());
    }
    let call = json!({ "functionDeclaration": PATHS_FUNCTION, "executionContextId": world, "arguments": args, "returnByValue": true, "objectGroup": group });
    let paths = command(tab_id, "Runtime.callFunctionOn", call).await?;
    dusk_core::protocol::from_value(paths.pointer("/result/value").cloned().unwrap_or_default()).map_err(|e| e.to_string())
}

async fn query(tab_id: i32, group: &str) -> Result<Vec<Vec<i32>>, String> {
    let known = SESSIONS.with(|s| s.borrow().get(&tab_id).and_then(|s| s.world.clone().zip(s.doc.clone())));
    match known {
        Some((world, doc)) => match listen(tab_id, &world, &doc, group).await {
            // The tab navigated since: its world and document went with the old page.
            Err(_) => {
                let (world, doc) = setup(tab_id).await?;
                listen(tab_id, &world, &doc, group).await
            }
            done => done,
        },
        None => {
            let (world, doc) = setup(tab_id).await?;
            listen(tab_id, &world, &doc, group).await
        }
    }
}

/// A world of the debugger's own in the top frame, where nothing run is seen by the page, and
/// the page's document as the page's own world holds it (listeners are asked of that world).
async fn setup(tab_id: i32) -> Result<(Value, Value), String> {
    let tree = command(tab_id, "Page.getFrameTree", json!({})).await?;
    let frame = tree.pointer("/frameTree/frame/id").cloned().ok_or("no top frame")?;
    let world = command(tab_id, "Page.createIsolatedWorld", json!({ "frameId": frame, "worldName": "dusk" })).await?;
    let world = world.get("executionContextId").cloned().ok_or("no isolated world")?;
    let doc = command(tab_id, "DOM.getDocument", json!({ "depth": 0 })).await?;
    let doc = command(tab_id, "DOM.resolveNode", json!({ "nodeId": doc.pointer("/root/nodeId"), "objectGroup": HELD })).await?;
    let doc = doc.pointer("/object/objectId").cloned().ok_or("no document")?;
    SESSIONS.with(|s| {
        let mut s = s.borrow_mut();
        let session = s.entry(tab_id).or_default();
        (session.world, session.doc) = (Some(world.clone()), Some(doc.clone()));
        session.held.clear();
    });
    Ok((world, doc))
}

async fn listen(tab_id: i32, world: &Value, doc: &Value, group: &str) -> Result<Vec<Vec<i32>>, String> {
    // Not `pierce`, which would take every root in one call: it crashed renderers adding and
    // removing frames. The document's own listeners are asked for while the other roots are found.
    let top = listeners_of(tab_id, vec![doc.clone()]);
    let found = command(tab_id, "Runtime.evaluate", json!({ "expression": ROOTS_EXPRESSION, "contextId": world, "objectGroup": group })).await?;
    let mut roots = vec![];
    if let Some(array) = found.pointer("/result/objectId").filter(|_| found.pointer("/result/description") != Some(&json!("Array(0)"))) {
        let items = command(tab_id, "Runtime.getProperties", json!({ "objectId": array, "ownProperties": true })).await?;
        let ids = items.get("result").and_then(Value::as_array).into_iter().flatten().filter(|p| p["name"].as_str().is_some_and(|n| n.parse::<u32>().is_ok()));
        let described = all(tab_id, "DOM.describeNode", ids.map(|p| json!({ "objectId": p.pointer("/value/objectId") })).collect()).await;
        let backend = described.iter().filter_map(|d| d.pointer("/node/backendNodeId").cloned());
        let resolved = all(tab_id, "DOM.resolveNode", backend.map(|id| json!({ "backendNodeId": id, "objectGroup": group })).collect()).await;
        roots.extend(resolved.iter().filter_map(|r| r.pointer("/object/objectId").cloned()));
    }
    let mut listeners = top.await;
    if listeners.is_empty() {
        return Err("the page's document is gone".into());
    }
    listeners.extend(listeners_of(tab_id, roots).await);
    let mut nodes = clickable_nodes(&listeners.into_iter().flatten().collect::<Vec<_>>());
    nodes.truncate(LISTENER_PATHS);
    let args = held_nodes(tab_id, world, &nodes).await;
    if args.is_empty() {
        return Ok(vec![]);
    }
    let call = json!({ "functionDeclaration": PATHS_FUNCTION, "executionContextId": world, "arguments": args, "returnByValue": true, "objectGroup": group });
    let paths = command(tab_id, "Runtime.callFunctionOn", call).await?;
    dusk_core::protocol::from_value(paths.pointer("/result/value").cloned().unwrap_or_default()).map_err(|e| e.to_string())
}

/// Each root's listeners (one list per root that answered), the whole subtree but not into
/// shadow roots or frames; the commands are sent at once, before this is awaited.
fn listeners_of(tab_id: i32, roots: Vec<Value>) -> impl std::future::Future<Output = Vec<Vec<EventListener>>> {
    let params = roots.iter().map(|id| json!({ "objectId": id, "depth": -1, "pierce": false })).collect();
    let answers = start_all(tab_id, "DOMDebugger.getEventListeners", params);
    async move { answers.await.into_iter().flatten().filter_map(|f| dusk_core::protocol::from_value::<EventListeners>(f).ok()).map(|l| l.listeners).collect() }
}

/// The nodes as arguments, each resolved in the debugger's world once and held while it is listed.
async fn held_nodes(tab_id: i32, world: &Value, nodes: &[i64]) -> Vec<Value> {
    let (fresh, gone) = SESSIONS.with(|s| {
        let mut s = s.borrow_mut();
        let session = s.entry(tab_id).or_default();
        let fresh: Vec<i64> = nodes.iter().copied().filter(|id| !session.held.contains_key(id)).collect();
        let gone: Vec<i64> = session.held.keys().copied().filter(|id| !nodes.contains(id)).collect();
        let gone: Vec<Value> = gone.iter().filter_map(|id| session.held.remove(id)).collect();
        (fresh, gone)
    });
    for object in gone {
        let _ = debugger::command(tab_id, "Runtime.releaseObject", &to_js(&json!({ "objectId": object })));
    }
    let params = fresh.iter().map(|id| json!({ "backendNodeId": id, "executionContextId": world, "objectGroup": HELD })).collect();
    let resolved = all_keyed(tab_id, "DOM.resolveNode", params).await;
    SESSIONS.with(|s| {
        let mut s = s.borrow_mut();
        let session = s.entry(tab_id).or_default();
        for (id, r) in fresh.iter().zip(resolved) {
            if let Some(object) = r.as_ref().and_then(|r| r.pointer("/object/objectId")) {
                session.held.insert(*id, object.clone());
            }
        }
        nodes.iter().filter_map(|id| session.held.get(id)).map(|o| json!({ "objectId": o })).collect()
    })
}

/// The same command with each of `params`, all in flight at once: the answers that came, in order.
async fn all(tab_id: i32, method: &str, params: Vec<Value>) -> Vec<Value> {
    all_keyed(tab_id, method, params).await.into_iter().flatten().collect()
}

/// `all`, with None in the place of each command that failed.
async fn all_keyed(tab_id: i32, method: &str, params: Vec<Value>) -> Vec<Option<Value>> {
    start_all(tab_id, method, params).await
}

/// Sends every command now; the future gives their answers, None where one failed.
fn start_all(tab_id: i32, method: &str, params: Vec<Value>) -> impl std::future::Future<Output = Vec<Option<Value>>> {
    let n = params.len();
    let pending: Array = params.iter().map(|p| debugger::command(tab_id, method, &to_js(p)).unwrap_or_else(|e| Promise::reject(&e))).collect();
    let settled = JsFuture::from(Promise::all_settled(&pending));
    async move {
        let Ok(settled) = settled.await else { return vec![None; n] };
        let value = |s: JsValue| Reflect::get(&s, &"value".into()).ok().filter(|v| !v.is_undefined()).and_then(|v| from_js::<Value>(v).ok());
        Array::from(&settled).iter().map(value).collect()
    }
}

async fn command(tab_id: i32, method: &str, params: Value) -> Result<Value, String> {
    let reply = debugger::send_command(tab_id, method, &to_js(&params)).await.map_err(|e| format!("{method}: {}", error_text(&e)))?;
    from_js(reply)
}
