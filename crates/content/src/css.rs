//! Extension-owned style sheets and dark-mode detection. Our <style> elements sit after <body>
//! as the last children of <html>, so they come last in the cascade; a MutationObserver puts them
//! back when the page adds nodes after them or re-renders the document.

use crate::dom::{document, window};
use dusk_core::page::color::Rgba;
use dusk_core::page::cssparse::{split_rules, style_rule};
use dusk_core::protocol::css::{CssApplied, DarkModeInfo, RejectedCss};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{CssStyleSheet, Element, MutationObserver};

const ATTR: &str = "data-dusk-style";

struct Sheets {
    /// In apply order; later ids win ties in the cascade.
    styles: Vec<(String, Element)>,
    observer: Option<(MutationObserver, Closure<dyn FnMut()>)>,
    observed_root: Option<Element>,
}

thread_local! {
    static SHEETS: RefCell<Sheets> = const { RefCell::new(Sheets { styles: Vec::new(), observer: None, observed_root: None }) };
}

fn rule_count(css: &str) -> Option<u32> {
    let sheet = CssStyleSheet::new().ok()?;
    sheet.replace_sync(css).ok()?;
    sheet.css_rules().ok().map(|r| r.length())
}

/// Checks each top-level rule and declaration the way the browser parses it.
fn check(css: &str) -> (u32, Vec<RejectedCss>) {
    let mut rules = 0;
    let mut rejected = Vec::new();
    for rule in split_rules(css) {
        if rule_count(&rule).unwrap_or(0) == 0 {
            rejected.push(RejectedCss { text: short(&rule), reason: "the browser could not parse this rule".into() });
            continue;
        }
        rules += 1;
        let Some((_, decls)) = style_rule(&rule) else { continue };
        for (prop, value) in decls {
            if prop.starts_with("--") {
                continue;
            }
            if !web_sys::css::supports_with_value(&prop, &value).unwrap_or(true) {
                rejected.push(RejectedCss { text: short(&format!("{prop}: {value}")), reason: "unsupported property or value".into() });
            }
        }
    }
    (rules, rejected)
}

fn short(s: &str) -> String {
    dusk_core::page::elements::clean_text(s, 200)
}

/// Moves our styles to the end of <html> if anything came after them or they were removed.
fn keep_last() {
    let Ok(doc) = document() else { return };
    let Some(root) = doc.document_element() else { return };
    SHEETS.with(|s| {
        let s = s.borrow();
        let Some((_, last)) = s.styles.last() else { return };
        let in_place = last.is_connected() && root.last_element_child().as_ref() == Some(last) && s.styles.iter().all(|(_, e)| e.is_connected());
        if !in_place {
            for (_, el) in &s.styles {
                let _ = root.append_child(el);
            }
        }
    });
    observe();
}

fn observe() {
    let Ok(doc) = document() else { return };
    let Some(root) = doc.document_element() else { return };
    SHEETS.with(|s| {
        let mut s = s.borrow_mut();
        if s.observed_root.as_ref() == Some(&root) {
            return;
        }
        if s.observer.is_none() {
            let callback = Closure::<dyn FnMut()>::new(keep_last);
            let Ok(obs) = MutationObserver::new(callback.as_ref().unchecked_ref()) else { return };
            s.observer = Some((obs, callback));
        }
        if let Some((obs, _)) = &s.observer {
            let init = web_sys::MutationObserverInit::new();
            init.set_child_list(true);
            let _ = obs.observe_with_options(&root, &init);
            let _ = obs.observe_with_options(&doc, &init);
        }
        s.observed_root = Some(root);
    });
}

#[inline(never)]
pub fn apply_css(css: &str, id: &str) -> Result<CssApplied, String> {
    let doc = document()?;
    let (rules, rejected) = check(css);
    let existing = SHEETS.with(|s| s.borrow().styles.iter().find(|(i, _)| i == id).map(|(_, e)| e.clone()));
    let style = match existing {
        Some(el) => el,
        None => {
            let el = doc.create_element("style").map_err(|_| "could not create a style element")?;
            let _ = el.set_attribute(ATTR, id);
            SHEETS.with(|s| s.borrow_mut().styles.push((id.to_string(), el.clone())));
            el
        }
    };
    style.set_text_content(Some(css));
    let root = doc.document_element().ok_or("the document has no root element")?;
    root.append_child(&style).map_err(|_| "could not insert the style element")?;
    keep_last();
    Ok(CssApplied { id: id.to_string(), rules, rejected })
}

