//! press_key: keydown/keypress/keyup on the focused element, then the browser's default action
//! (Enter submits a form via its default button or requestSubmit, Tab moves focus, and so on).

use super::click::press;
use super::editable::{editable_kind, Editable};
use super::events::{input, key, native_set, plain};
use super::{resolve, scroll_into_view, Outcome};
use crate::dom::{as_element, as_tag, deep_active_element, focus, is_visible, local_rect, tag};
use crate::names::describe_el;
use dusk_core::page::keys::parse_combo;
use dusk_core::protocol::actions::{ActionResult, FailReason, Modifiers, Target};
use wasm_bindgen::JsValue;
use web_sys::{Document, Element, HtmlFormElement, HtmlInputElement};

const TABBABLE: &str = "a[href],button:not([disabled]),input:not([disabled]):not([type=hidden]),select:not([disabled]),textarea:not([disabled]),[tabindex]:not([tabindex='-1']),[contenteditable]:not([contenteditable=false])";

#[inline(never)]
pub fn press_key(doc: &Document, target: &Target, combo: &str, modifiers: Modifiers) -> Outcome<ActionResult> {
    let (spec, m) = parse_combo(combo, modifiers)
        .ok_or_else(|| ActionResult::fail(FailReason::BadTarget, format!("unknown key \"{combo}\"; use names like Enter, Tab, ArrowDown, a, Ctrl+a")))?;
    // Clipboard shortcuts would report success and do nothing: the page can't reach the system
    // clipboard from here, and Dusk won't touch it without the user.
    if (m.ctrl || m.meta) && matches!(spec.key.to_ascii_lowercase().as_str(), "a" | "c" | "v" | "x") {
        return Err(ActionResult::fail(
            FailReason::Unsupported,
            format!("{combo} (select all / copy / paste / cut) is not supported; use type_text with clear: true to replace a field's text, or with the text to insert"),
        ));
    }
    let el = match resolve(doc, target)? {
        Some(el) => {
            scroll_into_view(&el);
            focus(&el);
            el
        }
        None => {
            deep_active_element(doc).or_else(|| doc.body().map(Into::into)).ok_or_else(|| ActionResult::fail(FailReason::NotFound, "the page has no body"))?
        }
    };
    let plain_key = !(m.ctrl || m.alt || m.meta);
    let proceed = key(&el, "keydown", &spec, m);
    let mut effect = String::new();
    if proceed {
        let editable = editable_kind(&el);
        let keypress_ok = if plain_key && (spec.text.is_some() || spec.key == "Enter") { key(&el, "keypress", &spec, m) } else { true };
        if keypress_ok {
            effect = default_action(doc, &el, &spec.key, spec.text, editable, m, plain_key);
        }
    } else {
        effect = "the page handled it (default prevented)".into();
    }
    key(&el, "keyup", &spec, m);
    if plain_key && spec.key == " " && proceed && is_activatable(&el) {
        click_el(&el);
        effect = format!("activated {}", describe_el(&el));
    }
    let mut msg = format!("pressed {combo} on {}", describe_el(&el));
    if !effect.is_empty() {
        msg.push_str(&format!("; {effect}"));
    }
    Ok(ActionResult::ok(msg))
}

fn is_activatable(el: &Element) -> bool {
    let t = tag(el);
    t == "button"
        || el.get_attribute("role").as_deref() == Some("button")
        || (t == "input"
            && matches!(el.get_attribute("type").unwrap_or_default().to_ascii_lowercase().as_str(), "checkbox" | "radio" | "button" | "submit" | "reset"))
}

fn click_el(el: &Element) {
    let r = local_rect(el);
    let (x, y) = r.center();
    press(el, x, y, Modifiers::default());
}

