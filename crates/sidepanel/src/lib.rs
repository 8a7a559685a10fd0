//! The extension's UI pages. Each page's JS calls `start` with its name.

mod dom;
mod pages;
mod status;
mod worker;

use wasm_bindgen::prelude::*;

/// Renders the named page ("sidepanel", "popup" or "options") into `<body>`.
#[wasm_bindgen]
pub async fn start(page: String) -> Result<(), JsValue> {
    let body = dom::body()?;
    match page.as_str() {
        "popup" => pages::popup::render(&body).await,
        "options" => pages::options::render(&body).await,
        _ => pages::sidepanel::render(&body).await,
    }
}
