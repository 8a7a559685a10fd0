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
    /// The theme's text; what was added since (`append`) follows it.
    pub css: String,
    /// What the page added since the theme was built, in a small sheet of its own right after
    /// the theme: an insertion there re-indexes a few rules, not the whole theme.
    added: Option<CssStyleSheet>,
}

impl Installed {
    pub fn new(root: Root) -> Option<Installed> {
        Some(Installed { root, sheet: CssStyleSheet::new().ok()?, css: String::new(), added: None })
    }

    /// A sheet made by `window`'s realm: a document adopts only sheets constructed for it.
    pub fn in_realm(root: Root, window: &web_sys::Window) -> Option<Installed> {
        let constructor = js_sys::Reflect::get(window, &"CSSStyleSheet".into()).ok().filter(|c| c.is_function())?.unchecked_into::<js_sys::Function>();
        let sheet = js_sys::Reflect::construct(&constructor, &Array::new()).ok()?;
        Some(Installed { root, sheet: sheet.unchecked_into(), css: String::new(), added: None })
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
            // The new theme holds what was added.
            if let Some(added) = self.added.take() {
                self.unadopt(&added);
            }
        }
    }

    /// Our sheets of this scope: the theme, and what was added since.
    pub fn sheets(&self) -> impl Iterator<Item = CssStyleSheet> + '_ {
        std::iter::once(self.sheet.clone()).chain(self.added.clone())
    }

    /// Adds `rules` after the theme, one insertion each: only they are matched anew.
    pub fn append(&mut self, rules: &[String]) {
        if rules.is_empty() {
            return;
        }
        if self.added.is_none() {
            self.added = self.root.window().and_then(|w| Installed::in_realm(self.root.clone(), &w)).map(|i| i.sheet);
            self.added.iter().for_each(|a| a.set_disabled(self.sheet.disabled()));
        }
        let Some(added) = self.added.clone() else { return };
        for rule in rules {
            let end = added.css_rules().map_or(0, |r| r.length());
            // A rule Chrome rejects is left out, as replaceSync leaves it out.
            if added.insert_rule_with_index(rule, end).is_ok() {
                self.css.push_str(rule);
            }
        }
        self.set(&self.css.clone());
    }

    fn unadopt(&self, sheet: &CssStyleSheet) {
        let current = self.root.adopted();
        if current.iter().any(|s| Object::is(&s, sheet)) {
            let next: Array = current.iter().filter(|s| !Object::is(s, sheet)).collect();
            self.root.set_adopted(&next);
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
        if let Some(added) = &self.added {
            let current = self.root.adopted();
            if !current.iter().any(|s| Object::is(&s, added)) {
                let next: Array = current.iter().collect();
                let at = next.iter().position(|s| Object::is(&s, &self.sheet)).map_or(next.length(), |i| i as u32 + 1);
                next.splice(at, 0, added);
                self.root.set_adopted(&next);
            }
        }
    }

    /// Holds a theme and styles its scope now.
    pub fn is_on(&self) -> bool {
        !self.css.is_empty() && !self.sheet.disabled() && self.root.adopted().iter().any(|s| Object::is(&s, &self.sheet))
    }

    pub fn set_enabled(&self, on: bool) {
        self.sheets().for_each(|s| s.set_disabled(!on));
    }

    /// Takes our sheets out and leaves every other adopted sheet where it was.
    pub fn remove(&self) {
        let next: Array = self.root.adopted().iter().filter(|s| !self.sheets().any(|o| Object::is(s, &o))).collect();
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
