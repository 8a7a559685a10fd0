//! The tab picker: one checkbox per tab of the window; none checked means the active tab.

use crate::dom;
use dusk_core::chat::TabInfo;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlInputElement};

pub fn fill(list: &Element, tabs: &[TabInfo]) -> Result<(), JsValue> {
    let keep = checked(list);
    list.set_inner_html("");
    for tab in tabs {
        let row = dom::append(list, "label", "tab", "")?;
        let check: HtmlInputElement = dom::append(&row, "input", "", "")?.dyn_into()?;
        check.set_type("checkbox");
        check.set_attribute("data-tab-id", &tab.tab_id.to_string())?;
        check.set_checked(keep.contains(&tab.tab_id));
        dom::append(&row, "span", "", &tab.name())?;
    }
    Ok(())
}

pub fn checked(list: &Element) -> Vec<i32> {
    let mut out = Vec::new();
    if let Ok(nodes) = list.query_selector_all("input:checked") {
        for i in 0..nodes.length() {
            let id = nodes.item(i).and_then(|n| n.dyn_into::<Element>().ok()).and_then(|e| e.get_attribute("data-tab-id"));
            if let Some(id) = id.and_then(|s| s.parse().ok()) {
                out.push(id);
            }
        }
    }
    out
}
