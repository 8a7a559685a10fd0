//! Builds a CSS selector that querySelector resolves back to the element, and its XPath.

use crate::dom::{as_document, as_shadow_root, tag};
use dusk_core::page::selector::{candidates, xpath, Step};
use web_sys::{Element, Node};

fn step(el: &Element) -> Step {
    let t = tag(el);
    let (mut nth, mut same) = (1, 1);
    if let Some(parent) = el.parent_element() {
        let children = parent.children();
        same = 0;
        for i in 0..children.length() {
            let Some(c) = children.item(i) else { continue };
            if c.tag_name() == el.tag_name() {
                same += 1;
                if c == *el {
                    nth = same;
                }
            }
        }
    }
    let classes = el.get_attribute("class").unwrap_or_default().split_whitespace().map(str::to_string).collect();
    Step { tag: t, id: el.id(), classes, nth_of_type: nth, same_type: same.max(1) }
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
pub fn unique_selector(el: &Element) -> String {
    let root = el.get_root_node();
    let cands = candidates(&path(el));
    let last = cands.last().cloned().unwrap_or_else(|| tag(el));
    cands.into_iter().find(|c| matches_only(&root, c, el)).unwrap_or(last)
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
