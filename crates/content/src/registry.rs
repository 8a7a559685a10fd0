//! Stable element indices: the same element keeps its index across calls, however the page
//! re-renders around it. Indices are keyed by the element itself, never by position.

use std::cell::RefCell;
use wasm_bindgen::JsValue;
use web_sys::Element;

/// One handed-out index. Indices are dense from 1, so a Vec beats a hash map (no 64-bit hashing,
/// which wasm2js emulates slowly).
struct Slot {
    /// The element while it is on the page; dropped once it is removed, so it can be collected.
    element: Option<Element>,
    /// The listing (call number) in which the index was handed out.
    first_seen: u32,
}

struct Registry {
    /// Element → index; weak, so removed elements keep nothing alive.
    by_element: js_sys::WeakMap,
    slots: Vec<Slot>,
    listing: u32,
}

thread_local! {
    static REGISTRY: RefCell<Registry> = RefCell::new(Registry { by_element: js_sys::WeakMap::new(), slots: Vec::new(), listing: 0 });
}

/// Starts a new listing; returns its number (1 for the first).
pub fn begin_listing() -> u32 {
    REGISTRY.with(|r| {
        let mut r = r.borrow_mut();
        r.listing += 1;
        // Lookups check connectivity themselves; this sweep only frees removed elements, so it can be occasional.
        if r.listing % 8 != 0 {
            return r.listing;
        }
        for slot in r.slots.iter_mut() {
            if slot.element.as_ref().is_some_and(|e| !e.is_connected()) {
                slot.element = None;
            }
        }
        r.listing
    })
}

/// The element's index, handing out a new one if it has none; `true` when it is new in this
/// listing and an earlier listing of this page did not have it.
pub fn index_of(el: &Element) -> (u32, bool) {
    REGISTRY.with(|r| {
        let mut r = r.borrow_mut();
        let listing = r.listing;
        let index = match r.by_element.get(el).as_f64() {
            Some(i) => i as u32,
            None => {
                r.slots.push(Slot { element: None, first_seen: listing });
                let i = r.slots.len() as u32;
                r.by_element.set(el, &JsValue::from_f64(f64::from(i)));
                i
            }
        };
        let Some(slot) = r.slots.get_mut(index as usize - 1) else { return (index, false) };
        if slot.element.is_none() {
            slot.element = Some(el.clone());
        }
        // New since an earlier listing of this page: a first listing marks nothing new.
        let is_new = slot.first_seen == listing && listing > 1;
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
        match index.checked_sub(1).and_then(|i| r.slots.get(i as usize)) {
            Some(Slot { element: Some(el), .. }) if el.is_connected() => Lookup::Found(el.clone()),
            Some(_) => Lookup::Stale,
            None => Lookup::Unknown,
        }
    })
}
