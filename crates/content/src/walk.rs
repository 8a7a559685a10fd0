//! Finds elements matching a selector in the page, its open shadow roots and same-origin frames.

use crate::dom::{as_element, as_tag, frame_offset};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Document, Element, HtmlIFrameElement, MutationObserver, NodeList};

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
}

/// Stops a pathological page from making one RPC take seconds.
const MAX_ROOTS: usize = 512;

#[derive(Clone)]
pub enum RootNode {
    Doc(Document),
    Shadow(web_sys::ShadowRoot),
}

#[derive(Clone)]
pub struct Root {
    pub node: RootNode,
    pub context: Context,
    pub offset: (f64, f64),
}

impl Root {
    pub fn query_all(&self, selector: &str) -> Option<NodeList> {
        match &self.node {
            RootNode::Doc(d) => d.query_selector_all(selector).ok(),
            RootNode::Shadow(s) => s.query_selector_all(selector).ok(),
        }
    }
}

pub fn elements(list: Option<NodeList>) -> impl Iterator<Item = Element> {
    let len = list.as_ref().map_or(0, |l| l.length());
    (0..len).filter_map(move |i| list.as_ref().and_then(|l| l.item(i)).and_then(as_element))
}

/// The observer and the callback it must keep alive.
type Watcher = (MutationObserver, Closure<dyn FnMut()>);

thread_local! {
    /// Roots found by the last scan, reused until the DOM's structure changes.
    static CACHE: RefCell<Option<Vec<Root>>> = const { RefCell::new(None) };
    static WATCH: RefCell<Option<Watcher>> = const { RefCell::new(None) };
}

/// Watches every root for added or removed nodes; any change drops the cached roots.
fn watch(roots: &[Root]) {
    WATCH.with(|w| {
        let mut w = w.borrow_mut();
        if w.is_none() {
            let dirty = Closure::<dyn FnMut()>::new(|| CACHE.with(|c| *c.borrow_mut() = None));
            let Ok(obs) = MutationObserver::new(dirty.as_ref().unchecked_ref()) else { return };
            *w = Some((obs, dirty));
        }
        let Some((obs, _)) = w.as_ref() else { return };
        obs.disconnect();
        let init = web_sys::MutationObserverInit::new();
        init.set_child_list(true);
        init.set_subtree(true);
        for root in roots {
            let node: &web_sys::Node = match &root.node {
                RootNode::Doc(d) => d,
                RootNode::Shadow(s) => s,
            };
            let _ = obs.observe_with_options(node, &init);
        }
    });
}

/// The page's roots, from the cache when nothing was added or removed since the last scan.
pub fn roots(doc: &Document) -> Vec<Root> {
    if let Some(mut cached) = CACHE.with(|c| c.borrow().clone()) {
        let same_page = cached.first().is_some_and(|r| matches!(&r.node, RootNode::Doc(d) if d == doc));
        // A frame that navigated leaves its old document without a window; a removed host disconnects.
        let alive = cached.iter().all(|r| match &r.node {
            RootNode::Doc(d) => d.default_view().is_some(),
            RootNode::Shadow(s) => s.host().is_connected(),
        });
        if same_page && alive {
            // Scrolling moves frames without any mutation, so offsets are always measured afresh.
            for r in cached.iter_mut().filter(|r| r.context != Context::Top) {
                let owner = match &r.node {
                    RootNode::Doc(d) => Some(d.clone()),
                    RootNode::Shadow(s) => s.owner_document(),
                };
                r.offset = owner.map_or((0.0, 0.0), |d| frame_offset(&d));
            }
            return cached;
        }
    }
    let found = scan(doc);
    watch(&found);
    CACHE.with(|c| *c.borrow_mut() = Some(found.clone()));
    found
}

/// The top document, every open shadow root and every same-origin frame document, breadth-first.
fn scan(doc: &Document) -> Vec<Root> {
    let mut roots = vec![Root { node: RootNode::Doc(doc.clone()), context: Context::Top, offset: (0.0, 0.0) }];
    let mut i = 0;
    while i < roots.len() && roots.len() < MAX_ROOTS {
        let (context, offset) = (roots[i].context, roots[i].offset);
        let mut more = Vec::new();
        for el in elements(roots[i].query_all("iframe")) {
            if let Some(inner) = as_tag::<HtmlIFrameElement>(&el, "iframe").and_then(|f| f.content_document()) {
                let offset = frame_offset(&inner);
                more.push(Root { node: RootNode::Doc(inner), context: Context::Frame, offset });
            }
        }
        let node: &wasm_bindgen::JsValue = match &roots[i].node {
            RootNode::Doc(d) => d,
            RootNode::Shadow(s) => s,
        };
        for shadow in crate::dom::shadow_roots(node).iter() {
            let context = if context == Context::Frame { Context::Frame } else { Context::Shadow };
            more.push(Root { node: RootNode::Shadow(wasm_bindgen::JsCast::unchecked_into(shadow)), context, offset });
        }
        roots.extend(more);
        i += 1;
    }
    roots
}

/// Every element matching `selector` in all roots, in document order per root.
pub fn collect(doc: &Document, selector: &str) -> Vec<Found> {
    let mut out = Vec::new();
    for root in roots(doc) {
        out.extend(elements(root.query_all(selector)).map(|el| Found { el }));
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
