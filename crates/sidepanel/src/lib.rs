//! The extension's UI pages. Each page's JS calls `start` with its name.
//! Without the `panel` feature the module renders the popup and the first-run page only, which
//! keeps the pages a user sees in passing light.
// What only the panel's pages use is left unused, not wrong, in the small build.
#![cfg_attr(not(feature = "panel"), allow(dead_code))]

mod adjust_sliders;
mod dom;
mod icons;
mod pages;
mod status;
mod switch;
mod worker;

use wasm_bindgen::prelude::*;

/// Renders the named page ("sidepanel", "popup", "options" or "welcome") into `<body>`.
#[wasm_bindgen]
pub async fn start(page: String) -> Result<(), JsValue> {
    let body = dom::body()?;
    // Approval cards name sites as the browser reads URLs.
    dusk_chrome::url::use_browser_parser();
    // Screen readers pick the voice from it; the text is in the browser's UI language.
    if let Some(html) = dom::document()?.document_element() {
        html.set_attribute("lang", &dusk_chrome::i18n::ui_language())?;
    }
    match page.as_str() {
        "popup" => pages::popup::render(&body).await,
        #[cfg(feature = "panel")]
        "options" => pages::options::render(&body).await,
        "welcome" => pages::welcome::render(&body).await,
        #[cfg(feature = "panel")]
        _ => pages::sidepanel::render(&body).await,
        #[cfg(not(feature = "panel"))]
        other => Err(JsValue::from_str(&format!("the small pages' module has no page {other:?}"))),
    }
}