#[inline(never)]
pub fn remove_css(id: &str) -> bool {
    let removed = SHEETS.with(|s| {
        let mut s = s.borrow_mut();
        let pos = s.styles.iter().position(|(i, _)| i == id);
        pos.map(|p| s.styles.remove(p).1)
    });
    match removed {
        Some(el) => {
            el.remove();
            true
        }
        None => false,
    }
}

#[inline(never)]
pub fn detect_dark_mode() -> Result<DarkModeInfo, String> {
    let doc = document()?;
    let win = window()?;
    let style = |el: &Element, prop: &str| win.get_computed_style(el).ok().flatten().and_then(|s| s.get_property_value(prop).ok()).unwrap_or_default();
    let white = Rgba { r: 1.0, g: 1.0, b: 1.0, a: 1.0 };
    let root = doc.document_element();
    let body: Option<Element> = doc.body().map(Into::into);
    let color_of = |el: &Option<Element>, prop: &str| el.as_ref().and_then(|e| Rgba::parse(&style(e, prop)));
    let root_bg = color_of(&root, "background-color").filter(|c| c.a > 0.01).map_or(white, |c| c.over(&white));
    let bg = color_of(&body, "background-color").filter(|c| c.a > 0.01).map_or(root_bg, |c| c.over(&root_bg));
    let text = color_of(&body, "color").or_else(|| color_of(&root, "color")).unwrap_or(Rgba { r: 0.0, g: 0.0, b: 0.0, a: 1.0 }).over(&bg);
    let lum = bg.luminance();
    let prefers_dark = win.match_media("(prefers-color-scheme: dark)").ok().flatten().is_some_and(|m| m.matches());
    Ok(DarkModeInfo {
        dark: lum < 0.2 && text.luminance() > lum,
        background: bg.to_hex(),
        text: text.to_hex(),
        background_luminance: (lum * 1000.0).round() / 1000.0,
        color_scheme: root.as_ref().map(|r| style(r, "color-scheme")).unwrap_or_default(),
        prefers_dark,
    })
}

/// The customisation sheets on `globalThis`, shared with custom.js and the dark layer (install.rs).
pub const CUSTOM_SHEET: &str = "duskCustomSheet";
pub const CUSTOM_PREVIEW: &str = "duskCustomPreview";

/// Shows `css` in the customisation's place (after the dark theme) with the saved sheet held
/// off; "" takes the preview away and brings the saved sheet back.
#[inline(never)]
pub fn preview_site_css(css: &str) -> Result<CssApplied, String> {
    let doc = document()?;
    let global = js_sys::global();
    let saved = js_sys::Reflect::get(&global, &CUSTOM_SHEET.into()).ok().and_then(|s| s.dyn_into::<CssStyleSheet>().ok());
    if let Some(saved) = &saved {
        saved.set_disabled(!css.is_empty());
    }
    let existing = js_sys::Reflect::get(&global, &CUSTOM_PREVIEW.into()).ok().and_then(|s| s.dyn_into::<CssStyleSheet>().ok());
    let adopted = doc.adopted_style_sheets();
    if css.is_empty() {
        if let Some(sheet) = existing {
            let kept: js_sys::Array = adopted.iter().filter(|s| !js_sys::Object::is(s, &sheet)).collect();
            doc.set_adopted_style_sheets(&kept);
        }
        return Ok(CssApplied { id: CUSTOM_PREVIEW.into(), rules: 0, rejected: Vec::new() });
    }
    let (rules, rejected) = check(css);
    let sheet = match existing {
        Some(s) => s,
        None => {
            let s = CssStyleSheet::new().map_err(|_| "could not create a style sheet")?;
            let _ = js_sys::Reflect::set(&global, &CUSTOM_PREVIEW.into(), &s);
            s
        }
    };
    sheet.replace_sync(css).map_err(|_| "the browser refused this CSS")?;
    let next: js_sys::Array = adopted.iter().filter(|s| !js_sys::Object::is(s, &sheet)).collect();
    next.push(&sheet);
    doc.set_adopted_style_sheets(&next);
    Ok(CssApplied { id: CUSTOM_PREVIEW.into(), rules, rejected })
}
