use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = ["chrome", "tabs"], js_name = sendMessage, catch)]
    fn send_message_promise(tab_id: i32, message: &JsValue) -> Result<js_sys::Promise, JsValue>;

    #[wasm_bindgen(js_namespace = ["chrome", "tabs"], js_name = sendMessage, catch)]
    fn send_message_with_options(tab_id: i32, message: &JsValue, options: &JsValue) -> Result<js_sys::Promise, JsValue>;
}

/// Sends a message to the content script of one frame of `tab_id` (0: the top frame).
pub async fn send_message_to_frame(tab_id: i32, frame_id: i32, message: &JsValue) -> Result<JsValue, JsValue> {
    let options = js_sys::Object::new();
    js_sys::Reflect::set(&options, &"frameId".into(), &frame_id.into())?;
    JsFuture::from(send_message_with_options(tab_id, message, &options)?).await
}

/// Sends a message to one frame without waiting for its reply; a failure is dropped.
pub fn post_message_to_frame(tab_id: i32, frame_id: i32, message: &JsValue) {
    let options = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&options, &"frameId".into(), &frame_id.into());
    if let Ok(sent) = send_message_with_options(tab_id, message, &options) {
        IGNORE.with(|ignore| drop(sent.catch(ignore)));
    }
}

thread_local! {
    /// One rejection handler for every posted message: nobody waits for their replies.
    static IGNORE: wasm_bindgen::closure::Closure<dyn FnMut(JsValue)> = wasm_bindgen::closure::Closure::new(|_: JsValue| {});
}

/// Sends a message to the content script of `tab_id` (top frame) and awaits the reply.
pub async fn send_message(tab_id: i32, message: &JsValue) -> Result<JsValue, JsValue> {
    JsFuture::from(send_message_promise(tab_id, message)?).await
}

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = ["chrome", "tabs"], js_name = connect, catch)]
    fn connect_raw(tab_id: i32, info: &JsValue) -> Result<crate::runtime::Port, JsValue>;
}

/// Opens a long-lived port to the top frame's content script of `tab_id`: later messages skip
/// the per-message channel set-up of `send_message`.
pub fn connect(tab_id: i32, name: &str) -> Result<crate::runtime::Port, JsValue> {
    let info = crate::runtime::connect_info(name)?;
    js_sys::Reflect::set(&info, &"frameId".into(), &0.into())?;
    connect_raw(tab_id, &info)
}

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = ["chrome", "tabs"], js_name = query, catch)]
    fn query_promise(info: &JsValue) -> Result<js_sys::Promise, JsValue>;

    #[wasm_bindgen(js_namespace = ["chrome", "tabs"], js_name = get, catch)]
    fn get_promise(tab_id: i32) -> Result<js_sys::Promise, JsValue>;

    #[wasm_bindgen(js_namespace = ["chrome", "tabs"], js_name = update, catch)]
    fn update_promise(tab_id: i32, props: &JsValue) -> Result<js_sys::Promise, JsValue>;

    #[wasm_bindgen(js_namespace = ["chrome", "tabs"], js_name = captureVisibleTab, catch)]
    fn capture_visible_tab_promise(window_id: i32, options: &JsValue) -> Result<js_sys::Promise, JsValue>;
}

/// `chrome.tabs.query(info)`: an array of Tab objects.
pub async fn query(info: &JsValue) -> Result<JsValue, JsValue> {
    JsFuture::from(query_promise(info)?).await
}

pub async fn get(tab_id: i32) -> Result<JsValue, JsValue> {
    JsFuture::from(get_promise(tab_id)?).await
}

pub async fn update(tab_id: i32, props: &JsValue) -> Result<JsValue, JsValue> {
    JsFuture::from(update_promise(tab_id, props)?).await
}

/// A data URL of the visible part of the window's active tab.
pub async fn capture_visible_tab(window_id: i32, options: &JsValue) -> Result<JsValue, JsValue> {
    JsFuture::from(capture_visible_tab_promise(window_id, options)?).await
}

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = ["chrome", "tabs"], js_name = create, catch)]
    fn create_promise(props: &JsValue) -> Result<js_sys::Promise, JsValue>;

    #[wasm_bindgen(js_namespace = ["chrome", "tabs"], js_name = goBack, catch)]
    fn go_back_promise(tab_id: i32) -> Result<js_sys::Promise, JsValue>;

    #[wasm_bindgen(js_namespace = ["chrome", "tabs"], js_name = goForward, catch)]
    fn go_forward_promise(tab_id: i32) -> Result<js_sys::Promise, JsValue>;

    #[wasm_bindgen(js_namespace = ["chrome", "tabs"], js_name = reload, catch)]
    fn reload_promise(tab_id: i32) -> Result<js_sys::Promise, JsValue>;
}

/// `chrome.tabs.create(props)`: the new Tab.
pub async fn create(props: &JsValue) -> Result<JsValue, JsValue> {
    JsFuture::from(create_promise(props)?).await
}

pub async fn go_back(tab_id: i32) -> Result<JsValue, JsValue> {
    JsFuture::from(go_back_promise(tab_id)?).await
}

pub async fn go_forward(tab_id: i32) -> Result<JsValue, JsValue> {
    JsFuture::from(go_forward_promise(tab_id)?).await
}

pub async fn reload(tab_id: i32) -> Result<JsValue, JsValue> {
    JsFuture::from(reload_promise(tab_id)?).await
}
