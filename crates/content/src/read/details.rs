//! get_element_details: attributes, a round-tripping selector and an XPath for indexed elements.

use crate::dom::{element_text, tag, top_rect};
use crate::registry::{lookup, Lookup};
use crate::selector::{host_chain, unique_selector, xpath_of};
use dusk_core::page::elements::clean_text;
use dusk_core::protocol::page::ElementDetails;
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
        let parent_text = el.parent_element().map(|p| crate::dom::text_of(&p, 100)).unwrap_or_default();
        let t = tag(&el);
        let form_action = el.closest("form").ok().flatten().and_then(|f| js_sys::Reflect::get(&f, &"action".into()).ok()).and_then(|a| a.as_string());
        details.push(ElementDetails {
            index,
            text: element_text(&el, &t, 100),
            rect: top_rect(&el),
            form_action,
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
