//! Cross-origin stylesheets: the page won't let us read their rules, so the worker fetches their
//! text; it is parsed here into CSSOM text like every other sheet, and the theme is refreshed.

use dusk_core::protocol::dark::{DarkRequest, FetchedCss};
use web_sys::CssStyleSheet;

/// Asks the worker for each sheet; each answer refreshes the theme on its own.
pub fn fetch_all(urls: Vec<String>) {
    for url in urls {
        wasm_bindgen_futures::spawn_local(fetch_one(url));
    }
}

async fn fetch_one(url: String) {
    // A dead worker or a refused fetch leaves the sheet with its own colours, as before.
    let css = match ask(&DarkRequest::DarkFetchCss { url: url.clone() }).await {
        Some(FetchedCss { css }) => serialise(&css),
        None => None,
    };
    super::foreign_arrived(&url, css);
}

/// Messages cross as JSON text, as everywhere in the content script: serde_json code is already here.
async fn ask(request: &DarkRequest) -> Option<FetchedCss> {
    let message = js_sys::JSON::parse(&dusk_core::protocol::TaggedText::tagged_text(request).ok()?).ok()?;
    let reply = dusk_chrome::runtime::send_message(&message).await.ok()?;
    dusk_core::protocol::from_str(&js_sys::JSON::stringify(&reply).ok()?.as_string()?).ok()
}

/// The sheet as CSSOM serialises it, so core's parser sees the same shape as for readable sheets.
fn serialise(text: &str) -> Option<String> {
    let sheet = CssStyleSheet::new().ok()?;
    sheet.replace_sync(text).ok()?;
    let mut out = super::collect::RuleTexts::default();
    // replaceSync drops a fetched sheet's own @imports, so there is nothing foreign inside.
    super::collect::append_rules(&sheet, &mut out, 0, &mut |_| None);
    Some(out.joined())
}
