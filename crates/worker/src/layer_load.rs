//! Messages to a tab's top frame, and its layers: the always-on script answers `layer_missing`
//! when the layer a message needs is not in the page yet; then the layer is injected
//! (`chrome.scripting.executeScript({files})`) and the message sent once more. Both worker builds
//! use it; the agents' RPCs on top of it are `content_rpc`.

use dusk_chrome::message::{error_text, from_js, to_js};
use dusk_chrome::{scripting, tabs};
use dusk_core::protocol::dark::{DarkContentRequest, DarkContentResponse};
use dusk_core::protocol::layer::{Layer, LayerHint, Presence};
use dusk_core::protocol::ContentResponse;
use js_sys::{Array, Object, Promise, Reflect};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::cell::RefCell;
use std::collections::BTreeMap;
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;

/// One message, typed both ways, with no layer loading.
pub async fn send<Req: Serialize, Res: DeserializeOwned>(tab_id: i32, request: Req) -> Result<Res, String> {
    from_js(send_raw(tab_id, &to_js(&request)).await?)
}

pub(crate) async fn send_raw(tab_id: i32, message: &JsValue) -> Result<JsValue, String> {
    tabs::send_message_to_frame(tab_id, 0, message).await.map_err(|e| {
        format!("the page did not answer ({}); pages like chrome:// and the Web Store can't be used, and a loading page may need a moment", error_text(&e))
    })
}

/// Injects `layer` where it is missing: the page layer into the top frame (it reaches same-origin
/// frames itself), the dark layer into every frame, since each frame themes its own document.
/// Each frame gets the WebAssembly build first, and the wasm2js one where the page's CSP refuses it.
pub async fn load(tab_id: i32, layer: Layer) -> Result<(), String> {
    let frames = match layer {
        Layer::Page => vec![(0.into(), Presence::Missing)],
        Layer::Dark => frames_without(tab_id, layer).await,
    };
    // One frame at a time: a frame that went away meanwhile (an ad) must not fail the others.
    let mut top = Ok(());
    for (frame, presence) in frames {
        let mut done = Ok(false);
        for file in layer.bundles(presence) {
            done = inject(tab_id, &frame, file).await;
            if done != Ok(false) {
                break;
            }
        }
        if frame.as_f64() == Some(0.0) {
            top = done.map(|_| ()).map_err(|e| format!("could not load the page's {layer:?} layer: {e}"));
        }
    }
    top
}

/// Runs a layer's bundle in one frame: whether the layer is now there (the bundle's last expression).
pub(crate) async fn inject(tab_id: i32, frame: &JsValue, file: &str) -> Result<bool, String> {
    let injection = injection(tab_id, &Array::of1(frame));
    set(&injection, "files", &Array::of1(&file.into()));
    let results = scripting::execute_script(&injection).await.map_err(|e| error_text(&e))?;
    let first = Array::from(&results).get(0);
    Ok(Reflect::get(&first, &"result".into()).ok().and_then(|v| v.as_bool()) == Some(true))
}

/// Frames of the tab whose isolated world lacks `layer` (`duskHasLayer`, worker.js), each with
/// whether its page already refused the WebAssembly build.
async fn frames_without(tab_id: i32, layer: Layer) -> Vec<(JsValue, Presence)> {
    let target = Object::new();
    set(&target, "tabId", &tab_id.into());
    set(&target, "allFrames", &true.into());
    let injection = Object::new();
    set(&injection, "target", &target);
    // Not waiting for each frame to be idle: a frame that never finishes loading would hold it forever.
    set(&injection, "injectImmediately", &true.into());
    set(&injection, "func", &Reflect::get(&js_sys::global(), &"duskHasLayer".into()).unwrap_or_default());
    set(&injection, "args", &Array::of1(&to_js(&layer)));
    let Ok(results) = scripting::execute_script(&injection).await else { return vec![(0.into(), Presence::Missing)] };
    Array::from(&results)
        .iter()
        .filter_map(|r| {
            let presence: Presence = from_js(Reflect::get(&r, &"result".into()).ok()?).ok()?;
            (presence != Presence::Loaded).then_some((Reflect::get(&r, &"frameId".into()).ok()?, presence))
        })
        .collect()
}

fn injection(tab_id: i32, frames: &Array) -> Object {
    let target = Object::new();
    set(&target, "tabId", &tab_id.into());
    set(&target, "frameIds", frames);
    let injection = Object::new();
    set(&injection, "target", &target);
    set(&injection, "injectImmediately", &true.into());
    injection
}

fn set(o: &Object, key: &str, value: &JsValue) {
    let _ = Reflect::set(o, &key.into(), value);
}

thread_local! {
    /// Page layers being loaded, by tab: a message that finds the layer missing meanwhile, or an
    /// agent's page_summary, joins that load instead of injecting the bundle a second time.
    static LOADING: RefCell<BTreeMap<i32, Promise>> = const { RefCell::new(BTreeMap::new()) };
}

