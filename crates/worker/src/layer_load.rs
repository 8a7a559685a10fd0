//! Putting a layer into a tab's frames, and one message to its top frame: what the dark path
//! needs of the content scripts, apart from the agents' RPCs (`content_rpc`).

use dusk_chrome::message::{error_text, from_js, to_js};
use dusk_chrome::{scripting, tabs};
use dusk_core::protocol::layer::{Layer, Presence};
use js_sys::{Array, Object, Reflect};
use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::JsValue;

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