fn default_action(doc: &Document, el: &Element, key_name: &str, text: Option<char>, editable: Option<Editable>, m: Modifiers, plain_key: bool) -> String {
    match (key_name, &editable) {
        ("Enter", Some(Editable::Field)) if tag(el) == "input" => submit_implicitly(el),
        ("Enter", Some(Editable::Field)) => {
            insert_field(el, "\n");
            String::new()
        }
        ("Enter", Some(Editable::Rich)) => {
            super::events::exec_command(el, "insertParagraph", "");
            String::new()
        }
        ("Enter", None) if is_activatable(el) || tag(el) == "a" => {
            click_el(el);
            format!("activated {}", describe_el(el))
        }
        ("Backspace", Some(Editable::Field)) => {
            let v = field_value(el);
            let mut chars: Vec<char> = v.chars().collect();
            chars.pop();
            native_set(el, "value", &JsValue::from_str(&chars.into_iter().collect::<String>()));
            input(el, "input", "deleteContentBackward", None);
            String::new()
        }
        ("Backspace", Some(Editable::Rich)) => {
            super::events::exec_command(el, "delete", "");
            String::new()
        }
        ("Tab", _) => move_focus(doc, el, m.shift),
        (_, Some(Editable::Field)) if plain_key && text.is_some() => {
            if let Some(c) = text {
                insert_field(el, &c.to_string());
            }
            String::new()
        }
        (_, Some(Editable::Rich)) if plain_key && text.is_some() => {
            super::events::exec_command(el, "insertText", &text.map(String::from).unwrap_or_default());
            String::new()
        }
        ("PageDown" | "PageUp" | "Home" | "End" | " ", None) if matches!(tag(el).as_str(), "body" | "html") => scroll_page(doc, key_name),
        _ => String::new(),
    }
}

fn field_value(el: &Element) -> String {
    crate::dom::member(el, "value").as_string().unwrap_or_default()
}

fn insert_field(el: &Element, s: &str) {
    native_set(el, "value", &JsValue::from_str(&format!("{}{s}", field_value(el))));
    input(el, "input", if s == "\n" { "insertLineBreak" } else { "insertText" }, Some(s));
}

/// What a browser does on Enter in a text input: click the form's default button, else requestSubmit.
fn submit_implicitly(el: &Element) -> String {
    let Some(form) = as_tag::<HtmlInputElement>(el, "input").and_then(|i| i.form()) else {
        return String::new();
    };
    plain(el, "change");
    let default_button = form.query_selector("button:not([type]),button[type=submit],input[type=submit],input[type=image]").ok().flatten();
    if let Some(button) = default_button {
        if crate::dom::is_disabled(&button) {
            return "the form's submit button is disabled, so nothing was submitted".into();
        }
        click_el_untested(&button);
        return format!("submitted the form via {}", describe_el(&button));
    }
    match form.request_submit() {
        Ok(()) => format!("submitted {}", describe_form(&form)),
        Err(_) => "the form could not be submitted".into(),
    }
}

/// Implicit submission fires a click on the default button without moving the mouse.
fn click_el_untested(button: &Element) {
    let r = local_rect(button);
    let (x, y) = r.center();
    super::events::mouse(button, "click", x, y, 0, Modifiers::default());
}

fn describe_form(form: &HtmlFormElement) -> String {
    let id = form.id();
    if id.is_empty() {
        "the form".into()
    } else {
        format!("form#{id}")
    }
}

fn move_focus(doc: &Document, from: &Element, back: bool) -> String {
    let root = from.owner_document().unwrap_or_else(|| doc.clone());
    let Ok(list) = root.query_selector_all(TABBABLE) else { return String::new() };
    let items: Vec<Element> = (0..list.length()).filter_map(|i| list.item(i)).filter_map(as_element).filter(|e| is_visible(e, &local_rect(e))).collect();
    if items.is_empty() {
        return String::new();
    }
    let pos = items.iter().position(|e| e == from);
    let next = match (pos, back) {
        (Some(p), false) => (p + 1) % items.len(),
        (Some(p), true) => (p + items.len() - 1) % items.len(),
        (None, false) => 0,
        (None, true) => items.len() - 1,
    };
    focus(&items[next]);
    format!("focus moved to {}", describe_el(&items[next]))
}

fn scroll_page(doc: &Document, key_name: &str) -> String {
    let Some(win) = doc.default_view() else { return String::new() };
    let h = win.inner_height().ok().and_then(|v| v.as_f64()).unwrap_or(600.0);
    match key_name {
        "Home" => win.scroll_to_with_x_and_y(win.scroll_x().unwrap_or(0.0), 0.0),
        "End" => win.scroll_to_with_x_and_y(win.scroll_x().unwrap_or(0.0), 1e9),
        "PageUp" => win.scroll_by_with_x_and_y(0.0, -h * 0.875),
        _ => win.scroll_by_with_x_and_y(0.0, h * 0.875),
    }
    format!("the page scrolled to {:.0}", win.scroll_y().unwrap_or(0.0))
}
