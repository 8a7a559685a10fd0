use crate::{dom, status};
use wasm_bindgen::JsValue;
use web_sys::HtmlElement;

pub async fn render(body: &HtmlElement) -> Result<(), JsValue> {
    dom::append_i18n(body, "h1", "title", "sidepanelTitle")?;
    status::render(body).await
}
