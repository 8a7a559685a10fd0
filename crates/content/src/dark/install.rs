//! Our override sheets live in each scope's adoptedStyleSheets: always after the page's own
//! sheets in the cascade, invisible to the DOM, and removable without a trace.

use super::collect::Root;
use js_sys::{Array, Object};
use wasm_bindgen::JsCast;
use web_sys::CssStyleSheet;

#[derive(Clone)]
pub struct Installed {
    pub root: Root,
    pub sheet: CssStyleSheet,
    pub css: String,
}

impl Installed {
    pub fn new(root: Root) -> Option<Installed> {
        Some(Installed { root, sheet: CssStyleSheet::new().ok()?, css: String::new() })
    }

    /// A sheet made by `window`'s realm: a document adopts only sheets constructed for it.
    pub fn in_realm(root: Root, window: &web_sys::Window) -> Option<Installed> {
        let constructor = js_sys::Reflect::get(window, &"CSSStyleSheet".into()).ok().filter(|c| c.is_function())?.unchecked_into::<js_sys::Function>();
        let sheet = js_sys::Reflect::construct(&constructor, &Array::new()).ok()?;
        Some(Installed { root, sheet: sheet.unchecked_into(), css: String::new() })
    }

    /// A sheet holding `css`, parsed now but not yet adopted by its scope.
    pub fn parsed(root: Root, css: &str) -> Option<Installed> {
        let mut out = Installed::new(root)?;
        out.load(css);
        Some(out)
    }

    fn load(&mut self, css: &str) {
        if css != self.css {
            // A rule Chrome rejects is dropped by replaceSync, never the whole sheet.
            let _ = self.sheet.replace_sync(css);
            self.css = css.to_string();
        }
    }

    /// Replaces the CSS if it changed, and re-adds the sheet if the page reset adoptedStyleSheets.
    pub fn set(&mut self, css: &str) {
        self.load(css);
        let current = self.root.adopted();
        if !current.iter().any(|s| Object::is(&s, &self.sheet)) {
            let next: Array = current.iter().collect();
            // The site's customisation (custom.js, or its preview) stays after the dark theme.
            match next.iter().position(|s| is_customisation(&s)) {
                Some(i) => {
                    next.splice(i as u32, 0, &self.sheet);
                }
                None => {
                    next.push(&self.sheet);
                }
            }
            self.root.set_adopted(&next);
        }
    }

    /// Holds a theme and styles its scope now.
    pub fn is_on(&self) -> bool {
        !self.css.is_empty() && !self.sheet.disabled() && self.root.adopted().iter().any(|s| Object::is(&s, &self.sheet))
    }

    pub fn set_enabled(&self, on: bool) {
        self.sheet.set_disabled(!on);
    }

    /// Takes our sheet out and leaves every other adopted sheet where it was.
    pub fn remove(&self) {
        let next: Array = self.root.adopted().iter().filter(|s| !Object::is(s, &self.sheet)).collect();
        self.root.set_adopted(&next);
    }
}

/// custom.js's sheet or the customize agent's preview (`globalThis.duskCustomSheet` / `duskCustomPreview`).
fn is_customisation(sheet: &wasm_bindgen::JsValue) -> bool {
    let global = js_sys::global();
    ["duskCustomSheet", "duskCustomPreview"].iter().any(|k| js_sys::Reflect::get(&global, &(*k).into()).is_ok_and(|s| Object::is(&s, sheet)))
}

thread_local! {
    static FROZEN: std::cell::RefCell<Option<(Root, CssStyleSheet)>> = const { std::cell::RefCell::new(None) };
}

/// Turns the page's CSS transitions off (core's freeze CSS) while the theme switches, so colours
/// change in one frame instead of animating; `thaw` restores them once that frame has been styled.
pub fn freeze_transitions(root: &Root, css: &str) {
    if FROZEN.with(|f| f.borrow().is_some()) {
        return;
    }
    let Ok(sheet) = CssStyleSheet::new() else { return };
    let _ = sheet.replace_sync(css);
    let next: Array = root.adopted().iter().collect();
    next.push(&sheet);
    root.set_adopted(&next);
    FROZEN.with(|f| *f.borrow_mut() = Some((root.clone(), sheet)));
}

pub fn thaw() {
    if let Some((root, sheet)) = FROZEN.with(|f| f.borrow_mut().take()) {
        let next: Array = root.adopted().iter().filter(|s| !Object::is(s, &sheet)).collect();
        root.set_adopted(&next);
    }
}

/// The transition-freezing sheet while it is in place, so it is never mistaken for a page sheet.
pub fn frozen_sheet() -> Option<CssStyleSheet> {
    FROZEN.with(|f| f.borrow().as_ref().map(|(_, s)| s.clone()))
}
