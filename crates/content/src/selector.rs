//! Builds a CSS selector that querySelector resolves back to the element, and its XPath.

use crate::dom::{as_document, as_shadow_root, tag};
use dusk_core::page::selector::{candidates, xpath, Step};
use web_sys::{Element, Node};

fn step(el: &Element) -> Step {
    let name = el.tag_name();
    let mut nth = 1;
    let mut prev = el.previous_element_sibling();
    while let Some(p) = prev {
        if p.tag_name() == name {
            nth += 1;
        }
        prev = p.previous_element_sibling();
    }
    // Only whether another same-tag sibling exists matters when this is the first one.
    let mut same = nth;
    let mut next = el.next_element_sibling();
    while let Some(n) = next {
        if n.tag_name() == name {
            same += 1;
            break;
        }
        next = n.next_element_sibling();
    }
    let classes = el.get_attribute("class").unwrap_or_default().split_whitespace().map(str::to_string).collect();
    Step { tag: name.to_ascii_lowercase(), id: el.id(), classes, nth_of_type: nth, same_type: same }
}

/// Steps from the element up to (not including) its document or shadow root.
fn path(el: &Element) -> Vec<Step> {
    let mut out = vec![step(el)];
    let mut cur = el.parent_element();
    while let Some(p) = cur {
        out.push(step(&p));
        cur = p.parent_element();
    }
    out
}

fn matches_only(root: &Node, selector: &str, el: &Element) -> bool {
    let list = if let Some(d) = as_document(root) {
        d.query_selector_all(selector)
    } else if let Some(s) = as_shadow_root(root) {
        s.query_selector_all(selector)
    } else {
        return false;
    };
    list.is_ok_and(|l| l.length() == 1 && l.item(0).is_some_and(|n| el.is_same_node(Some(&n))))
}

/// The simplest candidate selector that matches exactly this element within its root.
/// Ancestors are read one level at a time, since most elements are unique within a level or two.
pub fn unique_selector(el: &Element) -> String {
    let root = el.get_root_node();
    let mut steps = vec![step(el)];
    let mut tried: Vec<String> = Vec::new();
    let mut ancestor = el.parent_element();
    loop {
        for c in candidates(&steps) {
            if !tried.contains(&c) {
                if matches_only(&root, &c, el) {
                    return c;
                }
                tried.push(c);
            }
        }
        match ancestor {
            Some(a) => {
                steps.push(step(&a));
                ancestor = a.parent_element();
            }
            None => return tried.pop().unwrap_or_else(|| tag(el)),
        }
    }
}

pub fn xpath_of(el: &Element) -> String {
    xpath(&path(el))
}

/// Selectors of the shadow hosts and frames enclosing the element, outermost first.
pub fn host_chain(el: &Element) -> Vec<String> {
    let mut chain = Vec::new();
    let mut cur = el.clone();
    for _ in 0..16 {
        let root = cur.get_root_node();
        let host = if let Some(s) = as_shadow_root(&root) {
            Some(s.host())
        } else {
            as_document(&root).and_then(|d| d.default_view()).and_then(|w| w.frame_element().ok().flatten())
        };
        let Some(host) = host else { break };
        chain.push(unique_selector(&host));
        cur = host;
    }
    chain.reverse();
    chain
}
