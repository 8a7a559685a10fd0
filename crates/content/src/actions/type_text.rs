//! type_text: focuses, optionally clears, then types character by character with key and input
//! events, setting values through the native setter so framework-controlled inputs notice.

use super::caret;
use super::click::press;
use super::editable::{editable_kind, Editable, EDITABLE};
use super::events::{exec_command, input, key, native_set, plain};
use super::{check_enabled, check_visible, control_of, hit_point, resolve, scroll_into_view, Outcome};
use crate::dom::{deep_active_element, is_visible, local_rect};
use crate::names::describe_el;
use dusk_core::page::input_value::{is_whole_value, whole_value};
use dusk_core::page::keys::{key_spec, KeySpec};
use dusk_core::page::text_edit::edit_range;
use dusk_core::protocol::actions::{ActionResult, FailReason, Modifiers, Target, TypeAt};
use wasm_bindgen::JsValue;
use web_sys::{Document, Element};

fn value(el: &Element) -> String {
    crate::dom::member(el, "value").as_string().unwrap_or_default()
}

fn char_spec(c: char) -> KeySpec {
    key_spec(&c.to_string()).unwrap_or(KeySpec { key: c.to_string(), code: String::new(), key_code: 0, text: Some(c) })
}

/// `value` with UTF-16 range `start..end` replaced by `c`.
fn splice(value: &str, start: u32, end: u32, c: char) -> String {
    let units: Vec<u16> = value.encode_utf16().collect();
    let (start, end) = ((start as usize).min(units.len()), (end as usize).min(units.len()));
    let mut buf = [0u16; 2];
    let mid = c.encode_utf16(&mut buf);
    String::from_utf16_lossy(&[&units[..start.min(end)], &*mid, &units[end.max(start)..]].concat())
}

/// Types one character into a text field as a keystroke would: over the selection, else at the end.
pub fn type_char_field(el: &Element, c: char) {
    let spec = char_spec(c);
    let m = Modifiers::default();
    if !key(el, "keydown", &spec, m) {
        key(el, "keyup", &spec, m);
        return;
    }
    let proceed = key(el, "keypress", &spec, m) && input(el, "beforeinput", "insertText", Some(&c.to_string()));
    if proceed {
        let now = value(el);
        match caret::selection(el) {
            Some((start, end)) => {
                native_set(el, "value", &JsValue::from_str(&splice(&now, start, end, c)));
                let at = start.min(end) + c.len_utf16() as u32;
                caret::select_range(el, at, at);
            }
            None => {
                native_set(el, "value", &JsValue::from_str(&format!("{now}{c}")));
            }
        }
        input(el, "input", "insertText", Some(&c.to_string()));
    }
    key(el, "keyup", &spec, m);
}

/// Puts the caret at the end of a contenteditable element.
fn caret_to_end(el: &Element) {
    let Some(doc) = el.owner_document() else { return };
    let (Ok(range), Some(sel)) = (doc.create_range(), doc.default_view().and_then(|w| w.get_selection().ok().flatten())) else { return };
    let _ = range.select_node_contents(el);
    range.collapse_with_to_start(false);
    let _ = sel.remove_all_ranges();
    let _ = sel.add_range(&range);
}

fn type_rich(el: &Element, text: &str, clear: bool) {
    if clear {
        if let (Some(doc), Some(sel)) = (el.owner_document(), el.owner_document().and_then(|d| d.default_view()).and_then(|w| w.get_selection().ok().flatten()))
        {
            if let Ok(range) = doc.create_range() {
                let _ = range.select_node_contents(el);
                let _ = sel.remove_all_ranges();
                let _ = sel.add_range(&range);
                if !exec_command(el, "delete", "") {
                    el.set_text_content(None);
                }
            }
        }
    }
    caret_to_end(el);
    if !exec_command(el, "insertText", text) {
        let _ = el.append_with_str_1(text);
        input(el, "input", "insertText", Some(text));
    }
}

/// The visible box around a hidden field that takes its keys: xterm.js, CodeMirror and Monaco
/// keep a transparent textarea inside the editor a person sees.
fn visible_editor(el: &Element) -> Option<Element> {
    let mut up = el.parent_element();
    for _ in 0..8 {
        let a = up?;
        let r = local_rect(&a);
        if r.width >= 20.0 && r.height >= 10.0 && is_visible(&a, &r) {
            return Some(a);
        }
        up = a.parent_element();
    }
    None
}

/// Where a person can type but the field is hidden: clicks the editor, then sends the text as
/// key events to whatever took the focus.
fn type_through_editor(doc: &Document, el: &Element, text: &str, hidden: ActionResult) -> Outcome<ActionResult> {
    check_enabled(el)?;
    let editor = visible_editor(el).ok_or(hidden)?;
    scroll_into_view(&editor);
    let (hit, x, y) = hit_point(&editor)?;
    press(&hit, x, y, Modifiers::default());
    let focused = deep_active_element(doc).filter(|f| editable_kind(f).is_some()).unwrap_or_else(|| el.clone());
    match editable_kind(&focused) {
        Some(Editable::Rich) => type_rich(&focused, text, false),
        _ => text.chars().for_each(|c| type_char_field(&focused, c)),
    }
    let n = text.chars().count();
    Ok(ActionResult::ok(format!("clicked {} and typed {n} characters as keys into {}, which has the focus", describe_el(&editor), describe_el(&focused))))
}

