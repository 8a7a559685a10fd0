//! The browser's own URL parser, handed to core's site rules (`web_url::use_parser`) by every
//! wasm module that judges or names sites: the worker, and the pages that write approval cards.
use dusk_core::browser_agent::safety::web_url::{self, WebUrl};
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    type Url;
    #[wasm_bindgen(constructor, catch, js_class = "URL")]
    fn new(text: &str) -> Result<Url, JsValue>;
    #[wasm_bindgen(method, getter)]
    fn protocol(this: &Url) -> String;
    #[wasm_bindgen(method, getter)]
    fn hostname(this: &Url) -> String;
    #[wasm_bindgen(method, getter)]
    fn port(this: &Url) -> String;
    #[wasm_bindgen(method, getter)]
    fn pathname(this: &Url) -> String;
    #[wasm_bindgen(method, getter)]
    fn search(this: &Url) -> String;
    #[wasm_bindgen(method, getter)]
    fn hash(this: &Url) -> String;
}

fn parse(text: &str) -> Option<WebUrl> {
    let u = Url::new(text).ok()?;
    Some(WebUrl {
        scheme: u.protocol().trim_end_matches(':').to_string(),
        host: u.hostname(),
        port: u.port().parse().ok(),
        path: u.pathname(),
        query: u.search().trim_start_matches('?').to_string(),
        fragment: u.hash().trim_start_matches('#').to_string(),
    })
}

/// From here on core reads URLs as this browser does.
pub fn use_browser_parser() {
    web_url::use_parser(parse);
}
