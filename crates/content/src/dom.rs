//! Small DOM helpers shared by every RPC group: documents, rects in top-frame coordinates,
//! visibility, computed styles, deep focus and hit-testing (the text a reader sees: text.rs).

use dusk_core::protocol::page::{ElementStyle, Rect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Document, Element, Window};

#[wasm_bindgen]
extern "C" {
    /// An Element seen through methods web-sys lacks or binds only with &str arguments.
    type Checkable;
    #[wasm_bindgen(method, js_name = checkVisibility)]
    fn check_visibility(this: &Checkable, options: &JsValue) -> JsValue;
    #[wasm_bindgen(method, js_name = getAttribute)]
    fn get_attribute_js(this: &Checkable, name: &js_sys::JsString) -> Option<String>;
    #[wasm_bindgen(method, js_name = hasAttribute)]
    fn has_attribute_js(this: &Checkable, name: &js_sys::JsString) -> bool;
}

#[wasm_bindgen(inline_js = "import { read, call } from 'dusk-unshadowed';
// What the always-on script read for this layer's first RPC while it was injected, if still true.
function ready(type, doc) {
  const r = globalThis.duskReady;
  if (r?.type !== type) return undefined;
  delete globalThis.duskReady;
  const same = !r.changed && !r.seen.takeRecords().length;
  r.seen.disconnect();
  return same && r.doc === doc ? r.value : undefined;
}
export function shadow_roots(root) {
  const found = ready('find_shadow_roots', root);
  if (found) return found;
  // An indexed loop: for-of over a NodeList of every element cost 2-4x as much.
  const out = [], all = call(root, 'querySelectorAll', '*');
  for (let i = 0, n = all.length; i < n; i++) { const s = read(all[i], 'shadowRoot'); if (s) out.push(s); }
  return out;
}
export function rect_into(el, out) { const r = call(el, 'getBoundingClientRect'); out[0] = r.left; out[1] = r.top; out[2] = r.width; out[3] = r.height; }
function clipper() {
  const cache = new Map();
  // The box an ancestor chain lets through: every overflow-clipping ancestor, up to a fixed one.
  const clip = (a) => {
    if (!a || a === read(read(a, 'ownerDocument'), 'documentElement')) return null;
    let c = cache.get(a);
    if (c !== undefined) return c;
    // One overflow read tells most ancestors apart; being fixed matters only under a box that clips.
    const s = read(read(a, 'ownerDocument'), 'defaultView').getComputedStyle(a), above = clip(read(a, 'parentElement') || read(call(a, 'getRootNode'), 'host'));
    const up = above !== null && s.position === 'fixed' ? null : above;
    c = up;
    if (s.overflow !== 'visible' && (s.overflowX !== 'visible' || s.overflowY !== 'visible')) {
      const r = call(a, 'getBoundingClientRect'), x1 = r.left + read(a, 'clientLeft'), y1 = r.top + read(a, 'clientTop');
      const own = [x1, y1, x1 + read(a, 'clientWidth'), y1 + read(a, 'clientHeight')];
      c = up ? [Math.max(own[0], up[0]), Math.max(own[1], up[1]), Math.min(own[2], up[2]), Math.min(own[3], up[3])] : own;
    }
    cache.set(a, c);
    return c;
  };
  return (el, out, k) => {
    const r = call(el, 'getBoundingClientRect'), view = read(read(el, 'ownerDocument'), 'defaultView');
    let x1 = Math.max(r.left, 0), y1 = Math.max(r.top, 0), x2 = Math.min(r.right, view.innerWidth), y2 = Math.min(r.bottom, view.innerHeight);
    const c = clip(read(el, 'parentElement') || read(call(el, 'getRootNode'), 'host'));
    if (c) { x1 = Math.max(x1, c[0]); y1 = Math.max(y1, c[1]); x2 = Math.min(x2, c[2]); y2 = Math.min(y2, c[3]); }
    out[k] = x1; out[k + 1] = y1; out[k + 2] = Math.max(0, x2 - x1); out[k + 3] = Math.max(0, y2 - y1);
  };
}
export function visible_box(el, out) { clipper()(el, out, 0); }
export function visible_boxes(els) {
  const box = clipper(), out = new Float64Array(els.length * 4);
  els.forEach((el, i) => box(el, out, i * 4));
  return out;
}")]
extern "C" {
    /// Open shadow roots under `root`, found in one call instead of two per element.
    pub fn shadow_roots(root: &JsValue) -> js_sys::Array;
    /// getBoundingClientRect in one call instead of five.
    fn rect_into(el: &Element, out: &mut [f64]);
    /// The part of the element's box inside its document's viewport and every clipping ancestor.
    fn visible_box(el: &Element, out: &mut [f64]);
    /// `visible_box` for many elements, sharing the ancestors' clips.
    fn visible_boxes(els: &js_sys::Array) -> js_sys::Float64Array;
}

