//! The popup's adjustments for the tab's site: moving a slider previews on the page at once
//! (over the open port), releasing it stores the site's own adjustment; Reset follows the
//! global one from options again.

use super::{ask, show_and_follow, tell_page};
use crate::{adjust_sliders, dom};
use dusk_chrome::i18n;
use dusk_core::protocol::dark::{DarkContentRequest, DarkRequest, TabDarkState};
use wasm_bindgen::prelude::*;
use web_sys::Element;

pub(super) fn render(section: &Element, state: &TabDarkState) -> Result<(), JsValue> {
    let (Some(tab_id), Some(_), true) = (state.tab_id, &state.host, state.on) else { return Ok(()) };
    let group = dom::append(section, "fieldset", "adjust", "")?;
    group.set_id("dark-adjust");
    dom::append_i18n(&group, "legend", "", "darkAdjustTitle")?;
    let sliders = adjust_sliders::render(&group, "dark-adjust", state.adjust)?;
    let scope = dom::append(&group, "p", "note", "")?;
    scope.set_id("dark-adjust-scope");
    let reset = dom::append_i18n(&group, "button", "", "darkAdjustReset")?;
    reset.set_id("dark-adjust-reset");
    let show_scope = {
        let (scope, reset) = (scope.clone(), reset.clone());
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
        wasm_bindgen_futures::spawn_local(async move {
            let state = ask(DarkRequest::DarkSetAdjust { tab_id: Some(tab_id), site: true, adjust: Some(adjust) }).await;
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
