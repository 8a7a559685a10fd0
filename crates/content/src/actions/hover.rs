//! hover: moves the pointer onto the element (mouseover/enter/move); CSS :hover can't be forced.

use super::events::mouse;
use super::{check_visible, hit_point, resolve_required, scroll_into_view, Outcome};
use crate::names::describe_el;
use dusk_core::protocol::actions::{ActionResult, Modifiers, Target};
use web_sys::Document;

#[inline(never)]
pub fn hover(doc: &Document, target: &Target) -> Outcome<ActionResult> {
    let el = resolve_required(doc, target)?;
    check_visible(&el)?;
    scroll_into_view(&el);
    let (hit, x, y) = hit_point(&el)?;
    let m = Modifiers::default();
    for kind in ["pointerover", "pointerenter", "mouseover", "mouseenter", "pointermove", "mousemove"] {
        mouse(&hit, kind, x, y, 0, m);
    }
    Ok(ActionResult::ok(format!("hovering over {}", describe_el(&el))))
}
