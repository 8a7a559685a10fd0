//! get_elements: indexed interactive elements with stable indices.

use super::clickable::candidates;
use crate::dom::{
    as_tag, attr, cache_labels, element_text, forget_labels, get_attr, has_attr, is_disabled, is_visible, js_name, local_rect, on_screen_areas, on_screen_rect,
    tag,
};
use crate::registry;
use crate::walk::{roots, Context};
use dusk_core::page::elements::{classify, clean_text, is_candidate, is_native, Extra, Kind, CANDIDATE_SELECTOR};
use dusk_core::protocol::page::{ElementFilter, ElementInfo};
use web_sys::{Document, Element, HtmlIFrameElement, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};

/// The element's kind, or None when the broad candidate net caught something not interactive.
/// `scripted`: clickable only through script (pointer cursor, a click listener, a menu item).
pub fn candidate_kind(el: &Element, tag: &str, scripted: bool) -> Option<Kind> {
    let (role, editable) = (get_attr(el, "role"), get_attr(el, "contenteditable").is_some_and(|v| v != "false"));
    let has_href = matches!(tag, "a" | "area") && has_attr(el, "href");
    if scripted {
        let input_type = if matches!(tag, "input" | "button") { get_attr(el, "type") } else { None };
        return Some(match classify(tag, input_type.as_deref(), role.as_deref(), editable) {
            Kind::Other => Kind::Button,
            k => k,
        });
    }
    if !is_native(tag, has_href) {
        let tabindex = get_attr(el, "tabindex");
        let extra = Extra { role: role.as_deref(), tabindex: tabindex.as_deref(), onclick: has_attr(el, "onclick"), editable };
        if !is_candidate(tag, has_href, &extra) {
            return None;
        }
    }
    let input_type = if matches!(tag, "input" | "button") { get_attr(el, "type") } else { None };
    Some(classify(tag, input_type.as_deref(), role.as_deref(), editable))
}

/// Field values go out exactly as typed (no trimming or collapsing), up to this many characters.
pub const VALUE_LIMIT: usize = 2000;

fn exact(value: String) -> String {
    match value.char_indices().nth(VALUE_LIMIT) {
        Some((cut, _)) => value[..cut].to_string(),
        None => value,
    }
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
                _ => (Some(exact(input.value())), None),
            }
        }
        "textarea" => (as_tag::<HtmlTextAreaElement>(el, "textarea").map(|t| exact(t.value())), None),
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
/// `on_screen`: the element's area inside the viewport and its clipping ancestors.
pub fn info(el: &Element, context: Context, offset: (f64, f64), kind: Kind, tag: &str, on_screen: f64) -> ElementInfo {
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
        visible: on_screen > 0.0 && is_visible(el, &local_rect(el)),
        enabled: !is_disabled(el),
        rect,
        new,
        context: if cross_origin { Some("cross_origin_iframe".into()) } else { context.name().map(str::to_string) },
    }
}

/// Rendered and on screen now: inside the viewport and every clipping (overflow) ancestor.
pub fn shown(el: &Element) -> bool {
    is_visible(el, &local_rect(el)) && on_screen_rect(el).area() > 0.0
}

#[inline(never)]
pub fn get_elements(doc: &Document, filter: ElementFilter, visible_only: bool, offset: u32, limit: u32) -> (Vec<ElementInfo>, u32) {
    registry::begin_listing();
    let roots = roots(doc);
    cache_labels(roots.iter().filter_map(|r| r.query_all("label[for]")));
    let mut out = Vec::new();
    let mut picked = Vec::new();
    let mut matched = 0;
    for root in &roots {
        for (el, scripted) in candidates(root, CANDIDATE_SELECTOR) {
            let t = tag(&el);
            // Past the window, "all" needs only the index and the count; native controls need no classifying.
            if filter == ElementFilter::All
                && !visible_only
                && picked.len() as u32 >= limit
                && (scripted || is_native(&t, matches!(t.as_str(), "a" | "area") && has_attr(&el, "href")))
            {
                registry::index_of(&el);
                matched += 1;
                continue;
            }
            let Some(kind) = candidate_kind(&el, &t, scripted) else { continue };
            // Every candidate gets its index now, so "new" stays true to the page whatever the filter.
            if !filter.accepts(kind) || matched < offset || picked.len() as u32 >= limit {
                if filter.accepts(kind) && (!visible_only || shown(&el)) {
                    matched += 1;
                }
                registry::index_of(&el);
                continue;
            }
            if visible_only && !shown(&el) {
                registry::index_of(&el);
                continue;
            }
            picked.push((el, root.context, root.offset, kind, t));
        }
    }
    // Visibility is measured for the whole window at once, so shared ancestors are read once.
    let areas = on_screen_areas(&picked.iter().map(|p| p.0.clone()).collect::<Vec<_>>());
    for ((el, context, offset, kind, t), area) in picked.into_iter().zip(areas) {
        matched += 1;
        out.push(info(&el, context, offset, kind, &t, area));
    }
    forget_labels();
    (out, matched)
}
