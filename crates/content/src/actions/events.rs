//! Builds and dispatches the events a real user's input produces.

use crate::dom::obj;
use dusk_core::page::keys::KeySpec;
use dusk_core::protocol::actions::Modifiers;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Element, Event, EventTarget};

fn base(bubbles: bool, modifiers: Modifiers) -> Vec<(&'static str, JsValue)> {
    vec![
        ("bubbles", bubbles.into()),
        ("cancelable", true.into()),
        ("composed", true.into()),
        ("ctrlKey", modifiers.ctrl.into()),
        ("shiftKey", modifiers.shift.into()),
        ("altKey", modifiers.alt.into()),
        ("metaKey", modifiers.meta.into()),
    ]
}

fn view_of(el: &Element) -> JsValue {
    el.owner_document().and_then(|d| d.default_view()).map_or(JsValue::NULL, JsValue::from)
}

fn dispatch(target: &EventTarget, event: Result<impl JsCast, JsValue>) -> bool {
    match event {
        Ok(e) => target.dispatch_event(e.unchecked_ref::<Event>()).unwrap_or(true),
        Err(_) => true,
    }
}

/// Dispatches a mouse or pointer event at a point of the element's document; false if cancelled.
pub fn mouse(el: &Element, kind: &str, x: f64, y: f64, buttons: u16, modifiers: Modifiers) -> bool {
    let bubbles = !matches!(kind, "mouseenter" | "mouseleave" | "pointerenter" | "pointerleave");
    let mut init = base(bubbles, modifiers);
    init.extend([
        ("clientX", x.into()),
        ("clientY", y.into()),
        ("screenX", x.into()),
        ("screenY", y.into()),
        ("button", 0.into()),
        ("buttons", buttons.into()),
        ("detail", (if kind.ends_with("click") || kind.starts_with("mouse") { 1 } else { 0 }).into()),
        ("view", view_of(el)),
    ]);
    if kind.starts_with("pointer") {
        init.extend([("pointerId", 1.into()), ("pointerType", "mouse".into()), ("isPrimary", true.into()), ("width", 1.into()), ("height", 1.into())]);
        let dict = obj(&init);
        dispatch(el, web_sys::PointerEvent::new_with_event_init_dict(kind, dict.unchecked_ref()))
    } else {
        let dict = obj(&init);
        dispatch(el, web_sys::MouseEvent::new_with_mouse_event_init_dict(kind, dict.unchecked_ref()))
    }
}

/// keydown / keypress / keyup with key, code and the legacy keyCode/which old widgets read.
pub fn key(el: &Element, kind: &str, spec: &KeySpec, modifiers: Modifiers) -> bool {
    let mut init = base(true, modifiers);
    let code = if kind == "keypress" { spec.text.map_or(spec.key_code, |c| c as u32) } else { spec.key_code };
    init.extend([
        ("key", spec.key.as_str().into()),
        ("code", spec.code.as_str().into()),
        ("keyCode", code.into()),
        ("which", code.into()),
        ("charCode", (if kind == "keypress" { code } else { 0 }).into()),
        ("view", view_of(el)),
    ]);
    let dict = obj(&init);
    dispatch(el, web_sys::KeyboardEvent::new_with_keyboard_event_init_dict(kind, dict.unchecked_ref()))
}

/// An `input` (or `beforeinput`) event as typing produces it.
pub fn input(el: &Element, kind: &str, input_type: &str, data: Option<&str>) -> bool {
    let mut init = base(true, Modifiers::default());
    if kind == "input" {
        init.retain(|(k, _)| *k != "cancelable");
    }
    init.extend([("inputType", input_type.into()), ("data", data.map_or(JsValue::NULL, JsValue::from))]);
    let dict = obj(&init);
    dispatch(el, web_sys::InputEvent::new_with_event_init_dict(kind, dict.unchecked_ref()))
}

/// A plain bubbling event such as `change`.
pub fn plain(el: &EventTarget, kind: &str) -> bool {
    let dict = obj(&[("bubbles", true.into())]);
    dispatch(el, Event::new_with_event_init_dict(kind, dict.unchecked_ref()))
}

/// Calls the property setter the element's prototype chain defines, bypassing page overrides
/// (React and others track values through an instance property).
pub fn native_set(el: &Element, prop: &str, value: &JsValue) -> bool {
    let key = JsValue::from_str(prop);
    let mut proto = js_sys::Object::get_prototype_of(el);
    for _ in 0..8 {
        if proto.is_null() || proto.is_undefined() {
            break;
        }
        let desc = js_sys::Object::get_own_property_descriptor(&proto, &key);
        let setter = crate::dom::method(&desc, "set");
        if let Some(set) = setter {
            return set.call1(el, value).is_ok();
        }
        proto = js_sys::Object::get_prototype_of(&proto);
    }
    js_sys::Reflect::set(el, &key, value).unwrap_or(false)
}

/// `document.execCommand(name, false, value)` on the element's document.
pub fn exec_command(el: &Element, name: &str, value: &str) -> bool {
    let Some(doc) = el.owner_document() else { return false };
    let f = crate::dom::method(&doc, "execCommand");
    f.and_then(|f| f.call3(&doc, &name.into(), &false.into(), &value.into()).ok()).and_then(|r| r.as_bool()).unwrap_or(false)
}