/// A reply type that can say "the layer this message needs is not loaded".
pub(crate) trait LayerReply: DeserializeOwned {
    fn missing(&self) -> Option<Layer>;
}

impl LayerReply for ContentResponse {
    fn missing(&self) -> Option<Layer> {
        match self {
            ContentResponse::LayerMissing { layer } => Some(*layer),
            _ => None,
        }
    }
}

impl LayerReply for DarkContentResponse {
    fn missing(&self) -> Option<Layer> {
        match self {
            DarkContentResponse::LayerMissing { layer } => Some(*layer),
            _ => None,
        }
    }
}

/// Sends `message`; a `layer_missing` answer loads that layer and sends it once more.
/// `work`: what the page can do for the answer while the layer loads.
pub(crate) async fn ask<R: LayerReply>(tab_id: i32, message: &JsValue, work: Option<LayerHint>) -> Result<R, String> {
    let reply: R = from_js(send_raw(tab_id, message).await?)?;
    match reply.missing() {
        Some(layer) => {
            let again: R = from_js(load_and_resend::<R>(tab_id, layer, work, message).await?)?;
            match again.missing() {
                Some(layer) => Err(format!("the page's {layer:?} layer could not be loaded")),
                None => Ok(again),
            }
        }
        None => Ok(reply),
    }
}

/// Starts loading the page layer, or joins the load under way: every page-layer load goes
/// through here, so two callers never inject the bundle at once. Resolves to `true`, or to why not.
pub(crate) fn load_page_layer(tab_id: i32, work: Option<LayerHint>) -> Promise {
    if let Some(under_way) = LOADING.with(|l| l.borrow().get(&tab_id).cloned()) {
        return under_way;
    }
    hint(tab_id, Layer::Page, work);
    let done = wasm_bindgen_futures::future_to_promise(async move {
        let loaded = load(tab_id, Layer::Page).await;
        LOADING.with(|l| l.borrow_mut().remove(&tab_id));
        Ok(loaded.map_or_else(|e| JsValue::from_str(&e), |_| JsValue::TRUE))
    });
    LOADING.with(|l| l.borrow_mut().insert(tab_id, done.clone()));
    done
}

/// Reads the reply's tag first: a listing of thousands of elements is not decoded just to learn it is one.
pub(crate) fn missing<R: LayerReply>(reply: &JsValue) -> Option<Layer> {
    let tag = Reflect::get(reply, &"type".into()).ok().and_then(|t| t.as_string());
    if tag.as_deref() != Some("layer_missing") {
        return None;
    }
    from_js::<R>(reply.clone()).ok().and_then(|r| r.missing())
}

/// After a `layer_missing`: loads the layer (or joins its load) and sends `message` again, once
/// more if a joined load went to a document the tab has left since. The raw reply.
pub(crate) async fn load_and_resend<R: LayerReply>(tab_id: i32, layer: Layer, work: Option<LayerHint>, message: &JsValue) -> Result<JsValue, String> {
    load_once(tab_id, layer, work).await?;
    let again = send_raw(tab_id, message).await?;
    if missing::<R>(&again).is_none() {
        return Ok(again);
    }
    load_once(tab_id, layer, work).await?;
    send_raw(tab_id, message).await
}

/// Loads a layer the page said is missing, waiting for the page layer's load if one is under way.
pub(crate) async fn load_once(tab_id: i32, layer: Layer, work: Option<LayerHint>) -> Result<(), String> {
    if layer == Layer::Dark {
        return load(tab_id, layer).await;
    }
    match JsFuture::from(load_page_layer(tab_id, work)).await {
        Ok(v) if v.as_bool() == Some(true) => Ok(()),
        Ok(v) => Err(v.as_string().unwrap_or_else(|| "could not load the page's Page layer".into())),
        Err(e) => Err(error_text(&e)),
    }
}

/// Lets the top frame start on the answer while the page layer is injected: it is idle meanwhile.
fn hint(tab_id: i32, layer: Layer, work: Option<LayerHint>) {
    if let (Layer::Page, Some(work)) = (layer, work) {
        tabs::post_message_to_frame(tab_id, 0, &to_js(&work));
    }
}

/// The page layer's load under way in the tab, if any.
pub(crate) fn page_layer_loading(tab_id: i32) -> Option<Promise> {
    LOADING.with(|l| l.borrow().get(&tab_id).cloned())
}

/// A message for the page's dark layer, loading it (in every frame) first if it is absent.
pub async fn dark_rpc(tab_id: i32, request: &DarkContentRequest) -> Result<DarkContentResponse, String> {
    match ask(tab_id, &to_js(request), None).await? {
        DarkContentResponse::Error { message } => Err(message),
        other => Ok(other),
    }
}
