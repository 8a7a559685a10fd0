//! click: scroll into view, hit-test the topmost element, then the full pointer/mouse sequence.

use super::events::mouse;
use super::{check_enabled, check_visible, hit_point, resolve_required, scroll_into_view, Outcome};
use crate::dom::deep_element_from_point;
use crate::names::describe_el;
use dusk_core::protocol::actions::{ActionResult, Modifiers, Target, TargetKind};
use web_sys::{Document, Element};

const FOCUSABLE: &str = "a[href],button,input,select,textarea,summary,[tabindex],[contenteditable]:not([contenteditable=false])";

/// The press/release/click sequence at a point, as a real mouse produces it.
pub fn press(hit: &Element, x: f64, y: f64, modifiers: Modifiers) {
    mouse(hit, "pointerover", x, y, 0, modifiers);
    mouse(hit, "mouseover", x, y, 0, modifiers);
    mouse(hit, "pointermove", x, y, 0, modifiers);
    mouse(hit, "mousemove", x, y, 0, modifiers);
    mouse(hit, "pointerdown", x, y, 1, modifiers);
    let focus_allowed = mouse(hit, "mousedown", x, y, 1, modifiers);
    if focus_allowed {
        focus_for_click(hit);
    }
    mouse(hit, "pointerup", x, y, 0, modifiers);
    mouse(hit, "mouseup", x, y, 0, modifiers);
    mouse(hit, "click", x, y, 0, modifiers);
}

/// A mousedown focuses the nearest focusable ancestor, or blurs the focused element.
fn focus_for_click(hit: &Element) {
    match hit.closest(FOCUSABLE).ok().flatten() {
        Some(f) => crate::dom::focus(&f),
        None => {
            let active = hit.owner_document().and_then(|d| d.active_element());
            if let Some(a) = active.as_ref().and_then(crate::dom::as_html) {
                let _ = a.blur();
            }
        }
    }
}

#[inline(never)]
pub fn click(doc: &Document, target: &Target, modifiers: Modifiers) -> Outcome<ActionResult> {
    if let Ok(TargetKind::Point(x, y)) = target.kind() {
        let (hit, lx, ly) = deep_element_from_point(doc, x, y)
            .ok_or_else(|| ActionResult::fail(dusk_core::protocol::actions::FailReason::NotFound, format!("nothing is at ({x}, {y})")))?;
        press(&hit, lx, ly, modifiers);
        return Ok(ActionResult::ok(format!("clicked {} at ({x}, {y})", describe_el(&hit))));
    }
    let el = resolve_required(doc, target)?;
    check_enabled(&el)?;
    // Styled checkboxes and radios hide the input and show its label; a user clicks the label.
    let el = match check_visible(&el) {
        Ok(()) => el,
        Err(hidden) => visible_label(&el).ok_or(hidden)?,
    };
    scroll_into_view(&el);
    let (hit, x, y) = hit_point(&el)?;
    press(&hit, x, y, modifiers);
    // A click in a text field puts the caret where it lands, as a person's does.
    if matches!(super::editable::editable_kind(&el), Some(super::editable::Editable::Field)) && crate::dom::deep_active_element(doc).as_ref() == Some(&el) {
        super::caret::place_at_point(&el, x, y);
    }
    Ok(ActionResult::ok(format!("clicked {}", describe_el(&el))))
}

fn visible_label(el: &Element) -> Option<Element> {
    let labels = Some(crate::dom::member(el, "labels")).filter(|l| l.is_object())?;
    let labels: web_sys::NodeList = wasm_bindgen::JsCast::unchecked_into(labels);
    (0..labels.length()).filter_map(|i| labels.item(i)).filter_map(crate::dom::as_element).find(|l| check_visible(l).is_ok())
}
