//! The first-run page, opened on install: what Dusk does, that dark mode needs nothing, how to
//! add a provider, and where page data goes.

use crate::dom;
use dusk_chrome::runtime;
use wasm_bindgen::prelude::*;
use web_sys::HtmlElement;

pub async fn render(body: &HtmlElement) -> Result<(), JsValue> {
    let main = dom::append(body, "main", "welcome", "")?;
    dom::append_i18n(&main, "h1", "", "welcomeTitle")?;
    dom::append_i18n(&main, "p", "lead", "welcomeWhat")?;
    for (id, title, text) in [
        ("welcome-dark", "welcomeDarkTitle", "welcomeDark"),
        ("welcome-provider", "welcomeProviderTitle", "welcomeProvider"),
        ("welcome-data", "welcomeDataTitle", "welcomeData"),
        ("welcome-shortcuts", "welcomeShortcutsTitle", "welcomeShortcuts"),
    ] {
        let section = dom::append(&main, "section", "", "")?;
        section.set_id(id);
        dom::append_i18n(&section, "h2", "", title)?;
        dom::append_i18n(&section, "p", "", text)?;
    }
    let settings = dom::append_i18n(&main, "button", "primary", "welcomeOpenSettings")?;
    settings.set_id("welcome-settings");
    dom::on(&settings, "click", || {
        wasm_bindgen_futures::spawn_local(async {
            let _ = runtime::open_options_page().await;
        })
    })
}