#[wasm_bindgen(module = "dusk-unshadowed")]
extern "C" {
    /// `o[name]` as o's interface defines it, whatever a form's fields or a document's named
    /// elements are called (extension/unshadowed.js); the glue's own DOM reads go there too.
    #[wasm_bindgen(js_name = read)]
    pub fn member(o: &JsValue, name: &str) -> JsValue;
}

/// `on_screen_rect` for many elements at once: ancestors shared by them are read once.
pub fn on_screen_areas(els: &[Element]) -> Vec<f64> {
    let list: js_sys::Array = els.iter().collect();
    let flat = visible_boxes(&list).to_vec();
    flat.chunks(4).map(|c| c[2] * c[3]).collect()
}

/// The element's box as far as it is on screen: inside the viewport and every clipping
/// (overflow) ancestor. Zero-sized when scrolled out of a box or off the viewport.
pub fn on_screen_rect(el: &Element) -> Rect {
    let mut r = [0.0; 4];
    visible_box(el, &mut r);
    Rect { x: r[0], y: r[1], width: r[2], height: r[3] }
}

thread_local! {
    static NAMES: std::cell::RefCell<Vec<(&'static str, js_sys::JsString)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A JS string made once per name: passing a Rust &str costs a UTF-8 decode on every call.
pub fn js_name(name: &'static str) -> js_sys::JsString {
    NAMES.with(|n| {
        let mut n = n.borrow_mut();
        if let Some((_, s)) = n.iter().find(|(k, _)| std::ptr::eq(*k, name)) {
            return s.clone();
        }
        let s = js_sys::JsString::from(name);
        n.push((name, s.clone()));
        s
    })
}

/// getAttribute with an interned name.
pub fn get_attr(el: &Element, name: &'static str) -> Option<String> {
    el.unchecked_ref::<Checkable>().get_attribute_js(&js_name(name))
}

pub fn has_attr(el: &Element, name: &'static str) -> bool {
    el.unchecked_ref::<Checkable>().has_attribute_js(&js_name(name))
}

pub fn window() -> Result<Window, String> {
    web_sys::window().ok_or_else(|| "no window".to_string())
}

pub fn document() -> Result<Document, String> {
    window()?.document().ok_or_else(|| "no document".to_string())
}

/// Builds a plain JS object from key/value pairs (event init dicts, options).
pub fn obj(pairs: &[(&str, JsValue)]) -> js_sys::Object {
    let o = js_sys::Object::new();
    for (k, v) in pairs {
        let _ = js_sys::Reflect::set(&o, &JsValue::from_str(k), v);
    }
    o
}

pub fn tag(el: &Element) -> String {
    el.tag_name().to_ascii_lowercase()
}

pub fn attr(el: &Element, name: &'static str) -> Option<String> {
    get_attr(el, name).filter(|v| !v.trim().is_empty())
}

/// The element's rect in its own document's viewport.
pub fn local_rect(el: &Element) -> Rect {
    let mut r = [0.0; 4];
    rect_into(el, &mut r);
    Rect { x: r[0], y: r[1], width: r[2], height: r[3] }
}

/// Offset of a document's viewport inside the top frame's viewport (same-origin frames only).
pub fn frame_offset(doc: &Document) -> (f64, f64) {
    let (mut dx, mut dy) = (0.0, 0.0);
    let mut view = doc.default_view();
    for _ in 0..16 {
        let Some(frame) = view.as_ref().and_then(|w| w.frame_element().ok().flatten()) else { break };
        let r = frame.get_bounding_client_rect();
        dx += r.left() + f64::from(frame.client_left());
        dy += r.top() + f64::from(frame.client_top());
        view = frame.owner_document().and_then(|d| d.default_view());
    }
    (dx, dy)
}

/// The element's rect in the top frame's viewport.
pub fn top_rect(el: &Element) -> Rect {
    let mut r = local_rect(el);
    if let Some(doc) = el.owner_document() {
        let (dx, dy) = frame_offset(&doc);
        r.x += dx;
        r.y += dy;
    }
    r
}

/// Rendered, not `visibility: hidden`, not fully transparent, and with a non-empty box.
pub fn is_visible(el: &Element, rect: &Rect) -> bool {
    if rect.width <= 0.0 || rect.height <= 0.0 {
        return false;
    }
    thread_local! {
        static OPTIONS: js_sys::Object = obj(&[("checkOpacity", true.into()), ("checkVisibilityCSS", true.into())]);
    }
    OPTIONS.with(|opts| el.unchecked_ref::<Checkable>().check_visibility(opts).as_bool().unwrap_or(true))
}

/// Only form controls can be :disabled; anything can be aria-disabled.
pub fn is_disabled(el: &Element) -> bool {
    let form_control = matches!(tag(el).as_str(), "button" | "input" | "select" | "textarea" | "option" | "optgroup" | "fieldset");
    (form_control && el.matches(":disabled").unwrap_or(false)) || get_attr(el, "aria-disabled").as_deref() == Some("true")
}

/// Computed styles an agent needs to judge how an element looks.
pub fn element_style(el: &Element) -> ElementStyle {
    let Some(s) = el.owner_document().and_then(|d| d.default_view()).and_then(|w| w.get_computed_style(el).ok().flatten()) else {
        return ElementStyle::default();
    };
    let p = |name: &str| s.get_property_value(name).unwrap_or_default();
    ElementStyle {
        color: p("color"),
        background_color: p("background-color"),
        font_size: p("font-size"),
        font_weight: p("font-weight"),
        border_color: p("border-top-color"),
        border_width: p("border-top-width"),
        border_style: p("border-top-style"),
        border_radius: p("border-top-left-radius"),
        display: p("display"),
        position: p("position"),
        visibility: p("visibility"),
        opacity: p("opacity"),
    }
}

/// The focused element, looking through shadow roots and same-origin frames.
pub fn deep_active_element(doc: &Document) -> Option<Element> {
    let mut el = doc.active_element()?;
    for _ in 0..32 {
        if let Some(inner) = el.shadow_root().and_then(|s| s.active_element()) {
            el = inner;
            continue;
        }
        if let Some(inner) = as_tag::<web_sys::HtmlIFrameElement>(&el, "iframe").and_then(|f| f.content_document()).and_then(|d| d.active_element()) {
            el = inner;
            continue;
        }
        break;
    }
    Some(el)
}

/// The topmost element at a point of `doc`'s viewport, descending into open shadow roots and
/// same-origin frames. Returns it with the point in its own document's coordinates.
pub fn deep_element_from_point(doc: &Document, x: f64, y: f64) -> Option<(Element, f64, f64)> {
    let (mut x, mut y) = (x, y);
    let mut el = doc.element_from_point(x as f32, y as f32)?;
    for _ in 0..32 {
        if let Some(inner) = el.shadow_root().and_then(|s| s.element_from_point(x as f32, y as f32)) {
            if inner != el {
                el = inner;
                continue;
            }
        }
        if let Some(frame) = as_tag::<web_sys::HtmlIFrameElement>(&el, "iframe") {
            if let Some(inner_doc) = frame.content_document() {
                let r = el.get_bounding_client_rect();
                let (fx, fy) = (x - r.left() - f64::from(el.client_left()), y - r.top() - f64::from(el.client_top()));
                if let Some(inner) = inner_doc.element_from_point(fx as f32, fy as f32) {
                    el = inner;
                    x = fx;
                    y = fy;
                    continue;
                }
            }
        }
        break;
    }
    Some((el, x, y))
}

/// Whether `node` is `ancestor` or inside it, crossing shadow-root boundaries.
pub fn composed_contains(ancestor: &Element, node: &Element) -> bool {
    let mut cur: Option<web_sys::Node> = Some(node.clone().into());
    for _ in 0..2048 {
        let Some(n) = cur else { return false };
        if ancestor.is_same_node(Some(&n)) {
            return true;
        }
        cur = n.parent_node().map(|p| match as_shadow_root(&p) {
            Some(root) => root.host().into(),
            None => p,
        });
    }
    false
}

pub fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map(|p| p.now()).unwrap_or(0.0)
}

// Nodes from same-origin frames belong to another JS realm, where `instanceof` checks (dyn_into)
// fail; these casts check node types and tag names instead.

/// The node as an Element, whatever realm it comes from.
pub fn as_element(node: web_sys::Node) -> Option<Element> {
    (node.node_type() == web_sys::Node::ELEMENT_NODE).then(|| node.unchecked_into())
}

/// HTML-namespace elements get HtmlElement's methods (focus, innerText, isContentEditable).
pub fn as_html(el: &Element) -> Option<&web_sys::HtmlElement> {
    (el.namespace_uri().as_deref() == Some("http://www.w3.org/1999/xhtml")).then(|| el.unchecked_ref())
}

pub fn as_tag<'a, T: JsCast>(el: &'a Element, name: &str) -> Option<&'a T> {
    el.tag_name().eq_ignore_ascii_case(name).then(|| el.unchecked_ref::<T>())
}

pub fn as_shadow_root(node: &web_sys::Node) -> Option<&web_sys::ShadowRoot> {
    let is_root = node.node_type() == web_sys::Node::DOCUMENT_FRAGMENT_NODE && js_sys::Reflect::has(node, &"host".into()).unwrap_or(false);
    is_root.then(|| node.unchecked_ref())
}

pub fn as_document(node: &web_sys::Node) -> Option<&Document> {
    (node.node_type() == web_sys::Node::DOCUMENT_NODE).then(|| node.unchecked_ref())
}

pub fn as_function(v: JsValue) -> Option<js_sys::Function> {
    v.is_function().then(|| v.unchecked_into())
}

/// A method of `target` looked up by name, callable whatever realm it comes from.
pub fn method(target: &JsValue, name: &str) -> Option<js_sys::Function> {
    as_function(member(target, name))
}

pub fn focus(el: &Element) {
    if let Some(h) = as_html(el) {
        let _ = h.focus();
    }
}
