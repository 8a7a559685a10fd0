//! Actions: each resolves its target, checks it can be used, acts with real-looking events,
//! and answers success with a message, or the reason it could not.

pub mod caret;
pub mod click;
pub mod drag;
pub mod editable;
pub mod events;
pub mod hover;
pub mod keys;
pub mod scroll;
pub mod select;
pub mod type_text;
pub mod upload;

use crate::dom::{deep_element_from_point, frame_offset, is_disabled, is_visible, local_rect, obj, on_screen_rect, window};
use crate::names::describe_el;
use crate::registry::{lookup, Lookup};
use crate::walk::find_first;
use dusk_core::protocol::actions::{ActionResult, FailReason, Target, TargetKind};
use web_sys::{Document, Element};

pub type Outcome<T> = Result<T, ActionResult>;

/// The element a target names; for a point, the topmost element there. `None` when no target was given.
pub fn resolve(doc: &Document, target: &Target) -> Outcome<Option<Element>> {
    let kind = target.kind().map_err(|m| ActionResult::fail(FailReason::BadTarget, m))?;
    match kind {
        TargetKind::None => Ok(None),
        TargetKind::Index(i) => match lookup(i) {
            Lookup::Found(el) => Ok(Some(el)),
            Lookup::Stale => Err(ActionResult::fail(
                FailReason::Stale,
                format!("element {i} is no longer on the page (it was removed or re-rendered); call get_elements again"),
            )),
            Lookup::Unknown => Err(ActionResult::fail(FailReason::NotFound, format!("no element has index {i}; call get_elements first"))),
        },
        TargetKind::Selector(s) => match find_first(doc, &s) {
            Ok(Some(el)) => Ok(Some(el)),
            Ok(None) => Err(ActionResult::fail(FailReason::NotFound, format!("no element matches the selector {s}"))),
            Err(e) => Err(ActionResult::fail(FailReason::BadTarget, e)),
        },
        TargetKind::Point(x, y) => match deep_element_from_point(doc, x, y) {
            Some((el, _, _)) => Ok(Some(el)),
            None => Err(ActionResult::fail(FailReason::NotFound, format!("nothing is at ({x}, {y}); is the point inside the viewport?"))),
        },
    }
}

/// Like `resolve`, but a target is required.
pub fn resolve_required(doc: &Document, target: &Target) -> Outcome<Element> {
    resolve(doc, target)?.ok_or_else(|| ActionResult::fail(FailReason::BadTarget, "give an index, a selector or x/y"))
}

pub fn check_enabled(el: &Element) -> Outcome<()> {
    if is_disabled(el) {
        return Err(ActionResult::fail(FailReason::Disabled, format!("{} is disabled", describe_el(el))));
    }
    Ok(())
}

pub fn check_visible(el: &Element) -> Outcome<()> {
    if !is_visible(el, &local_rect(el)) {
        return Err(ActionResult::fail(FailReason::Hidden, format!("{} is hidden (not rendered, zero-sized or transparent)", describe_el(el))));
    }
    Ok(())
}

/// Scrolls the element to the middle of the viewport, and of every scroll box around it, unless
/// it is already fully on screen (scrollIntoView scrolls each scrollable ancestor, not just the window).
pub fn scroll_into_view(el: &Element) {
    let r = crate::dom::top_rect(el);
    let Ok(win) = window() else { return };
    let vw = win.inner_width().ok().and_then(|v| v.as_f64()).unwrap_or(0.0);
    let vh = win.inner_height().ok().and_then(|v| v.as_f64()).unwrap_or(0.0);
    let inside_top = r.x >= 0.0 && r.y >= 0.0 && r.x + r.width <= vw && r.y + r.height <= vh;
    let local = local_rect(el);
    let shown = on_screen_rect(el);
    let fully_shown = shown.area() + 1.0 >= local.area();
    if !inside_top || !fully_shown {
        let opts = obj(&[("block", "center".into()), ("inline", "center".into()), ("behavior", "instant".into())]);
        let _ = crate::dom::method(el, "scrollIntoView").map(|f| f.call1(el, &opts));
    }
}

