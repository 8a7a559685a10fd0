use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    /// A `chrome.storage.StorageArea` (local or session).
    #[derive(Clone)]
    pub type StorageArea;

    #[wasm_bindgen(thread_local_v2, js_namespace = ["chrome", "storage"], js_name = local)]
    static LOCAL: StorageArea;

    #[wasm_bindgen(thread_local_v2, js_namespace = ["chrome", "storage"], js_name = session)]
    static SESSION: StorageArea;

    #[wasm_bindgen(method, catch, js_name = get)]
    fn get_promise(this: &StorageArea, keys: &JsValue) -> Result<js_sys::Promise, JsValue>;

    #[wasm_bindgen(method, catch, js_name = set)]
    fn set_promise(this: &StorageArea, items: &JsValue) -> Result<js_sys::Promise, JsValue>;

    #[wasm_bindgen(method, catch, js_name = remove)]
    fn remove_promise(this: &StorageArea, keys: &JsValue) -> Result<js_sys::Promise, JsValue>;

    #[wasm_bindgen(method, catch, js_name = getBytesInUse)]
    fn bytes_in_use_promise(this: &StorageArea, keys: &JsValue) -> Result<js_sys::Promise, JsValue>;

    #[wasm_bindgen(method, catch, js_name = clear)]
    fn clear_promise(this: &StorageArea) -> Result<js_sys::Promise, JsValue>;

    #[wasm_bindgen(js_namespace = ["chrome", "storage", "onChanged"], js_name = addListener)]
    fn add_changed_listener(listener: &js_sys::Function);
}

/// `chrome.storage.onChanged.addListener(f)`: `f(changes, area_name)`, for the page's life.
pub fn on_changed(f: impl FnMut(JsValue, String) + 'static) {
    let closure = Closure::<dyn FnMut(JsValue, String)>::new(f);
    add_changed_listener(closure.as_ref().unchecked_ref());
    closure.forget();
}

async fn get(area: &StorageArea, key: &str) -> Result<JsValue, JsValue> {
    let all = JsFuture::from(area.get_promise(&JsValue::from_str(key))?).await?;
    js_sys::Reflect::get(&all, &JsValue::from_str(key))
}

async fn set(area: &StorageArea, key: &str, value: &JsValue) -> Result<(), JsValue> {
    let items = js_sys::Object::new();
    js_sys::Reflect::set(&items, &JsValue::from_str(key), value)?;
    JsFuture::from(area.set_promise(&items)?).await.map(|_| ())
}

async fn remove(area: &StorageArea, key: &str) -> Result<(), JsValue> {
    JsFuture::from(area.remove_promise(&JsValue::from_str(key))?).await.map(|_| ())
}

/// `chrome.storage.local.get(key)`: the stored value, or undefined.
pub async fn local_get(key: &str) -> Result<JsValue, JsValue> {
    get(&LOCAL.with(Clone::clone), key).await
}

/// `chrome.storage.local.remove(keys)`.
pub async fn local_remove_many(keys: &[&str]) -> Result<(), JsValue> {
    let keys: js_sys::Array = keys.iter().map(|k| JsValue::from_str(k)).collect();
    JsFuture::from(LOCAL.with(Clone::clone).remove_promise(&keys)?).await.map(|_| ())
}

/// `chrome.storage.local.get(keys)` in one round trip: an object with the keys that are stored.
pub async fn local_get_many(keys: &[&str]) -> Result<JsValue, JsValue> {
    let list: js_sys::Array = keys.iter().map(|k| JsValue::from_str(k)).collect();
    JsFuture::from(LOCAL.with(Clone::clone).get_promise(&list)?).await
}

/// One key of what a many-key `get` answered; None when it is not stored.
pub fn field(stored: &JsValue, key: &str) -> Option<JsValue> {
    js_sys::Reflect::get(stored, &JsValue::from_str(key)).ok().filter(|v| !v.is_undefined())
}

/// Everything in `chrome.storage.local`, as one object.
pub async fn local_all() -> Result<JsValue, JsValue> {
    JsFuture::from(LOCAL.with(Clone::clone).get_promise(&JsValue::NULL)?).await
}

/// `chrome.storage.local.getBytesInUse(null)`: the whole area's size as Chrome counts it.
pub async fn local_bytes_in_use() -> Result<f64, JsValue> {
    Ok(JsFuture::from(LOCAL.with(Clone::clone).bytes_in_use_promise(&JsValue::NULL)?).await?.as_f64().unwrap_or(0.0))
}

/// `chrome.storage.local.set(items)`: several keys in one write.
pub async fn local_set_many(items: &JsValue) -> Result<(), JsValue> {
    JsFuture::from(LOCAL.with(Clone::clone).set_promise(items)?).await.map(|_| ())
}

/// Empties both areas, `local` and `session`.
pub async fn clear_all() -> Result<(), JsValue> {
    JsFuture::from(LOCAL.with(Clone::clone).clear_promise()?).await?;
    JsFuture::from(SESSION.with(Clone::clone).clear_promise()?).await.map(|_| ())
}

/// `chrome.storage.local.set({key: value})`.
pub async fn local_set(key: &str, value: &JsValue) -> Result<(), JsValue> {
    set(&LOCAL.with(Clone::clone), key, value).await
}

/// `chrome.storage.session`: survives worker restarts, cleared when the browser closes.
pub async fn session_get(key: &str) -> Result<JsValue, JsValue> {
    get(&SESSION.with(Clone::clone), key).await
}

pub async fn session_set(key: &str, value: &JsValue) -> Result<(), JsValue> {
    set(&SESSION.with(Clone::clone), key, value).await
}

pub async fn session_remove(key: &str) -> Result<(), JsValue> {
    remove(&SESSION.with(Clone::clone), key).await
}

/// `chrome.storage.session.set(items)`: several keys in one call.
pub async fn session_set_items(items: &js_sys::Object) -> Result<(), JsValue> {
    JsFuture::from(SESSION.with(Clone::clone).set_promise(items)?).await.map(|_| ())
}

/// `chrome.storage.session.get(keys)`: an object of those present.
pub async fn session_get_keys(keys: &js_sys::Array) -> Result<JsValue, JsValue> {
    JsFuture::from(SESSION.with(Clone::clone).get_promise(keys)?).await
}

/// `chrome.storage.session.remove(keys)`.
pub async fn session_remove_keys(keys: &js_sys::Array) -> Result<(), JsValue> {
    JsFuture::from(SESSION.with(Clone::clone).remove_promise(keys)?).await.map(|_| ())
}

/// Everything in `chrome.storage.session`, as one object.
pub async fn session_all() -> Result<JsValue, JsValue> {
    JsFuture::from(SESSION.with(Clone::clone).get_promise(&JsValue::NULL)?).await
}
