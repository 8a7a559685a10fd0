//! The popup's adjustments, folded under "Adjust": moving a slider previews on the page at once
//! (over the open port); releasing it stores it for the scope picked, This site (the site's own
//! adjustment) or All sites (every site's default). Reset follows the default again.

use super::{ask, show_and_follow, tell_page};
use crate::{adjust_sliders, dom};
use dusk_chrome::i18n;
use dusk_core::protocol::dark::{DarkContentRequest, DarkRequest, TabDarkState};
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlInputElement};

pub(super) fn render(section: &Element, state: &TabDarkState) -> Result<(), JsValue> {
    let (Some(tab_id), Some(_), true) = (state.tab_id, &state.host, state.on) else { return Ok(()) };
    let fold = dom::append(section, "details", "fold", "")?;
    fold.set_id("dark-adjust-fold");
    dom::append_i18n(&fold, "summary", "", "darkAdjustTitle")?;
    let group = dom::append(&fold, "div", "adjust", "")?;
    group.set_id("dark-adjust");
    group.set_attribute("role", "group")?;
    group.set_attribute("aria-label", &i18n::message("darkAdjustTitle"))?;
    let sliders = adjust_sliders::render(&group, "dark-adjust", state.adjust)?;
    // Which adjustment the sliders change: this site's own, or every site's default.
    let scope = dom::append(&group, "div", "scope", "")?;
    scope.set_id("dark-adjust-scope");
    let radios = dom::append(&scope, "div", "segments", "")?;
    radios.set_attribute("role", "radiogroup")?;
    radios.set_attribute("aria-label", &i18n::message("darkAdjustScope"))?;
    let all_sites = Rc::new(Cell::new(false));
    for (value, key) in [("site", "darkAdjustThisSite"), ("all", "darkAdjustAllSites")] {
        let label = dom::append(&radios, "label", "mode", "")?;
        let input: HtmlInputElement = dom::document()?.create_element("input")?.dyn_into()?;
        input.set_type("radio");
        input.set_name("dark-adjust-scope");
        input.set_value(value);
        input.set_id(&format!("dark-adjust-scope-{value}"));
        input.set_checked(value == "site");
        label.append_child(&input)?;
        dom::append_i18n(&label, "span", "", key)?;
        let (flag, target) = (all_sites.clone(), input.clone());
        dom::on(&input, "change", move || {
            if target.checked() {
                flag.set(target.value() == "all");
            }
        })?;
    }
    let note = dom::append(&scope, "p", "note", "")?;
    let reset = dom::append_i18n(&group, "button", "", "darkAdjustReset")?;
    reset.set_id("dark-adjust-reset");
    let show_scope = {
        let (scope, reset) = (note.clone(), reset.clone());
        move |own: bool| {
            scope.set_text_content(Some(&i18n::message(if own { "darkAdjustOwn" } else { "darkAdjustGlobal" })));
            // Offered only where there is something to reset.
            let _ = if own { reset.remove_attribute("hidden") } else { reset.set_attribute("hidden", "") };
        }
    };
    show_scope(state.adjust_own);
    adjust_sliders::aa_note(&group)?;
    sliders.on("input", move |adjust| tell_page(tab_id, &DarkContentRequest::DarkAdjust { adjust }))?;
    // Stored on release; the section is not redrawn, so the slider keeps the pointer and the focus.
    let stored = show_scope.clone();
    sliders.on("change", move |adjust| {
        let stored = stored.clone();
        tell_page(tab_id, &DarkContentRequest::DarkAdjust { adjust });
        let site = !all_sites.get();
        wasm_bindgen_futures::spawn_local(async move {
            if !site {
                // Every site's default: this site's own (if any) gives way to it.
                let _ = ask(DarkRequest::DarkSetAdjust { tab_id: Some(tab_id), site: true, adjust: None }).await;
            }
            let state = ask(DarkRequest::DarkSetAdjust { tab_id: Some(tab_id), site, adjust: Some(adjust) }).await;
            if let Ok(s) = state {
                stored(s.adjust_own);
            }
        });
    })?;
    let section = section.clone();
    let global = state.adjust_global;
    dom::on(&reset, "click", move || {
        sliders.set(global);
        tell_page(tab_id, &DarkContentRequest::DarkAdjust { adjust: global });
        let section = section.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let state = ask(DarkRequest::DarkSetAdjust { tab_id: Some(tab_id), site: true, adjust: None }).await;
            show_and_follow(&section, state).await;
            // The focus was on Reset, which the redraw replaced: put it on the first slider.
            if let Some(first) = dom::document().ok().and_then(|d| d.get_element_by_id("dark-adjust-brightness")) {
                let _ = first.dyn_into::<web_sys::HtmlElement>().map(|e| e.focus());
            }
        });
    })
}
