//! get_element_details: attributes, a round-tripping selector and an XPath for indexed elements.

use crate::dom::{as_tag, tag, top_rect};
use crate::names::element_text;
use crate::registry::{lookup, Lookup};
use crate::selector::{host_chain, unique_selector, xpath_of};
use crate::text::shown_text;
use dusk_core::page::elements::clean_text;
use dusk_core::protocol::page::{ElementDetails, DETAILS_CHARS};
use web_sys::{Element, HtmlInputElement, HtmlTextAreaElement};

/// A text field's value exactly as typed, up to `DETAILS_CHARS` characters; never a password's.
fn field_value(el: &Element, tag: &str) -> Option<String> {
    let value = match tag {
        "textarea" => as_tag::<HtmlTextAreaElement>(el, "textarea")?.value(),
        "input" => {
            let input = as_tag::<HtmlInputElement>(el, "input")?;
            let t = input.type_().to_ascii_lowercase();
            if matches!(t.as_str(), "password" | "checkbox" | "radio" | "button" | "submit" | "reset" | "image" | "file" | "hidden") {
                return None;
            }
            input.value()
        }
        _ => return None,
    };
    Some(value.chars().take(DETAILS_CHARS).collect())
}
use std::collections::BTreeMap;

#[inline(never)]
pub fn get_details(indices: &[u32]) -> (Vec<ElementDetails>, Vec<u32>) {
    let (mut details, mut missing) = (Vec::new(), Vec::new());
    for &index in indices.iter().take(50) {
        let Lookup::Found(el) = lookup(index) else {
            missing.push(index);
            continue;
        };
        let mut attributes = BTreeMap::new();
        let names = el.get_attribute_names();
        for name in names.iter().filter_map(|n| n.as_string()) {
            let value = el.get_attribute(&name).unwrap_or_default();
            attributes.insert(name, clean_text(&value, 300));
        }
        let parent_text = el.parent_element().map(|p| crate::text::text_of(&p, 100)).unwrap_or_default();
        let t = tag(&el);
        let prop = |o: &web_sys::Element, k: &str| crate::dom::member(o, k).as_string().filter(|a| !a.is_empty());
        // A submit button's own formaction wins over its form's action.
        let form_action =
            if el.has_attribute("formaction") { prop(&el, "formAction") } else { el.closest("form").ok().flatten().and_then(|f| prop(&f, "action")) };
        let link = el.closest("a[href], area[href]").ok().flatten().and_then(|a| prop(&a, "href"));
        let text = element_text(&el, &t, 100);
        // Whole, up to DETAILS_CHARS: what a listing cut short is read here.
        let whole = clean_text(&shown_text(&el, DETAILS_CHARS as u32), DETAILS_CHARS);
        let whole_text = (whole.chars().count() > text.chars().count()).then_some(whole);
        let value = field_value(&el, &t);
        details.push(ElementDetails {
            index,
            text,
            whole_text,
            value,
            rect: top_rect(&el),
            form_action,
            link,
            tag: t,
            attributes,
            selector: unique_selector(&el),
            xpath: xpath_of(&el),
            parent_text,
            child_count: el.child_element_count(),
            host_selectors: host_chain(&el),
        });
    }
    (details, missing)
}
