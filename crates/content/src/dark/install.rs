//! Our override sheets live in each scope's adoptedStyleSheets: always after the page's own
//! sheets in the cascade, invisible to the DOM, and removable without a trace.

use super::collect::Root;
use js_sys::{Array, Object};
use web_sys::CssStyleSheet;

pub struct Installed {
    pub root: Root,
    pub sheet: CssStyleSheet,
    pub css: String,
}

impl Installed {
    pub fn new(root: Root) -> Option<Installed> {
        Some(Installed { root, sheet: CssStyleSheet::new().ok()?, css: String::new() })
    }

    /// Replaces the CSS if it changed, and re-adds the sheet if the page reset adoptedStyleSheets.
    pub fn set(&mut self, css: &str) {
        if css != self.css {
            // A rule Chrome rejects is dropped by replaceSync, never the whole sheet.
            let _ = self.sheet.replace_sync(css);
            self.css = css.to_string();
        }
        let current = self.root.adopted();
        if !current.iter().any(|s| Object::is(&s, &self.sheet)) {
            let next: Array = current.iter().collect();
            next.push(&self.sheet);
            self.root.set_adopted(&next);
        }
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
