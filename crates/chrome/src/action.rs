//! `chrome.action`: the toolbar button's per-tab badge and tooltip.

use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = ["chrome", "action"], js_name = setBadgeText, catch)]
    fn set_badge_text_raw(details: &JsValue) -> Result<js_sys::Promise, JsValue>;
    #[wasm_bindgen(js_namespace = ["chrome", "action"], js_name = setBadgeBackgroundColor, catch)]
    fn set_badge_background_color_raw(details: &JsValue) -> Result<js_sys::Promise, JsValue>;
    #[wasm_bindgen(js_namespace = ["chrome", "action"], js_name = setTitle, catch)]
    fn set_title_raw(details: &JsValue) -> Result<js_sys::Promise, JsValue>;
}

fn details(tab_id: i32, key: &str, value: &str) -> JsValue {
    let o = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&o, &"tabId".into(), &tab_id.into());
    let _ = js_sys::Reflect::set(&o, &key.into(), &value.into());
    o.into()
}

/// `setBadgeText`, `setBadgeBackgroundColor` and `setTitle` for one tab.
pub async fn set_for_tab(tab_id: i32, text: &str, color: &str, title: &str) -> Result<(), JsValue> {
    JsFuture::from(set_badge_text_raw(&details(tab_id, "text", text))?).await?;
    JsFuture::from(set_badge_background_color_raw(&details(tab_id, "color", color))?).await?;
    JsFuture::from(set_title_raw(&details(tab_id, "title", title))?).await?;
    Ok(())
}
