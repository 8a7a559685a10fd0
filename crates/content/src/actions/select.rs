//! select: picks an <option> by value or visible text and fires input + change.

use super::events::plain;
use super::{check_enabled, check_visible, control_of, resolve_required, Outcome};
use crate::names::describe_el;
use dusk_core::page::case::lower;
use dusk_core::page::elements::clean_text;
use dusk_core::protocol::actions::{ActionResult, FailReason, Target};
use wasm_bindgen::JsCast;
use web_sys::{Document, HtmlOptionElement, HtmlSelectElement};

#[inline(never)]
pub fn select(doc: &Document, target: &Target, value: Option<&str>, text: Option<&str>) -> Outcome<ActionResult> {
    let el = control_of(&resolve_required(doc, target)?, "select");
    let Some(sel) = crate::dom::as_tag::<HtmlSelectElement>(&el, "select") else {
        return Err(ActionResult::fail(FailReason::NotEditable, format!("{} is not a <select>; click it and then click the option", describe_el(&el))));
    };
    check_visible(&el)?;
    check_enabled(&el)?;
    let options: Vec<HtmlOptionElement> = (0..sel.length()).filter_map(|i| sel.item(i)).map(|o| o.unchecked_into()).collect();
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
        return Err(ActionResult::fail(FailReason::NoOption, format!("{} has no such option; options are: {}", describe_el(&el), names.join(", "))));
    };
    let option = &options[i];
    if option.disabled() {
        return Err(ActionResult::fail(FailReason::Disabled, format!("option \"{}\" is disabled", clean_text(&option.text(), 40))));
    }
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
