//! The content script's layers. A small script is always in every frame; the page layer
//! (reading, actions, overlay) and the dark layer (the dark engine and the guard's measure)
//! are loaded only where they are used. The always-on script routes by the message's `type`.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Layer {
    Page,
    Dark,
}

impl Layer {
    /// The layer that answers a message of this `type`: `dark_…` goes to the dark layer.
    /// extension/content.js applies the same rule.
    pub fn for_type(tag: &str) -> Layer {
        if tag.starts_with("dark_") {
            Layer::Dark
        } else {
            Layer::Page
        }
    }

    /// The bundle in dist/ that holds the layer, its engine as WebAssembly.
    pub fn file(self) -> &'static str {
        match self {
            Layer::Page => "page_layer.js",
            Layer::Dark => "dark_layer.js",
        }
    }

    /// The same layer with its engine as wasm2js JavaScript, for pages whose CSP refuses WebAssembly.
    pub fn wasm2js_file(self) -> &'static str {
        match self {
            Layer::Page => "page_layer.wasm2js.js",
            Layer::Dark => "dark_layer.wasm2js.js",
        }
    }

    /// The bundles to run in a frame, in order, until one stays: a page that refused WebAssembly
    /// gets the wasm2js build straight away.
    pub fn bundles(self, presence: Presence) -> Vec<&'static str> {
        match presence {
            Presence::Loaded => vec![],
            Presence::Missing => vec![self.file(), self.wasm2js_file()],
            Presence::Refused => vec![self.wasm2js_file()],
        }
    }
}

/// A message the always-on script answers at once, sent while the page layer is being injected:
/// the page is idle meanwhile, so it does the first RPC's slowest DOM read then, and the layer
/// takes the result unless the page changed since (extension/content.js).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(remote = "Self", rename_all = "snake_case")]
pub enum LayerHint {
    /// The top document's open shadow roots.
    FindShadowRoots,
}
crate::protocol::tagged::type_tagged!(LayerHint, "type");

/// Whether a frame has a layer (`duskHasLayer`, extension/worker.js).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Presence {
    Loaded,
    Missing,
    /// The page's CSP refused the layer's WebAssembly build.
    Refused,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::dark::DarkContentRequest;
    use crate::protocol::ContentRequest;

    fn tag<T: Serialize>(v: &T) -> String {
        serde_json::to_value(v).unwrap()["type"].as_str().unwrap().to_string()
    }

    #[test]
    fn hints_are_page_layer_messages_sent_for_the_requests_that_use_them() {
        assert_eq!(serde_json::to_value(LayerHint::FindShadowRoots).unwrap(), serde_json::json!({ "type": "find_shadow_roots" }));
        assert_eq!(Layer::for_type(&tag(&LayerHint::FindShadowRoots)), Layer::Page);
        let request = |v| crate::protocol::from_value::<ContentRequest>(v).unwrap().hint();
        assert_eq!(request(serde_json::json!({ "type": "get_elements" })), Some(LayerHint::FindShadowRoots));
        // Sent just before get_elements, so it is the one that finds the layer missing.
        assert_eq!(request(serde_json::json!({ "type": "click_listeners", "paths": [[0, 1]] })), Some(LayerHint::FindShadowRoots));
        // These two are made by the worker from the always-on script's reads, never by the layer.
        let parsed = |v| crate::protocol::from_value::<ContentRequest>(v).unwrap();
        assert!(parsed(serde_json::json!({ "type": "page_summary" })).made_by_worker());
        assert!(!parsed(serde_json::json!({ "type": "get_elements" })).made_by_worker());
        assert_eq!(request(serde_json::json!({ "type": "page_summary" })), None);
        assert_eq!(request(serde_json::json!({ "type": "text_snapshot" })), None);
        assert_eq!(request(serde_json::json!({ "type": "ping" })), None);
    }

    #[test]
    fn every_message_routes_to_the_layer_that_parses_it() {
        for r in [
            DarkContentRequest::DarkStatus,
            DarkContentRequest::DarkSwitch { on: true },
            DarkContentRequest::DarkThemeMeasure { baseline: true, reset: false },
            DarkContentRequest::DarkThemePreview { css: String::new() },
            DarkContentRequest::DarkAdjust { adjust: Default::default() },
        ] {
            assert_eq!(Layer::for_type(&tag(&r)), Layer::Dark);
        }
        for r in [ContentRequest::Ping, ContentRequest::GetColorPalette, ContentRequest::DetectDarkMode, ContentRequest::Unmask] {
            assert_eq!(Layer::for_type(&tag(&r)), Layer::Page);
        }
        let missing: crate::protocol::ContentResponse = serde_json::from_str(r#"{"type":"layer_missing","layer":"page"}"#).unwrap();
        assert_eq!(missing, crate::protocol::ContentResponse::LayerMissing { layer: Layer::Page });
    }

    #[test]
    fn a_frame_that_refused_webassembly_gets_only_the_wasm2js_build() {
        assert_eq!(Layer::Dark.bundles(Presence::Missing), ["dark_layer.js", "dark_layer.wasm2js.js"]);
        assert_eq!(Layer::Dark.bundles(Presence::Refused), ["dark_layer.wasm2js.js"]);
        assert!(Layer::Page.bundles(Presence::Loaded).is_empty());
        let states: Vec<Presence> = serde_json::from_str(r#"["loaded","missing","refused"]"#).unwrap();
        assert_eq!(states, [Presence::Loaded, Presence::Missing, Presence::Refused]);
    }

    #[test]
    fn the_always_on_pong_parses_and_its_version_is_the_manifests() {
        // extension/content.js answers ping with the manifest's version; core's must be the same.
        let manifest: serde_json::Value = serde_json::from_str(include_str!("../../../../manifest.json")).unwrap();
        assert_eq!(manifest["version"], crate::VERSION);
        let pong = r#"{"type":"pong","version":"0.1.0","url":"http://a/","doc":"1732530000000.5","layers":["dark"]}"#;
        let parsed: crate::protocol::ContentResponse = serde_json::from_str(pong).unwrap();
        assert!(matches!(parsed, crate::protocol::ContentResponse::Pong { ref layers, .. } if layers == &[Layer::Dark]));
    }
}
