//! Stable element indices: the same element keeps its index across calls, however the page
//! re-renders around it. Indices are keyed by the element itself, never by position.

use std::cell::RefCell;
use std::collections::HashMap;
use wasm_bindgen::JsValue;
use web_sys::Element;

struct Registry {
    /// Element → index; weak, so removed elements can be collected and keep no index alive.
    by_element: js_sys::WeakMap,
    /// Index → element, for elements still on the page.
    elements: HashMap<u32, Element>,
    /// The listing (call number) in which each index was first handed out.
    first_seen: HashMap<u32, u32>,
    next: u32,
    listing: u32,
}

thread_local! {
    static REGISTRY: RefCell<Registry> = RefCell::new(Registry {
        by_element: js_sys::WeakMap::new(),
        elements: HashMap::new(),
        first_seen: HashMap::new(),
        next: 1,
        listing: 0,
    });
}

/// Starts a new listing; returns its number (1 for the first).
pub fn begin_listing() -> u32 {
    REGISTRY.with(|r| {
        let mut r = r.borrow_mut();
        r.listing += 1;
        r.elements.retain(|_, el| el.is_connected());
        r.listing
    })
}

/// The element's index, handing out a new one if it has none; `true` when it is new in this listing.
pub fn index_of(el: &Element) -> (u32, bool) {
    REGISTRY.with(|r| {
        let mut r = r.borrow_mut();
        let known = r.by_element.get(el).as_f64();
        let index = match known {
            Some(i) => i as u32,
            None => {
                let i = r.next;
                r.next += 1;
                r.by_element.set(el, &JsValue::from_f64(f64::from(i)));
                let listing = r.listing;
                r.first_seen.insert(i, listing);
                i
            }
        };
        r.elements.insert(index, el.clone());
        let is_new = r.listing > 1 && r.first_seen.get(&index) == Some(&r.listing);
        (index, is_new)
    })
}

pub enum Lookup {
    Found(Element),
    /// The element was removed from the page (e.g. a re-render replaced it).
    Stale,
    Unknown,
}

pub fn lookup(index: u32) -> Lookup {
    REGISTRY.with(|r| {
        let r = r.borrow();
        match r.elements.get(&index) {
            Some(el) if el.is_connected() => Lookup::Found(el.clone()),
            Some(_) => Lookup::Stale,
            None if index > 0 && index < r.next => Lookup::Stale,
            None => Lookup::Unknown,
        }
    })
}
