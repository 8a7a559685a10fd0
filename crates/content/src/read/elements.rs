//! get_elements: indexed interactive elements with stable indices.

use super::clickable::candidates;
use super::faces::{Face, Faces, Mark};
use super::hidden::place;
use crate::dom::{as_tag, attr, get_attr, has_attr, is_disabled, is_visible, js_name, local_rect, on_screen_areas, tag};
use crate::names::{cache_labels, element_name, forget_labels, icon_inside, row_text};
use crate::registry;
use crate::text::{begin_reading, end_reading, shown_text, shown_text_skipping};
use crate::walk::{roots, Context};
use dusk_core::page::elements::{
    classify, clean_text, is_candidate, is_focus_helper, is_native, needs_context, shown_number, widget_role, Extra, Kind, CANDIDATE_ATTRIBUTES,
    CANDIDATE_SELECTOR,
};
use dusk_core::protocol::page::{ElementFilter, ElementInfo, LeftOut, DETAILS_CHARS};
use web_sys::{Document, Element, HtmlIFrameElement, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};

/// The element's kind, or None when the broad candidate net caught something not interactive.
/// `scripted`: clickable only through script (pointer cursor, a click listener, a menu item).
pub fn candidate_kind(el: &Element, tag: &str, scripted: bool) -> Option<Kind> {
    let role = role_of(el);
    let has_href = matches!(tag, "a" | "area") && has_attr(el, "href");
    // A native control's kind never hangs on editability (core's classify), so it is not read for one.
    let editable = !is_native(tag, has_href) && get_attr(el, "contenteditable").is_some_and(|v| v != "false");
    if scripted {
        let input_type = if matches!(tag, "input" | "button") { get_attr(el, "type") } else { None };
        return Some(match classify(tag, input_type.as_deref(), role.as_deref(), editable) {
            Kind::Other => Kind::Button,
            k => k,
        });
    }
    if !is_native(tag, has_href) {
        let tabindex = get_attr(el, "tabindex");
        let extra = Extra { role: role.as_deref(), tabindex: tabindex.as_deref(), onclick: has_attr(el, "onclick"), editable, widget: false };
        if !is_candidate(tag, has_href, &extra) {
            return None;
        }
    }
    let input_type = if matches!(tag, "input" | "button") { get_attr(el, "type") } else { None };
    Some(classify(tag, input_type.as_deref(), role.as_deref(), editable))
}

/// Its `role`, else the one its widget library's class implies (a slider handle).
fn role_of(el: &Element) -> Option<String> {
    get_attr(el, "role").or_else(|| get_attr(el, "class").and_then(|c| widget_role(&c)).map(str::to_string))
}

/// A range widget's value: its aria-valuetext or -valuenow, else the number its slider shows
/// next to it (jQuery UI's handle says none itself).
fn range_value(el: &Element) -> Option<String> {
    if let Some(v) = attr(el, "aria-valuetext").or_else(|| attr(el, "aria-valuenow")) {
        return Some(v);
    }
    let mut up = el.parent_element();
    for _ in 0..3 {
        let a = up?;
        if let Some(n) = shown_number(&shown_text_skipping(&a, 64, "button,a,input,select,textarea,[role=button]", el)) {
            return Some(n);
        }
        up = a.parent_element();
    }
    None
}

/// Field values go out exactly as typed (no trimming or collapsing), up to this many characters.
pub const VALUE_LIMIT: usize = 2000;

/// The value cut at `VALUE_LIMIT`, and its whole length when cut.
fn exact(value: String) -> (String, Option<u32>) {
    match value.char_indices().nth(VALUE_LIMIT) {
        Some((cut, _)) => {
            let chars = value.chars().count() as u32;
            (value[..cut].to_string(), Some(chars))
        }
        None => (value, None),
    }
}

