//! drag_drop: presses at one point and releases at another, with HTML5 drag events when the
//! source is draggable, else pointer/mouse moves in between (what JS drag libraries listen to).

use super::events::mouse;
use super::Outcome;
use crate::dom::{deep_element_from_point, obj};
use crate::names::describe_el;
use dusk_core::protocol::actions::{ActionResult, FailReason, Modifiers};
use dusk_core::protocol::page::Point;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{DataTransfer, Document, Element};

const STEPS: u32 = 8;

fn drag_event(el: &Element, kind: &str, x: f64, y: f64, data: &DataTransfer) -> bool {
    let view = el.owner_document().and_then(|d| d.default_view()).map_or(JsValue::NULL, JsValue::from);
    let init = obj(&[
        ("bubbles", true.into()),
        ("cancelable", true.into()),
        ("composed", true.into()),
        ("clientX", x.into()),
        ("clientY", y.into()),
        ("dataTransfer", data.into()),
        ("view", view),
    ]);
    match web_sys::DragEvent::new_with_event_init_dict(kind, init.unchecked_ref()) {
        Ok(e) => el.dispatch_event(&e).unwrap_or(true),
        Err(_) => true,
    }
}

#[inline(never)]
pub fn drag_drop(doc: &Document, from: Point, to: Point) -> Outcome<ActionResult> {
    let not_found = |p: Point| ActionResult::fail(FailReason::NotFound, format!("nothing is at ({}, {})", p.x, p.y));
    let (source, sx, sy) = deep_element_from_point(doc, from.x, from.y).ok_or_else(|| not_found(from))?;
    let m = Modifiers::default();
    mouse(&source, "pointerdown", sx, sy, 1, m);
    mouse(&source, "mousedown", sx, sy, 1, m);
    let draggable = source.closest("[draggable=true],a[href],img").ok().flatten().filter(|d| d.get_attribute("draggable").as_deref() != Some("false"));
    if let Some(dragged) = draggable {
        let data = DataTransfer::new().map_err(|_| ActionResult::fail(FailReason::BadTarget, "this page cannot create a DataTransfer"))?;
        if !drag_event(&dragged, "dragstart", sx, sy, &data) {
            return Ok(ActionResult::fail(FailReason::Disabled, format!("the page cancelled dragging {}", describe_el(&dragged))));
        }
        drag_event(&dragged, "drag", sx, sy, &data);
        let (target, tx, ty) = deep_element_from_point(doc, to.x, to.y).ok_or_else(|| not_found(to))?;
        drag_event(&target, "dragenter", tx, ty, &data);
        let accepted = !drag_event(&target, "dragover", tx, ty, &data);
        if accepted {
            drag_event(&target, "drop", tx, ty, &data);
        }
        drag_event(&dragged, "dragend", tx, ty, &data);
        let what = if accepted { "dropped" } else { "released (the target did not accept the drop)" };
        return Ok(ActionResult::ok(format!("dragged {} and {what} on {}", describe_el(&dragged), describe_el(&target))));
    }
    let mut last = source.clone();
    let (mut lx, mut ly) = (sx, sy);
    for i in 1..=STEPS {
        let f = f64::from(i) / f64::from(STEPS);
        let (x, y) = (from.x + (to.x - from.x) * f, from.y + (to.y - from.y) * f);
        if let Some((el, ex, ey)) = deep_element_from_point(doc, x, y) {
            mouse(&el, "pointermove", ex, ey, 1, m);
            mouse(&el, "mousemove", ex, ey, 1, m);
            (last, lx, ly) = (el, ex, ey);
        }
    }
    mouse(&last, "pointerup", lx, ly, 0, m);
    mouse(&last, "mouseup", lx, ly, 0, m);
    Ok(ActionResult::ok(format!("dragged from {} to {}", describe_el(&source), describe_el(&last))))
}
