use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = ["chrome", "runtime"], js_name = sendMessage, catch)]
    fn send_message_promise(message: &JsValue) -> Result<js_sys::Promise, JsValue>;

    #[wasm_bindgen(js_namespace = ["chrome", "runtime"], js_name = getManifest)]
    fn get_manifest() -> JsValue;

    #[wasm_bindgen(js_namespace = ["chrome", "runtime"], js_name = getURL)]
    pub fn get_url(path: &str) -> String;

    #[wasm_bindgen(js_namespace = ["chrome", "runtime"], js_name = openOptionsPage, catch)]
    fn open_options_page_promise() -> Result<js_sys::Promise, JsValue>;

    #[wasm_bindgen(thread_local_v2, js_namespace = ["chrome", "runtime"], js_name = id)]
    static ID: JsValue;
}

/// Sends a message to the extension's other contexts and awaits the reply.
pub async fn send_message(message: &JsValue) -> Result<JsValue, JsValue> {
    JsFuture::from(send_message_promise(message)?).await
}

/// The `version` field of manifest.json.
/// Whether the manifest asks for `permission`, e.g. "unlimitedStorage".
pub fn has_permission(permission: &str) -> bool {
    let list = js_sys::Reflect::get(&get_manifest(), &"permissions".into()).unwrap_or_default();
    js_sys::Array::from(&list).iter().any(|p| p.as_string().as_deref() == Some(permission))
}

pub fn manifest_version() -> String {
    js_sys::Reflect::get(&get_manifest(), &"version".into()).ok().and_then(|v| v.as_string()).unwrap_or_default()
}

/// This extension's id.
pub fn id() -> String {
    ID.with(|v| v.as_string().unwrap_or_default())
}

pub async fn open_options_page() -> Result<JsValue, JsValue> {
    JsFuture::from(open_options_page_promise()?).await
}

#[wasm_bindgen]
extern "C" {
    /// A `chrome.runtime.Port` from `onConnect`.
    #[derive(Clone, Debug)]
    pub type Port;

    #[wasm_bindgen(method, catch, js_name = postMessage)]
    pub fn post_message(this: &Port, message: &JsValue) -> Result<(), JsValue>;

    #[wasm_bindgen(method)]
    pub fn disconnect(this: &Port);

    #[wasm_bindgen(method, getter)]
    pub fn name(this: &Port) -> String;

    /// Who opened the port: `{id, url, tab?, frameId?}`.
    #[wasm_bindgen(method, getter)]
    pub fn sender(this: &Port) -> JsValue;

    #[wasm_bindgen(method, getter, js_name = onMessage)]
    pub fn on_message(this: &Port) -> Event;

    #[wasm_bindgen(method, getter, js_name = onDisconnect)]
    pub fn on_disconnect(this: &Port) -> Event;

    /// A `chrome.events.Event`.
    pub type Event;

    #[wasm_bindgen(method, js_name = addListener)]
    pub fn add_listener(this: &Event, callback: &js_sys::Function);

    #[wasm_bindgen(js_namespace = ["chrome", "runtime"], js_name = connect, catch)]
    fn connect_raw(info: &JsValue) -> Result<Port, JsValue>;
}

/// Reads (and so clears) `chrome.runtime.lastError`; a port to a page with no content script
/// closes with one, and Chrome logs it unless it is read.
pub fn take_last_error() -> Option<String> {
    let get = |v: &JsValue, key: &str| js_sys::Reflect::get(v, &key.into()).ok().filter(|v| !v.is_undefined() && !v.is_null());
    let error = get(&get(&get(&js_sys::global().into(), "chrome")?, "runtime")?, "lastError")?;
    get(&error, "message")?.as_string()
}

/// Opens a long-lived port to the service worker (waking it if needed).
pub fn connect(name: &str) -> Result<Port, JsValue> {
    connect_raw(&connect_info(name)?.into())
}

/// The `{ name }` connect-info object both `runtime.connect` and `tabs.connect` take.
pub(crate) fn connect_info(name: &str) -> Result<js_sys::Object, JsValue> {
    let info = js_sys::Object::new();
    js_sys::Reflect::set(&info, &"name".into(), &name.into())?;
    Ok(info)
}
