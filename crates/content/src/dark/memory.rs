//! The site's memory in the page: whose it is (the top page's host) and what changed in storage.

use super::{set_adjust, set_refine, sync, with};
use dusk_core::dark::adjust::{Adjustments, GLOBAL_KEY as ADJUST_KEY, SITES_KEY as ADJUST_SITES_KEY};
use dusk_core::dark::site::{host_of, Memory, AUTO_KEY, SITES_KEY};
use dusk_core::dark_agent::versions::theme_key;
use wasm_bindgen::JsValue;

/// A stored value as JSON, through its text: serde_json reads text already, and a reader of JS
/// values (serde-wasm-bindgen's) was ~5 KB more of the dark layer.
pub(super) fn stored_json(value: JsValue) -> Option<serde_json::Value> {
    serde_json::from_str(&js_sys::JSON::stringify(&value).ok()?.as_string()?).ok()
}

/// chrome.storage.onChanged for the local area: `changes` maps key → {newValue}.
#[inline(never)]
pub fn memory_changed(changes: JsValue) {
    let new = |key: &str| {
        let change = js_sys::Reflect::get(&changes, &key.into()).ok().filter(|c| !c.is_undefined())?;
        let value = js_sys::Reflect::get(&change, &"newValue".into()).ok()?;
        Some(stored_json(value).unwrap_or(serde_json::Value::Null))
    };
    let (sites, auto) = (new(SITES_KEY), new(AUTO_KEY));
    let (global, own) = (new(ADJUST_KEY), new(ADJUST_SITES_KEY));
    if global.is_some() || own.is_some() {
        let adjust = with(|s| {
            let stored = Adjustments::from_stored(global.clone(), own.clone());
            if global.is_some() {
                s.memory.adjust.global = stored.global;
            }
            if own.is_some() {
                s.memory.adjust.sites = stored.sites;
            }
            s.host.as_deref().map(|h| s.memory.adjust_for(h)).unwrap_or_default()
        });
        set_adjust(adjust, false);
    }
    if let Some(refine) = with(|s| s.host.clone()).and_then(|h| new(&theme_key(&h))) {
        set_refine(refine.as_str().unwrap_or_default());
    }
    if sites.is_none() && auto.is_none() {
        return;
    }
    with(|s| {
        let mut m = Memory::from_stored(sites.clone(), auto.clone());
        if sites.is_none() {
            m.sites = std::mem::take(&mut s.memory.sites);
        }
        if auto.is_none() {
            m.auto = s.memory.auto;
        }
        s.memory = m;
    });
    sync();
}

/// The host whose memory applies: the top page's, so frames follow the tab they are in.
pub(super) fn top_host() -> Option<String> {
    let location = web_sys::window()?.location();
    let ancestors = js_sys::Reflect::get(&location, &"ancestorOrigins".into()).ok();
    let count = ancestors.as_ref().and_then(|a| js_sys::Reflect::get(a, &"length".into()).ok()).and_then(|n| n.as_f64()).unwrap_or(0.0) as u32;
    let top = match (count, ancestors) {
        (n, Some(a)) if n > 0 => js_sys::Reflect::get(&a, &JsValue::from(n - 1)).ok().and_then(|v| v.as_string()),
        _ => location.href().ok(),
    }?;
    host_of(&top).ok()
}
