//! What the user sees in a tab, as a JPEG at most `max_width` CSS px wide: captureVisibleTab,
//! scaled in the worker (createImageBitmap + OffscreenCanvas). Only the visible tab is taken.

use base64::Engine;
use dusk_chrome::message::error_text;
use dusk_chrome::tabs;
use dusk_core::browser_agent::marks::{crop_box, layout, output_size};
use dusk_core::browser_agent::Shot;
use dusk_core::llm::Image;
use dusk_core::protocol::page::Rect;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{Blob, ImageBitmap, ImageEncodeOptions, OffscreenCanvas, OffscreenCanvasRenderingContext2d, Response, WorkerGlobalScope};

fn prop(v: &JsValue, name: &str) -> JsValue {
    js_sys::Reflect::get(v, &name.into()).unwrap_or(JsValue::UNDEFINED)
}

/// The quota is two per rolling second, so one every half second (plus slack) always fits.
const SPACING_MS: f64 = 520.0;

thread_local! {
    static LAST: std::cell::Cell<f64> = const { std::cell::Cell::new(0.0) };
}

/// The visible tab as a data URL; Err when the tab is not the visible one.
async fn grab(tab_id: i32) -> Result<String, String> {
    let tab = tabs::get(tab_id).await.map_err(|_| "the tab was closed".to_string())?;
    if prop(&tab, "active").as_bool() != Some(true) {
        return Err("the tab is not visible (another tab is in front); switch to it so Dusk can look at the page".into());
    }
    let window_id = prop(&tab, "windowId").as_f64().unwrap_or(-2.0) as i32;
    let options = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&options, &"format".into(), &"jpeg".into());
    let _ = js_sys::Reflect::set(&options, &"quality".into(), &80.into());
    // Chrome allows two captures a second: space them, rather than fail and retry.
    let since = crate::clock::now_ms() - LAST.with(|l| l.get());
    if since < SPACING_MS {
        crate::fetch::sleep((SPACING_MS - since) as u32).await;
    }
    LAST.with(|l| l.set(crate::clock::now_ms()));
    let mut attempt = 0;
    let url = loop {
        match tabs::capture_visible_tab(window_id, &options).await {
            Ok(url) => break url,
            // Chrome allows two captures a second; a tool right after another waits its turn.
            Err(e) if attempt < 3 && error_text(&e).contains("MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND") => {
                attempt += 1;
                crate::fetch::sleep(350).await;
            }
            Err(e) => return Err(format!("the browser could not capture the tab: {}", error_text(&e))),
        }
    };
    url.as_string().ok_or_else(|| "the browser returned no image".to_string())
}

pub async fn capture(tab_id: i32, max_width: u32) -> Result<Image, String> {
    let url = grab(tab_id).await?;
    scale(&url, max_width).await.map_err(|e| format!("could not scale the screenshot: {}", error_text(&e)))
}

/// The visible tab at most `shot.max_width` wide, with core's set-of-marks layout drawn on it.
pub async fn capture_marked(tab_id: i32, shot: &Shot) -> Result<Image, String> {
    let url = grab(tab_id).await?;
    draw(&url, shot).await.map_err(|e| format!("could not label the screenshot: {}", error_text(&e)))
}

/// The part of the visible tab around `target` (CSS px), for a confirmation card.
pub async fn capture_crop(tab_id: i32, target: &Rect, viewport_width: f64) -> Result<Image, String> {
    let url = grab(tab_id).await?;
    crop(&url, target, viewport_width).await.map_err(|e| format!("could not crop the screenshot: {}", error_text(&e)))
}

async fn bitmap(data_url: &str) -> Result<ImageBitmap, JsValue> {
    let scope: WorkerGlobalScope = js_sys::global().unchecked_into();
    let response: Response = JsFuture::from(scope.fetch_with_str(data_url)).await?.dyn_into()?;
    let blob: Blob = JsFuture::from(response.blob()?).await?.dyn_into()?;
    JsFuture::from(scope.create_image_bitmap_with_blob(&blob)?).await?.dyn_into()
}

fn canvas(w: f64, h: f64) -> Result<(OffscreenCanvas, OffscreenCanvasRenderingContext2d), JsValue> {
    let canvas = OffscreenCanvas::new(w.max(1.0) as u32, h.max(1.0) as u32)?;
    let ctx: OffscreenCanvasRenderingContext2d = canvas.get_context("2d")?.ok_or("no 2d context")?.dyn_into()?;
    Ok((canvas, ctx))
}

