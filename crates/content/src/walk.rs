//! Finds elements matching a selector in the page, its open shadow roots and same-origin frames.

use web_sys::{Document, Element, HtmlIFrameElement, NodeList};

/// Where a found element lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Context {
    Top,
    Shadow,
    Frame,
}

impl Context {
    pub fn name(self) -> Option<&'static str> {
        match self {
            Context::Top => None,
            Context::Shadow => Some("shadow"),
            Context::Frame => Some("iframe"),
        }
    }
}

pub struct Found {
    pub el: Element,
    pub context: Context,
}

/// Stops a pathological page from making one RPC take seconds.
const MAX_ROOTS: usize = 512;

enum Root {
    Doc(Document),
    Shadow(web_sys::ShadowRoot),
}

impl Root {
    fn query_all(&self, selector: &str) -> Option<NodeList> {
        match self {
            Root::Doc(d) => d.query_selector_all(selector).ok(),
            Root::Shadow(s) => s.query_selector_all(selector).ok(),
        }
    }
}

fn elements(list: Option<NodeList>) -> impl Iterator<Item = Element> {
    let len = list.as_ref().map_or(0, |l| l.length());
    (0..len).filter_map(move |i| list.as_ref().and_then(|l| l.item(i)).and_then(crate::dom::as_element))
}

/// Every element matching `selector`, in document order per root; roots are visited breadth-first.
pub fn collect(doc: &Document, selector: &str) -> Vec<Found> {
    let mut out = Vec::new();
    let mut roots = vec![(Root::Doc(doc.clone()), Context::Top)];
    let mut i = 0;
    while i < roots.len() && i < MAX_ROOTS {
        let (root, context) = (&roots[i].0, roots[i].1);
        let mut more = Vec::new();
        for el in elements(root.query_all(selector)) {
            if let Some(frame) = crate::dom::as_tag::<HtmlIFrameElement>(&el, "iframe") {
                if let Some(inner) = frame.content_document() {
                    more.push((Root::Doc(inner), Context::Frame));
                }
            }
            out.push(Found { el, context });
        }
        for host in elements(root.query_all("*")) {
            if let Some(shadow) = host.shadow_root() {
                let ctx = if context == Context::Frame { Context::Frame } else { Context::Shadow };
                more.push((Root::Shadow(shadow), ctx));
            }
        }
        roots.extend(more);
        i += 1;
    }
    out
}

/// The first element matching `selector` in the page, then in shadow roots and frames.
pub fn find_first(doc: &Document, selector: &str) -> Result<Option<Element>, String> {
    match doc.query_selector(selector) {
        Err(_) => Err(format!("invalid selector: {selector}")),
        Ok(Some(el)) => Ok(Some(el)),
        Ok(None) => Ok(collect(doc, selector).into_iter().next().map(|f| f.el)),
    }
}
