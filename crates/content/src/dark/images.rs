//! Light raster backgrounds (core's `dark::images`): every background image URL a theme build
//! meets is loaded once per page, off the switch's path, and its pixels read if it is a strip
//! (one pixel thick); a light one is then redrawn dark by the next build, and the theme refreshed.

use dusk_core::dark::images::{light_strip, with_images, Images};
use std::cell::RefCell;
use std::collections::BTreeSet;
use wasm_bindgen::prelude::*;

/// Images loaded at most per page: a site's CSS may name many it never shows.
const MAX_IMAGES: usize = 32;

// The size is known on load, before any pixel is read: only strips are drawn into a canvas.
#[wasm_bindgen(inline_js = "
export async function strip_pixels(url) {
  let abs;
  try { abs = new URL(url, document.baseURI); } catch (e) { return null; }
  if (!/^(https?|data):$/.test(abs.protocol)) return null;
  const img = new Image();
  if (abs.protocol !== 'data:' && abs.origin !== location.origin) img.crossOrigin = 'anonymous';
  const loaded = new Promise((ok) => { img.onload = () => ok(true); img.onerror = () => ok(false); });
  img.src = abs.href;
  if (!(await loaded)) return null;
  const w = img.naturalWidth, h = img.naturalHeight;
  if (!w || !h || Math.min(w, h) > 1 || Math.max(w, h) > 4096) return null;
  try {
    const g = new OffscreenCanvas(w, h).getContext('2d');
    g.drawImage(img, 0, 0);
    return { w, h, data: new Uint8Array(g.getImageData(0, 0, w, h).data.buffer) };
  } catch (e) { return null; }
}")]
extern "C" {
    async fn strip_pixels(url: &str) -> JsValue;
}

thread_local! {
    static IMAGES: RefCell<Images> = RefCell::new(Images::default());
    static ASKED: RefCell<BTreeSet<String>> = const { RefCell::new(BTreeSet::new()) };
}

/// Runs a theme build with the images known so far, and loads the ones it met for the first time.
pub fn during<R>(build: impl FnOnce() -> R) -> R {
    let mut images = IMAGES.with(|i| std::mem::take(&mut *i.borrow_mut()));
    let out = with_images(&mut images, build);
    let wanted = std::mem::take(&mut images.wanted);
    IMAGES.with(|i| *i.borrow_mut() = images);
    for url in wanted {
        let new = ASKED.with(|a| {
            let mut asked = a.borrow_mut();
            asked.len() < MAX_IMAGES && asked.insert(url.clone())
        });
        if new {
            wasm_bindgen_futures::spawn_local(load(url));
        }
    }
    out
}

async fn load(url: String) {
    let raw = strip_pixels(&url).await;
    let get = |k: &str| js_sys::Reflect::get(&raw, &k.into()).ok();
    let strip = if raw.is_object() {
        let (w, h) = (get("w").and_then(|v| v.as_f64()).unwrap_or(0.0) as u32, get("h").and_then(|v| v.as_f64()).unwrap_or(0.0) as u32);
        let data = get("data").map(|d| js_sys::Uint8Array::new(&d).to_vec()).unwrap_or_default();
        light_strip(w, h, &data)
    } else {
        None
    };
    let light = strip.is_some();
    IMAGES.with(|i| i.borrow_mut().known.insert(url, strip));
    if light {
        super::image_arrived();
    }
}
