//! Cross-origin stylesheets: the page won't let us read their rules, so the worker fetches their
//! text; it is parsed here into CSSOM text like every other sheet, and the theme is refreshed.

use dusk_chrome::message::{from_js, to_js};
use dusk_core::protocol::dark::{DarkRequest, DarkResponse};
use web_sys::CssStyleSheet;

/// Asks the worker for each sheet; each answer refreshes the theme on its own.
pub fn fetch_all(urls: Vec<String>) {
    for url in urls {
        wasm_bindgen_futures::spawn_local(fetch_one(url));
    }
}

async fn fetch_one(url: String) {
    let request = to_js(&DarkRequest::DarkFetchCss { url: url.clone() });
    // A dead worker or a refused fetch leaves the sheet with its own colours, as before.
    let reply = dusk_chrome::runtime::send_message(&request).await.ok().and_then(|r| from_js::<DarkResponse>(r).ok());
    let css = match reply {
        Some(DarkResponse::DarkCss { css, .. }) => serialise(&css),
        _ => None,
    };
    super::foreign_arrived(&url, css);
}

/// The sheet as CSSOM serialises it, so core's parser sees the same shape as for readable sheets.
fn serialise(text: &str) -> Option<String> {
    let sheet = CssStyleSheet::new().ok()?;
    sheet.replace_sync(text).ok()?;
    let mut out = String::new();
    // replaceSync drops a fetched sheet's own @imports, so there is nothing foreign inside.
    super::collect::append_rules(&sheet, &mut out, 0, &mut |_| None);
    Some(out)
}
