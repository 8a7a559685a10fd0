//! get_elements: indexed interactive elements with stable indices.

use crate::dom::{as_tag, attr, cache_labels, get_attr, js_name, element_text, forget_labels, is_disabled, is_visible, local_rect, tag};
use crate::registry;
use crate::walk::{elements, roots, Context};
use dusk_core::page::elements::{classify, clean_text, Kind, CANDIDATE_SELECTOR};
use dusk_core::protocol::page::{ElementFilter, ElementInfo};
use web_sys::{Document, Element, HtmlIFrameElement, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};

pub fn kind_of(el: &Element, tag: &str) -> Kind {
    let editable = get_attr(el, "contenteditable").is_some_and(|v| v != "false");
    classify(tag, get_attr(el, "type").as_deref(), get_attr(el, "role").as_deref(), editable)
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
        _ => match get_attr(el, "aria-checked").as_deref() {
            Some("true") => (None, Some(true)),
            Some("false") => (None, Some(false)),
            _ => (None, None),
        },
    }
}

/// Describes one element; registers it so it keeps its index.
pub fn info(el: &Element, context: Context, offset: (f64, f64), kind: Kind, tag: &str) -> ElementInfo {
    let (index, new) = registry::index_of(el);
    let mut rect = local_rect(el);
    rect.x += offset.0;
    rect.y += offset.1;
    let (value, checked) = value_of(el, tag);
    let cross_origin = kind == Kind::Frame && as_tag::<HtmlIFrameElement>(el, "iframe").is_some_and(|f| f.content_document().is_none());
    ElementInfo {
        index,
        tag: tag.to_string(),
        text: element_text(el, tag, 50),
        role: attr(el, "role"),
        input_type: if matches!(tag, "input" | "button") { attr(el, "type").map(|t| t.to_ascii_lowercase()) } else { None },
        placeholder: attr(el, "placeholder"),
        href: if matches!(tag, "a" | "area") { js_sys::Reflect::get(el, &js_name("href")).ok().and_then(|h| h.as_string()) } else { None },
        value,
        checked,
        visible: is_visible(el, &rect),
        enabled: !is_disabled(el),
        rect,
        new,
        context: if cross_origin { Some("cross_origin_iframe".into()) } else { context.name().map(str::to_string) },
    }
}

pub fn get_elements(doc: &Document, filter: ElementFilter, visible_only: bool, offset: u32, limit: u32) -> (Vec<ElementInfo>, u32) {
    registry::begin_listing();
    let roots = roots(doc);
    cache_labels(roots.iter().filter_map(|r| r.query_all("label[for]")));
    let mut out = Vec::new();
    let mut matched = 0;
    for root in &roots {
        for el in elements(root.query_all(CANDIDATE_SELECTOR)) {
            // Past the window, "all" needs no classification: only the index and the count.
            if filter == ElementFilter::All && !visible_only && out.len() as u32 >= limit {
                registry::index_of(&el);
                matched += 1;
                continue;
            }
            let t = tag(&el);
            let kind = kind_of(&el, &t);
            // Every candidate gets its index now, so "new" stays true to the page whatever the filter.
            if !filter.accepts(kind) || matched < offset || out.len() as u32 >= limit {
                if filter.accepts(kind) && (!visible_only || is_visible(&el, &local_rect(&el))) {
                    matched += 1;
                }
                registry::index_of(&el);
                continue;
            }
            let info = info(&el, root.context, root.offset, kind, &t);
            if visible_only && !info.visible {
                continue;
            }
            matched += 1;
            out.push(info);
        }
    }
    forget_labels();
    (out, matched)
}
