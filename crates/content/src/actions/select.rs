//! select: picks an <option> by value or visible text and fires input + change; on a custom
//! drop-down over a hidden select (read::faces), opens it and clicks the option, as a person does.

use super::click::press;
use super::events::plain;
use super::{check_enabled, check_visible, control_of, hit_point, resolve_required, scroll_into_view, Outcome};
use crate::names::describe_el;
use crate::read::faces::{option_in_sight, select_of_face};
use dusk_core::page::case::lower;
use dusk_core::page::elements::clean_text;
use dusk_core::protocol::actions::{ActionResult, FailReason, Modifiers, Target};
use wasm_bindgen::JsCast;
use web_sys::{Document, Element, HtmlOptionElement, HtmlSelectElement};

fn options_of(sel: &HtmlSelectElement) -> Vec<HtmlOptionElement> {
    (0..sel.length()).filter_map(|i| sel.item(i)).map(|o| o.unchecked_into()).collect()
}

/// The option asked for: by value, else by text (exact, then any case, then a part of it).
fn option_index(el: &Element, options: &[HtmlOptionElement], value: Option<&str>, text: Option<&str>) -> Outcome<usize> {
    let norm = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let found = match (value, text) {
        (Some(v), _) => options.iter().position(|o| o.value() == v),
        (None, Some(t)) => {
            let t = norm(t);
            options
                .iter()
                .position(|o| norm(&o.text()) == t)
                .or_else(|| options.iter().position(|o| norm(&o.text()).eq_ignore_ascii_case(&t)))
                .or_else(|| options.iter().position(|o| lower(&norm(&o.text())).contains(&lower(&t))))
        }
        (None, None) => return Err(ActionResult::fail(FailReason::BadTarget, "give the option's value or text")),
    };
    let Some(i) = found else {
        let names: Vec<String> = options.iter().take(20).map(|o| clean_text(&o.text(), 40)).collect();
        return Err(ActionResult::fail(FailReason::NoOption, format!("{} has no such option; options are: {}", describe_el(el), names.join(", "))));
    };
    if options[i].disabled() {
        return Err(ActionResult::fail(FailReason::Disabled, format!("option \"{}\" is disabled", clean_text(&options[i].text(), 40))));
    }
    Ok(i)
}

#[inline(never)]
pub fn select(doc: &Document, target: &Target, value: Option<&str>, text: Option<&str>) -> Outcome<ActionResult> {
    let target = resolve_required(doc, target)?;
    if let Some(hidden) = select_of_face(&target) {
        return through_face(&target, &hidden, value, text);
    }
    let el = control_of(&target, "select");
    let Some(sel) = crate::dom::as_tag::<HtmlSelectElement>(&el, "select") else {
        return Err(ActionResult::fail(FailReason::NotEditable, format!("{} is not a <select>; click it and then click the option", describe_el(&el))));
    };
    check_visible(&el)?;
    check_enabled(&el)?;
    let options = options_of(sel);
    let i = option_index(&el, &options, value, text)?;
    let option = &options[i];
    crate::dom::focus(&el);
    if sel.multiple() {
        option.set_selected(true);
    } else {
        sel.set_selected_index(i as i32);
    }
    plain(&el, "input");
    plain(&el, "change");
    Ok(ActionResult::ok(format!("selected \"{}\" in {}", clean_text(&option.text(), 60), describe_el(&el))))
}

/// Clicks at the element's free point, as `click` does.
fn click_on(el: &Element) -> Outcome<()> {
    scroll_into_view(el);
    let (hit, x, y) = hit_point(el)?;
    press(&hit, x, y, Modifiers::default());
    Ok(())
}

/// A custom drop-down: opens it and clicks the option in its list; a widget whose list didn't
/// show gets the hidden select set and told of the change, as a script would.
fn through_face(face: &Element, hidden: &Element, value: Option<&str>, text: Option<&str>) -> Outcome<ActionResult> {
    let Some(sel) = crate::dom::as_tag::<HtmlSelectElement>(hidden, "select") else {
        return Err(ActionResult::fail(FailReason::NotEditable, format!("{} is not a drop-down", describe_el(face))));
    };
    check_enabled(hidden)?;
    let options = options_of(sel);
    let i = option_index(face, &options, value, text)?;
    let wanted = clean_text(&options[i].text(), 200);
    if sel.selected_index() == i as i32 {
        return Ok(ActionResult::ok(format!("\"{wanted}\" was already chosen in {}", describe_el(face))));
    }
    click_on(face)?;
    let clicked = match option_in_sight(hidden, face, &wanted) {
        Some(option) => click_on(&option).is_ok(),
        None => false,
    };
    if sel.selected_index() != i as i32 {
        sel.set_selected_index(i as i32);
        plain(hidden, "input");
        plain(hidden, "change");
    }
    if sel.selected_index() != i as i32 {
        return Err(ActionResult::fail(FailReason::Rejected, format!("{} did not take \"{wanted}\"", describe_el(face))));
    }
    let shows = crate::text::text_of(face, 200);
    let how = if clicked { "opened it and clicked the option" } else { "its list showed no such option, so the form's select was set" };
    let note = if lower(&shows).contains(&lower(&wanted)) { String::new() } else { format!("; it still shows \"{shows}\"") };
    Ok(ActionResult::ok(format!("chose \"{wanted}\" in {} ({how}){note}", describe_el(face))))
}
