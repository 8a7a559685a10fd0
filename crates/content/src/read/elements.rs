//! get_elements: indexed interactive elements with stable indices.

use crate::dom::{as_tag, attr, element_text, is_disabled, is_visible, tag, top_rect};
use crate::registry;
use crate::walk::{collect, Context};
use dusk_core::page::elements::{classify, clean_text, Kind, CANDIDATE_SELECTOR};
use dusk_core::protocol::page::{ElementFilter, ElementInfo};
use web_sys::{Document, Element, HtmlIFrameElement, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};

pub fn kind_of(el: &Element, tag: &str) -> Kind {
    let editable = el.has_attribute("contenteditable") && el.get_attribute("contenteditable").as_deref() != Some("false");
    classify(tag, el.get_attribute("type").as_deref(), el.get_attribute("role").as_deref(), editable)
}

fn value_of(el: &Element, tag: &str) -> (Option<String>, Option<bool>) {
    match tag {
        "input" => {
            let Some(input) = as_tag::<HtmlInputElement>(el, "input") else { return (None, None) };
            let t = input.type_().to_ascii_lowercase();
            match t.as_str() {
                "checkbox" | "radio" => (None, Some(input.checked())),
                "password" => (Some("•".repeat(input.value().chars().count().min(20))), None),
                "button" | "submit" | "reset" | "image" | "file" => (None, None),
                _ => (Some(clean_text(&input.value(), 200)), None),
            }
        }
        "textarea" => (as_tag::<HtmlTextAreaElement>(el, "textarea").map(|t| clean_text(&t.value(), 200)), None),
        "select" => {
            let sel = as_tag::<HtmlSelectElement>(el, "select");
            let text = sel.and_then(|s| s.selected_options().item(0)).and_then(|o| o.text_content());
            (text.map(|t| clean_text(&t, 100)), None)
        }
        _ => match el.get_attribute("aria-checked").as_deref() {
            Some("true") => (None, Some(true)),
            Some("false") => (None, Some(false)),
            _ => (None, None),
        },
    }
}

/// Describes one element; registers it so it keeps its index.
pub fn info(el: &Element, context: Context, kind: Kind, tag: &str) -> ElementInfo {
    let (index, new) = registry::index_of(el);
    let rect = top_rect(el);
    let (value, checked) = value_of(el, tag);
    let cross_origin = kind == Kind::Frame && as_tag::<HtmlIFrameElement>(el, "iframe").is_some_and(|f| f.content_document().is_none());
    ElementInfo {
        index,
        tag: tag.to_string(),
        text: element_text(el, tag, 50),
        role: attr(el, "role"),
        input_type: if matches!(tag, "input" | "button") { attr(el, "type").map(|t| t.to_ascii_lowercase()) } else { None },
        placeholder: attr(el, "placeholder"),
        href: if matches!(tag, "a" | "area") { js_sys::Reflect::get(el, &"href".into()).ok().and_then(|h| h.as_string()) } else { None },
        value,
        checked,
        visible: is_visible(el, &rect),
        enabled: !is_disabled(el),
        rect: round(rect),
        new,
        context: if cross_origin { Some("cross_origin_iframe".into()) } else { context.name().map(str::to_string) },
    }
}

fn round(r: dusk_core::protocol::page::Rect) -> dusk_core::protocol::page::Rect {
    let f = |v: f64| (v * 10.0).round() / 10.0;
    dusk_core::protocol::page::Rect { x: f(r.x), y: f(r.y), width: f(r.width), height: f(r.height) }
}

pub fn get_elements(doc: &Document, filter: ElementFilter, visible_only: bool) -> (Vec<ElementInfo>, u32) {
    registry::begin_listing();
    let found = collect(doc, CANDIDATE_SELECTOR);
    let total = found.len() as u32;
    let mut out = Vec::new();
    for f in found {
        let t = tag(&f.el);
        let kind = kind_of(&f.el, &t);
        // Every candidate gets its index now, so "new" stays true to the page whatever the filter.
        if !filter.accepts(kind) {
            registry::index_of(&f.el);
            continue;
        }
        let info = info(&f.el, f.context, kind, &t);
        if visible_only && !info.visible {
            continue;
        }
        out.push(info);
    }
    (out, total)
}
