//! Measures the shapes of big inline SVGs and paints them by core's rule (`dark::shapes`): a
//! surface-sized fill goes dark, a glyph on it stays legible. The colours go on as attributes
//! read by one small layered sheet per scope; a ResizeObserver re-measures drawings that resize.

use super::collect::{as_element, Root};
use dusk_core::dark::color::{parse, Rgba};
use dusk_core::dark::shapes::{is_surface, paint, sheet_css, Shape, FILL_ATTR, RAW_FILL, RAW_STROKE, STROKE_ATTR};
use js_sys::{Array, Object};
use std::cell::RefCell;
use std::collections::BTreeSet;
use wasm_bindgen::prelude::*;
use web_sys::{CssStyleSheet, Element, ResizeObserver};

/// What SVG paints as a shape; text stays text and follows the text colour.
const SHAPES: &str = "path,rect,circle,ellipse,polygon,polyline,line,use";
/// Outermost drawings: a nested `<svg>` belongs to its parent's stack.
const DRAWINGS: &str = "svg:not(svg svg)";

thread_local! {
    static SHEETS: RefCell<Vec<(Root, CssStyleSheet, String)>> = const { RefCell::new(Vec::new()) };
    static RESIZE: RefCell<Option<ResizeObserver>> = const { RefCell::new(None) };
}

/// Measures every drawing of `roots` and paints its surfaces; `themed`: the theme is on, so each
/// shape's own colour is read from the theme's `--dusk-fill`/`--dusk-stroke`.
pub fn mark(roots: &[Root], themed: bool) {
    for root in roots {
        // A same-origin frame's drawings are measured against the frame's own viewport.
        let Some(window) = root.window() else { continue };
        let viewport = (num(window.inner_width()), num(window.inner_height()));
        let Some(drawings) = root.query_all(DRAWINGS) else { continue };
        let (mut shapes, mut elements) = (Vec::new(), Vec::new());
        for g in 0..drawings.length() {
            let Some(svg) = drawings.item(g).and_then(as_element) else { continue };
            observe(&svg);
            let r = svg.get_bounding_client_rect();
            // Shapes in an icon-sized drawing are icons: nothing to measure, only old marks to drop.
            // Every mutation batch comes here, so an icon costs one query, not one per shape.
            if !is_surface(r.width(), r.height(), viewport.0, viewport.1) {
                unmark_in(&svg);
                continue;
            }
            let Ok(list) = svg.query_selector_all(SHAPES) else { continue };
            for i in 0..list.length() {
                let Some(el) = list.item(i).and_then(as_element) else { continue };
                let Some(style) = window.get_computed_style(&el).ok().flatten() else { continue };
                let b = el.get_bounding_client_rect();
                let own = |raw: &str, property: &str, default: Option<Rgba>| {
                    let value = style.get_property_value(raw).unwrap_or_default();
                    match value.trim() {
                        "" if themed => default,
                        "" => parse(&style.get_property_value(property).unwrap_or_default()),
                        v => parse(v),
                    }
                };
                let black = Some(Rgba::rgb(0, 0, 0));
                shapes.push(Shape {
                    group: g,
                    x: b.x(),
                    y: b.y(),
                    w: b.width(),
                    h: b.height(),
                    fill: own(RAW_FILL, "fill", black),
                    stroke: own(RAW_STROKE, "stroke", None),
                });
                elements.push(el);
            }
        }
        let (mut fills, mut strokes) = (BTreeSet::new(), BTreeSet::new());
        // Painted with the page's brightness, contrast, sepia and grayscale, like the rest of the theme.
        let painted = dusk_core::dark::adjust::with_adjust(super::with(|s| s.adjust), || paint(&shapes, viewport));
        for (el, p) in elements.iter().zip(painted) {
            fills.extend(set(el, FILL_ATTR, p.fill));
            strokes.extend(set(el, STROKE_ATTR, p.stroke));
        }
        install(root, &sheet_css(fills.iter().map(String::as_str), strokes.iter().map(String::as_str)));
    }
}

fn num(v: Result<JsValue, JsValue>) -> f64 {
    v.ok().and_then(|v| v.as_f64()).unwrap_or(0.0)
}

/// Puts `colour` on `el` as `attr` (or takes it off); the colour as the sheet names it.
fn set(el: &Element, attr: &str, colour: Option<Rgba>) -> Option<String> {
    let Some(c) = colour else {
        if el.has_attribute(attr) {
            let _ = el.remove_attribute(attr);
        }
        return None;
    };
    let css = c.to_css();
    if el.get_attribute(attr).as_deref() != Some(css.as_str()) {
        let _ = el.set_attribute(attr, &css);
    }
    Some(css)
}

/// The selector of every marked shape.
fn marked() -> String {
    format!("[{FILL_ATTR}],[{STROKE_ATTR}]")
}

/// Drops the marks inside a drawing that is icon-sized now (it may have shrunk).
fn unmark_in(svg: &Element) {
    let Ok(list) = svg.query_selector_all(&marked()) else { return };
    for i in 0..list.length() {
        if let Some(el) = list.item(i).and_then(as_element) {
            unmark_one(&el);
        }
    }
}