/// The value, whether checked, and the value's whole length when cut.
fn value_of(el: &Element, tag: &str, role: Option<&str>) -> (Option<String>, Option<bool>, Option<u32>) {
    match tag {
        "input" => {
            let Some(input) = as_tag::<HtmlInputElement>(el, "input") else { return (None, None, None) };
            let t = input.type_().to_ascii_lowercase();
            match t.as_str() {
                "checkbox" | "radio" => (None, Some(input.checked()), None),
                "password" => (Some("•".repeat(input.value().chars().count().min(20))), None, None),
                "button" | "submit" | "reset" | "image" | "file" => (None, None, None),
                _ => {
                    let (v, chars) = exact(input.value());
                    (Some(v), None, chars)
                }
            }
        }
        "textarea" => match as_tag::<HtmlTextAreaElement>(el, "textarea") {
            Some(t) => {
                let (v, chars) = exact(t.value());
                (Some(v), None, chars)
            }
            None => (None, None, None),
        },
        "select" => {
            let sel = as_tag::<HtmlSelectElement>(el, "select");
            let text = sel.and_then(|s| s.selected_options().item(0)).and_then(|o| o.text_content());
            (text.map(|t| clean_text(&t, 100)), None, None)
        }
        _ if matches!(role, Some("slider" | "spinbutton" | "progressbar" | "scrollbar")) => (range_value(el), None, None),
        _ => match get_attr(el, "aria-checked").as_deref() {
            Some("true") => (None, Some(true), None),
            Some("false") => (None, Some(false), None),
            _ => (None, None, None),
        },
    }
}

/// Describes one element; registers it so it keeps its index.
/// `on_screen`: the element's area inside the viewport and its clipping ancestors.
pub fn info(el: &Element, context: Context, offset: (f64, f64), kind: Kind, tag: &str, on_screen: f64, container: Option<u32>) -> ElementInfo {
    let (index, new) = registry::index_of(el);
    let mut rect = local_rect(el);
    rect.x += offset.0;
    rect.y += offset.1;
    let role = role_of(el).filter(|r| !r.trim().is_empty());
    let (value, checked, value_chars) = value_of(el, tag, role.as_deref());
    let cross_origin = kind == Kind::Frame && as_tag::<HtmlIFrameElement>(el, "iframe").is_some_and(|f| f.content_document().is_none());
    let name = element_name(el, tag, NAME_CHARS);
    // A shown name was read only so far: its whole length is counted now, for the rare cut one.
    let text_chars = match name.chars {
        Some(n) if name.shown && n as usize >= NAME_CHARS * 3 => Some(whole_length(&shown_text(el, DETAILS_CHARS as u32)).max(n)),
        other => other,
    };
    let icon = if name.guess || name.text.is_empty() || matches!(tag, "input" | "textarea" | "select" | "img" | "iframe" | "frame") {
        None
    } else {
        icon_inside(el, &name.text)
    };
    ElementInfo {
        index,
        tag: tag.to_string(),
        text: name.text,
        guess: name.guess,
        container,
        row: None,
        row_kind: None,
        text_chars,
        value_chars,
        icon,
        role,
        input_type: if matches!(tag, "input" | "button") { attr(el, "type").map(|t| t.to_ascii_lowercase()) } else { None },
        placeholder: attr(el, "placeholder"),
        href: if matches!(tag, "a" | "area") { js_sys::Reflect::get(el, &js_name("href")).ok().and_then(|h| h.as_string()) } else { None },
        value,
        checked,
        // The offset moved the rect, not its size: is_visible reads only the size.
        visible: on_screen > 0.0 && is_visible(el, &rect),
        enabled: !is_disabled(el),
        rect,
        new,
        context: if cross_origin { Some("cross_origin_iframe".into()) } else { context.name().map(str::to_string) },
    }
}

/// Characters of a name a listing shows.
const NAME_CHARS: usize = 50;

/// Characters of `text` once its whitespace is collapsed.
fn whole_length(text: &str) -> u32 {
    text.split_whitespace().map(|w| w.chars().count() + 1).sum::<usize>().saturating_sub(1) as u32
}

/// Characters of a row's text given as context: enough to tell rows apart, few enough to keep
/// listings short (a results row, a mail's sender and subject).
const ROW_TEXT: usize = 24;

/// One listing's answer: the window of elements, every matching element counted, whether more
/// matching ones lie past the window, and (visible-only) what was left out off screen.
pub struct Listing {
    pub elements: Vec<ElementInfo>,
    pub total: u32,
    pub truncated: bool,
    pub left_out: Option<LeftOut>,
    /// Pieces of text no one can see, left out of the names and rows.
    pub hidden_text: u32,
}

struct Picked {
    el: Element,
    context: Context,
    offset: (f64, f64),
    kind: Kind,
    tag: String,
    container: Option<u32>,
    /// It stands in a hidden control's place (a custom drop-down, a file picker's button).
    face: Option<Face>,
}

impl Picked {
    /// The element a person sees for it: a see-through file input shows through its parent.
    fn seen(&self) -> &Element {
        match &self.face {
            Some(Face::SeeThrough(shown)) => shown,
            _ => &self.el,
        }
    }
}