#[inline(never)]
pub fn type_text(doc: &Document, target: &Target, text: &str, clear: bool, at: Option<&TypeAt>) -> Outcome<ActionResult> {
    let text = &dusk_core::page::keys::as_typed(text);
    let el = match resolve(doc, target)? {
        Some(el) => control_of(&el, EDITABLE),
        None => deep_active_element(doc).ok_or_else(|| ActionResult::fail(FailReason::BadTarget, "nothing is focused; give a target"))?,
    };
    let input_type = el.get_attribute("type").map(|t| t.to_ascii_lowercase()).unwrap_or_default();
    if crate::dom::tag(&el) == "input" && is_whole_value(&input_type) {
        check_visible(&el)?;
        check_enabled(&el)?;
        scroll_into_view(&el);
        crate::dom::focus(&el);
        return set_whole(&el, &input_type, text);
    }
    let Some(kind) = editable_kind(&el) else {
        return Err(ActionResult::fail(FailReason::NotEditable, format!("{} does not accept text", describe_el(&el))));
    };
    if at.is_some() && !matches!(kind, Editable::Field) {
        return Err(ActionResult::fail(
            FailReason::Unsupported,
            format!("after_line and replace work in text fields; {} is a rich editor: click where the text goes, then type", describe_el(&el)),
        ));
    }
    if let Err(hidden) = check_visible(&el) {
        return type_through_editor(doc, &el, text, hidden);
    }
    check_enabled(&el)?;
    if el.has_attribute("readonly") {
        return Err(ActionResult::fail(FailReason::Disabled, format!("{} is read-only", describe_el(&el))));
    }
    scroll_into_view(&el);
    crate::dom::focus(&el);
    match kind {
        Editable::Field => {
            let text = match at {
                Some(at) => {
                    let (start, end, put) = edit_range(&value(&el), at, text).map_err(|m| ActionResult::fail(FailReason::NoOption, m))?;
                    caret::select_range(&el, start, end);
                    put
                }
                None => {
                    if clear && !value(&el).is_empty() {
                        native_set(&el, "value", &JsValue::from_str(""));
                        input(&el, "input", "deleteContentBackward", None);
                    }
                    // Where a click put the caret, typing goes there; else at the end, after what the field holds.
                    if !caret::placed_in(&el) {
                        let end = value(&el).encode_utf16().count() as u32;
                        caret::select_range(&el, end, end);
                    }
                    text.to_string()
                }
            };
            let text = text.as_str();
            caret::remember(&el);
            for c in text.chars() {
                type_char_field(&el, c);
            }
            plain(&el, "change");
            let now = value(&el);
            if !text.is_empty() && now.is_empty() {
                return Err(ActionResult::fail(
                    FailReason::Rejected,
                    format!("typed \"{text}\" into {} but the field is empty afterwards: the page rejected or cleared it", describe_el(&el)),
                ));
            }
            Ok(ActionResult::ok(format!("typed into {}; its value is now \"{}\"", describe_el(&el), masked(&el, &now))))
        }
        Editable::Rich => {
            type_rich(&el, text, clear);
            let now = el.text_content().unwrap_or_default();
            Ok(ActionResult::ok(format!("typed into {}; it now reads \"{}\"", describe_el(&el), dusk_core::page::elements::clean_text(&now, 80))))
        }
    }
}

/// Date, time, colour and range inputs take their value whole, in their own format.
fn set_whole(el: &Element, input_type: &str, text: &str) -> Outcome<ActionResult> {
    let (wanted, format) = whole_value(input_type, text).map_err(|e| ActionResult::fail(FailReason::Rejected, e))?;
    native_set(el, "value", &JsValue::from_str(&wanted));
    input(el, "input", "insertReplacementText", Some(&wanted));
    plain(el, "change");
    let now = value(el);
    if now != wanted {
        let why = if now.is_empty() {
            "the field is empty (out of its min/max, or not a value it accepts)".to_string()
        } else {
            format!("it holds \"{now}\" (clamped to its min/max/step)")
        };
        return Err(ActionResult::fail(FailReason::Rejected, format!("set {} to \"{wanted}\" (read \"{text}\" as {format}) but {why}", describe_el(el))));
    }
    Ok(ActionResult::ok(format!("set {} to \"{wanted}\" (read \"{text}\" as {format}); its value is now \"{now}\"", describe_el(el))))
}

fn masked(el: &Element, v: &str) -> String {
    if el.get_attribute("type").is_some_and(|t| t.eq_ignore_ascii_case("password")) {
        "•".repeat(v.chars().count())
    } else {
        dusk_core::page::elements::clean_text(v, 80)
    }
}