async fn encode(canvas: &OffscreenCanvas) -> Result<Image, JsValue> {
    encode_at(canvas, 0.75).await
}

async fn encode_at(canvas: &OffscreenCanvas, quality: f64) -> Result<Image, JsValue> {
    let options = ImageEncodeOptions::new();
    options.set_type("image/jpeg");
    options.set_quality(quality);
    let out: Blob = JsFuture::from(canvas.convert_to_blob_with_options(&options)?).await?.dyn_into()?;
    let bytes = js_sys::Uint8Array::new(&JsFuture::from(out.array_buffer()).await?).to_vec();
    Ok(Image::new("image/jpeg", base64::engine::general_purpose::STANDARD.encode(bytes)))
}

async fn draw(data_url: &str, shot: &Shot) -> Result<Image, JsValue> {
    let bitmap = bitmap(data_url).await?;
    let (w, h) = output_size(f64::from(bitmap.width()), f64::from(bitmap.height()), shot.max_width);
    let (canvas, ctx) = canvas(w, h)?;
    ctx.draw_image_with_image_bitmap_and_dw_and_dh(&bitmap, 0.0, 0.0, w, h)?;
    bitmap.close();
    for m in layout(&shot.marks, shot.viewport_width, w, h) {
        ctx.set_stroke_style_str(m.color);
        ctx.set_line_width(2.0);
        ctx.stroke_rect(m.x, m.y, m.width, m.height);
        ctx.set_fill_style_str(m.color);
        ctx.fill_rect(m.label_x, m.label_y, m.label_width, m.label_height);
        ctx.set_fill_style_str("#fff");
        ctx.set_font(&format!("bold {}px sans-serif", (m.label_height - 2.0).max(8.0)));
        ctx.set_text_baseline("top");
        ctx.fill_text(&m.label, m.label_x + 3.0, m.label_y + 1.0)?;
    }
    encode(&canvas).await
}

async fn crop(data_url: &str, target: &Rect, viewport_width: f64) -> Result<Image, JsValue> {
    let bitmap = bitmap(data_url).await?;
    let (x, y, w, h) = crop_box(target, viewport_width, f64::from(bitmap.width()), f64::from(bitmap.height()));
    let (canvas, ctx) = canvas(w, h)?;
    ctx.draw_image_with_image_bitmap_and_sw_and_sh_and_dx_and_dy_and_dw_and_dh(&bitmap, x, y, w, h, 0.0, 0.0, w, h)?;
    bitmap.close();
    encode(&canvas).await
}

async fn scale(data_url: &str, max_width: u32) -> Result<Image, JsValue> {
    let bitmap = bitmap(data_url).await?;
    let (w, h) = (f64::from(bitmap.width()), f64::from(bitmap.height()));
    if w <= f64::from(max_width) {
        let data = data_url.split_once(";base64,").map(|(_, d)| d.to_string()).unwrap_or_default();
        return Ok(Image::new("image/jpeg", data));
    }
    let (tw, th) = output_size(w, h, max_width);
    let (canvas, ctx) = canvas(tw, th)?;
    ctx.draw_image_with_image_bitmap_and_dw_and_dh(&bitmap, 0.0, 0.0, tw, th)?;
    bitmap.close();
    encode(&canvas).await
}

/// Thumbnails for the kept timeline: this wide, and JPEG quality low enough for ~5 KB each.
const THUMB_WIDTH: u32 = 160;
const THUMB_QUALITY: f64 = 0.5;

/// A screenshot (data URL) as a small JPEG data URL for history.
pub async fn thumbnail(data_url: &str) -> Result<String, String> {
    let small = async {
        let bitmap = bitmap(data_url).await?;
        let (w, h) = output_size(f64::from(bitmap.width()), f64::from(bitmap.height()), THUMB_WIDTH);
        let (canvas, ctx) = canvas(w, h)?;
        ctx.draw_image_with_image_bitmap_and_dw_and_dh(&bitmap, 0.0, 0.0, w, h)?;
        bitmap.close();
        encode_at(&canvas, THUMB_QUALITY).await
    };
    small.await.map(|i| i.data_url()).map_err(|e| format!("could not make a thumbnail: {}", error_text(&e)))
}