fn unmark_one(el: &Element) {
    for attr in [FILL_ATTR, STROKE_ATTR] {
        if el.has_attribute(attr) {
            let _ = el.remove_attribute(attr);
        }
    }
}

/// The scope's shape sheet holds `css`, adopted (again, if the page reset its sheets).
fn install(root: &Root, css: &str) {
    SHEETS.with(|cell| {
        let mut sheets = cell.borrow_mut();
        let i = match sheets.iter().position(|(r, _, _)| Object::is(r.js(), root.js())) {
            Some(i) => i,
            None if css.is_empty() => return,
            None => {
                let Some(sheet) = new_sheet(root) else { return };
                sheets.push((root.clone(), sheet, String::new()));
                sheets.len() - 1
            }
        };
        let (_, sheet, current) = &mut sheets[i];
        root.keep_adopted(sheet, current, css);
    });
}

/// A sheet of the root's own realm: a same-origin frame's document adopts only its own.
fn new_sheet(root: &Root) -> Option<CssStyleSheet> {
    let window = root.window()?;
    let constructor = js_sys::Reflect::get(&window, &"CSSStyleSheet".into()).ok().filter(|c| c.is_function())?.unchecked_into::<js_sys::Function>();
    js_sys::Reflect::construct(&constructor, &Array::new()).ok().map(JsCast::unchecked_into)
}

/// The shape sheets in place, so the theme never reads them as the page's own.
pub fn sheets() -> Vec<CssStyleSheet> {
    SHEETS.with(|cell| cell.borrow().iter().map(|(_, s, _)| s.clone()).collect())
}

/// The drawings in subtrees the page added: observed, so each is measured once laid out.
pub fn observe_added(added: &Array) {
    for svg in svgs_in(added).iter() {
        observe(svg.unchecked_ref());
    }
}

/// Whether one of `drawings` (outermost ones only) is the size of a surface.
pub fn any_surface(drawings: &[Element]) -> bool {
    drawings.iter().filter(|svg| svg.matches(DRAWINGS).unwrap_or(false)).any(|svg| {
        let Some(window) = svg.owner_document().and_then(|d| d.default_view()) else { return false };
        let r = svg.get_bounding_client_rect();
        is_surface(r.width(), r.height(), num(window.inner_width()), num(window.inner_height()))
    })
}

/// Drops old marks in drawings that are icon-sized now.
pub fn unmark_each(drawings: &[Element]) {
    drawings.iter().filter(|svg| svg.matches(DRAWINGS).unwrap_or(false)).for_each(unmark_in);
}

#[wasm_bindgen(inline_js = "import { read, call } from 'dusk-unshadowed';
export function svgs_in(added) {
  const out = [];
  for (const el of added) {
    if (read(el, 'localName') === 'svg') out.push(el);
    if (read(el, 'firstElementChild')) out.push(...call(el, 'querySelectorAll', 'svg'));
  }
  return out;
}")]
extern "C" {
    /// The `<svg>`s among added subtrees, found in one call.
    fn svgs_in(added: &Array) -> Array;
}

/// Re-measures a drawing whenever its size changes (and once when first observed).
fn observe(svg: &Element) {
    RESIZE.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
            let callback = Closure::<dyn FnMut(Array)>::new(|entries: Array| {
                let targets: Vec<Element> =
                    entries.iter().filter_map(|e| js_sys::Reflect::get(&e, &"target".into()).ok()).filter_map(|t| as_element(t.unchecked_into())).collect();
                super::shapes_resized(&targets)
            });
            *slot = ResizeObserver::new(callback.as_ref().unchecked_ref()).ok();
            callback.forget();
        }
        if let Some(observer) = slot.as_ref() {
            observer.observe(svg);
        }
    });
}

/// Takes every mark and sheet off, leaving the page as it was.
pub fn unmark(roots: &[Root]) {
    RESIZE.with(|cell| {
        if let Some(o) = cell.borrow().as_ref() {
            o.disconnect();
        }
    });
    for root in roots {
        unmark_marks(root);
    }
    for (root, sheet, _) in SHEETS.with(|cell| std::mem::take(&mut *cell.borrow_mut())) {
        drop_sheet(&root, &sheet);
    }
}

/// Takes one scope's marks and sheet off (a frame switched off on its own).
pub fn unmark_root(root: &Root) {
    unmark_marks(root);
    let mine = SHEETS.with(|cell| {
        let mut sheets = cell.borrow_mut();
        let i = sheets.iter().position(|(r, _, _)| Object::is(r.js(), root.js()))?;
        Some(sheets.remove(i))
    });
    if let Some((root, sheet, _)) = mine {
        drop_sheet(&root, &sheet);
    }
}

fn unmark_marks(root: &Root) {
    let Some(list) = root.query_all(&marked()) else { return };
    for i in 0..list.length() {
        if let Some(el) = list.item(i).and_then(as_element) {
            unmark_one(&el);
        }
    }
}

fn drop_sheet(root: &Root, sheet: &CssStyleSheet) {
    let next: Array = root.adopted().iter().filter(|s| !Object::is(s, sheet)).collect();
    root.set_adopted(&next);
}