/// A field only there to take the focus for a widget drawn elsewhere (core's `is_focus_helper`).
fn focus_helper(el: &Element, tag: &str) -> bool {
    if !matches!(tag, "input" | "textarea" | "select") {
        return false;
    }
    let r = local_rect(el);
    let input_type = if tag == "input" { get_attr(el, "type") } else { None };
    is_focus_helper(tag, input_type.as_deref(), r.width, r.height, get_attr(el, "tabindex").as_deref(), get_attr(el, "aria-hidden").as_deref() == Some("true"))
}

#[inline(never)]
pub fn get_elements(doc: &Document, filter: ElementFilter, visible_only: bool, offset: u32, limit: u32) -> Listing {
    registry::begin_listing();
    begin_reading(doc);
    let roots = roots(doc);
    cache_labels(roots.iter().filter_map(|r| r.query_all("label[for]")));
    let (mut picked, mut pending) = (Vec::new(), Vec::new());
    let (mut total, mut matched) = (0u32, 0u32);
    for root in &roots {
        let faces = Faces::of(root);
        let found = candidates(root, CANDIDATE_SELECTOR, &CANDIDATE_ATTRIBUTES, &faces.elements());
        // The nearest listed candidate each sits in: a broad-net match that is not interactive passes its own up.
        let mut listed_up: Vec<Option<usize>> = Vec::with_capacity(found.len());
        let mut listed = vec![false; found.len()];
        for (i, c) in found.iter().enumerate() {
            let up = c.up.and_then(|j| if listed[j] { Some(j) } else { listed_up[j] });
            listed_up.push(up);
            let face = match faces.mark(&c.el) {
                Mark::Serves => continue,
                Mark::Face(f) => Some(f.clone()),
                Mark::None => None,
            };
            let t = tag(&c.el);
            if face.is_none() && focus_helper(&c.el, &t) {
                continue;
            }
            // Past the window, "all" needs only the index and the count; native controls need no classifying.
            if filter == ElementFilter::All
                && !visible_only
                && picked.len() as u32 >= limit
                && (c.scripted || is_native(&t, matches!(t.as_str(), "a" | "area") && has_attr(&c.el, "href")))
            {
                registry::index_of(&c.el);
                listed[i] = true;
                (total, matched) = (total + 1, matched + 1);
                continue;
            }
            let kind = match &face {
                Some(Face::Select(_)) => Some(Kind::Select),
                Some(Face::File) => Some(Kind::Button),
                _ => candidate_kind(&c.el, &t, c.scripted),
            };
            let Some(kind) = kind else { continue };
            listed[i] = true;
            // Every candidate gets its index now, so "new" stays true to the page whatever the filter.
            registry::index_of(&c.el);
            if !filter.accepts(kind) {
                continue;
            }
            total += 1;
            let container = up.map(|j| registry::index_of(&found[j].el).0);
            let p = Picked { el: c.el.clone(), context: root.context, offset: root.offset, kind, tag: t, container, face };
            if visible_only {
                pending.push(p);
                continue;
            }
            if matched >= offset && (picked.len() as u32) < limit {
                picked.push(p);
            }
            matched += 1;
        }
    }
    // Visibility is placed for all at once, so shared ancestors are read once and what is left out is counted.
    let left_out = visible_only.then(|| {
        let placed = place(pending.iter().map(Picked::seen));
        for (p, shown) in pending.drain(..).zip(placed.shown) {
            if !shown {
                continue;
            }
            if matched >= offset && (picked.len() as u32) < limit {
                picked.push(p);
            }
            matched += 1;
        }
        placed.left_out
    });
    let areas = on_screen_areas(&picked.iter().map(|p| p.seen().clone()).collect::<Vec<_>>());
    let mut out: Vec<ElementInfo> = picked
        .iter()
        .zip(areas)
        .map(|(p, area)| {
            let mut e = info(&p.el, p.context, p.offset, p.kind, &p.tag, area, p.container);
            if let Some(face) = &p.face {
                super::faces::dress(&mut e, face, area);
            }
            e
        })
        .collect();
    // Rows are read only for the few whose names don't tell them apart.
    let wanted = needs_context(&out);
    for ((e, p), wanted) in out.iter_mut().zip(&picked).zip(wanted) {
        if wanted {
            if let Some((kind, text)) = row_text(&p.el, &e.text, ROW_TEXT) {
                e.row = Some(text);
                e.row_kind = (!kind.is_empty()).then(|| kind.to_string());
            }
        }
    }
    forget_labels();
    let hidden_text = end_reading(doc);
    let truncated = offset + (out.len() as u32) < matched;
    Listing { elements: out, total, truncated, left_out, hidden_text }
}
