//! scroll: the page or the nearest scrollable box of the target, by an amount in a direction.

use super::{resolve, Outcome};
use crate::dom::{obj, window};
use crate::names::describe_el;
use dusk_core::protocol::actions::{ActionResult, Direction, FailReason, Target};
use wasm_bindgen::JsCast;
use web_sys::{Document, Element};

fn scrollable(el: &Element, vertical: bool) -> bool {
    let (size, client) = if vertical { (el.scroll_height(), el.client_height()) } else { (el.scroll_width(), el.client_width()) };
    if size <= client + 1 {
        return false;
    }
    let style = el.owner_document().and_then(|d| d.default_view()).and_then(|w| w.get_computed_style(el).ok().flatten());
    let overflow = style.and_then(|s| s.get_property_value(if vertical { "overflow-y" } else { "overflow-x" }).ok()).unwrap_or_default();
    matches!(overflow.as_str(), "auto" | "scroll" | "overlay")
}

#[inline(never)]
pub fn scroll(doc: &Document, target: &Target, direction: Direction, amount: Option<f64>) -> Outcome<ActionResult> {
    let vertical = matches!(direction, Direction::Up | Direction::Down);
    let sign = if matches!(direction, Direction::Up | Direction::Left) { -1.0 } else { 1.0 };
    let mut scroller = resolve(doc, target)?;
    while let Some(el) = scroller.clone() {
        if scrollable(&el, vertical) || matches!(crate::dom::tag(&el).as_str(), "html" | "body") {
            break;
        }
        scroller = el.parent_element();
    }
    let scroller = scroller.filter(|el| !matches!(crate::dom::tag(el).as_str(), "html" | "body"));
    let win = window().map_err(|e| ActionResult::fail(FailReason::NotFound, e))?;
    let (before, after, name) = match &scroller {
        Some(el) => {
            let page = if vertical { f64::from(el.client_height()) } else { f64::from(el.client_width()) };
            let by = sign * amount.unwrap_or(page * 0.8);
            let pos = |e: &Element| if vertical { f64::from(e.scroll_top()) } else { f64::from(e.scroll_left()) };
            let before = pos(el);
            let opts = obj(&[(if vertical { "top" } else { "left" }, by.into()), ("behavior", "instant".into())]);
            el.scroll_by_with_scroll_to_options(opts.unchecked_ref());
            (before, pos(el), describe_el(el))
        }
        None => {
            let size = if vertical { win.inner_height() } else { win.inner_width() };
            let page = size.ok().and_then(|v| v.as_f64()).unwrap_or(600.0);
            let by = sign * amount.unwrap_or(page * 0.8);
            let pos = || if vertical { win.scroll_y().unwrap_or(0.0) } else { win.scroll_x().unwrap_or(0.0) };
            let before = pos();
            let opts = obj(&[(if vertical { "top" } else { "left" }, by.into()), ("behavior", "instant".into())]);
            win.scroll_by_with_scroll_to_options(opts.unchecked_ref());
            (before, pos(), "the page".to_string())
        }
    };
    if (after - before).abs() < 1.0 {
        return Ok(ActionResult::fail(FailReason::AtEdge, format!("{name} did not move: it is already at the {} edge", edge(direction))));
    }
    Ok(ActionResult::ok(format!("scrolled {name} {} by {:.0}px (now at {:.0})", edge(direction), (after - before).abs(), after)))
}

fn edge(d: Direction) -> &'static str {
    match d {
        Direction::Up => "top",
        Direction::Down => "bottom",
        Direction::Left => "left",
        Direction::Right => "right",
    }
}

/// scroll_and_capture's first half: the page's top edge goes to `y`.
#[inline(never)]
pub fn scroll_to(y: f64) -> Outcome<ActionResult> {
    let win = window().map_err(|e| ActionResult::fail(FailReason::NotFound, e))?;
    let opts = obj(&[("top", y.into()), ("behavior", "instant".into())]);
    win.scroll_to_with_scroll_to_options(opts.unchecked_ref());
    Ok(ActionResult::ok(format!("scrolled the page to {:.0} px (asked {:.0})", win.scroll_y().unwrap_or(0.0), y)))
}