/// Grid cells per side when the centre is taken: fine enough for a 4 px strip on a 40 px button.
const GRID_MAX: f64 = 24.0;
const GRID_STEP: f64 = 4.0;

/// A point (in the element's document) where the element itself is topmost, and the element hit
/// there. The centre first; else the on-screen part of the box is sampled on a grid and the centre
/// of the largest free patch is used. Fails naming the covering element when nothing is free.
pub fn hit_point(el: &Element) -> Outcome<(Element, f64, f64)> {
    let doc = el.owner_document().ok_or_else(|| ActionResult::fail(FailReason::Stale, "the element has no document"))?;
    let shown = on_screen_rect(el);
    let r = if shown.area() > 0.0 { shown } else { local_rect(el) };
    let ours = |hit: &Element| crate::dom::composed_contains(el, hit) || label_for(hit, el);
    let (cx, cy) = r.center();
    let mut blocker = None;
    match deep_element_from_point(&doc, cx, cy) {
        Some((hit, _, _)) if ours(&hit) => return Ok((hit, cx, cy)),
        Some((hit, _, _)) => blocker = Some(hit),
        None => {}
    }
    let nx = (r.width / GRID_STEP).ceil().clamp(3.0, GRID_MAX) as usize;
    let ny = (r.height / GRID_STEP).ceil().clamp(3.0, GRID_MAX) as usize;
    let mut free: Vec<Option<Element>> = Vec::with_capacity(nx * ny);
    for j in 0..ny {
        for i in 0..nx {
            let (x, y) = (r.x + r.width * (i as f64 + 0.5) / nx as f64, r.y + r.height * (j as f64 + 0.5) / ny as f64);
            free.push(match deep_element_from_point(&doc, x, y) {
                Some((hit, _, _)) if ours(&hit) => Some(hit),
                Some((hit, _, _)) => {
                    blocker.get_or_insert(hit);
                    None
                }
                None => None,
            });
        }
    }
    if let Some(cell) = dusk_core::page::grid::centre_of_largest(&free.iter().map(Option::is_some).collect::<Vec<_>>(), nx, ny) {
        let (i, j) = (cell % nx, cell / nx);
        let (x, y) = (r.x + r.width * (i as f64 + 0.5) / nx as f64, r.y + r.height * (j as f64 + 0.5) / ny as f64);
        if let Some(hit) = free[cell].clone() {
            return Ok((hit, x, y));
        }
    }
    let (dx, dy) = frame_offset(&doc);
    let at = format!("({:.0}, {:.0})", cx + dx, cy + dy);
    Err(match blocker {
        Some(b) => ActionResult::fail(FailReason::Covered, format!("{} is covered by {} at {at}", describe_el(el), describe_el(&b))),
        None => ActionResult::fail(FailReason::Hidden, format!("{} is outside the viewport at {at}", describe_el(el))),
    })
}

/// A <label> whose control is `el` activates it too.
fn label_for(hit: &Element, el: &Element) -> bool {
    let label = hit.closest("label").ok().flatten();
    label
        .and_then(|l| js_sys::Reflect::get(&l, &"control".into()).ok())
        .is_some_and(|c| !c.is_null() && !c.is_undefined() && el.is_same_node(Some(wasm_bindgen::JsCast::unchecked_ref::<web_sys::Node>(&c))))
}

/// The form control a label points at, or the single editable/select inside a wrapper.
pub fn control_of(el: &Element, selector: &str) -> Element {
    if el.matches(selector).unwrap_or(false) {
        return el.clone();
    }
    if crate::dom::tag(el) == "label" {
        if let Some(c) = js_sys::Reflect::get(el, &"control".into())
            .ok()
            .filter(|c| c.is_object())
            .and_then(|c| crate::dom::as_element(wasm_bindgen::JsCast::unchecked_into(c)))
        {
            return c;
        }
    }
    match el.query_selector_all(selector) {
        Ok(list) if list.length() == 1 => list.item(0).and_then(crate::dom::as_element).unwrap_or_else(|| el.clone()),
        _ => el.clone(),
    }
}
