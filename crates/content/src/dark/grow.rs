//! A batch on a busy page: what the page added since the theme was built (new inline colours,
//! legacy attributes, rules appended to its sheets) gets rules of its own, inserted once per
//! scope per frame; a node the theme already covers costs a lookup and no write.

use super::inline::{self, markup_of};
use super::sheet_growth;
use super::*;
use dusk_core::dark::growth::{self, Growth, SheetMark};
use dusk_core::dark::theme::{build_added, Added};
use dusk_core::dark::{Attr, Scope};
use wasm_bindgen::prelude::*;

/// Elements carrying a colour the theme reads from the markup.
const MARKUP: &str = "[style],[bgcolor],font[color],body[text],svg[fill],svg [fill],svg[stroke],svg [stroke],picture>source[srcset][media]";
/// Past this many elements in one frame, reading the whole page once is cheaper.
const MAX_PENDING: u32 = 4000;

/// What the page's mutations touched since the last batch.
#[derive(Default)]
pub(super) struct Pending {
    /// Added elements: their whole subtree is read.
    pub added: Array,
    /// Elements whose observed attribute other than `style` changed: only they are read.
    pub touched: Array,
    /// Elements whose `style` changed: only their inline style is read.
    pub styled: Array,
}

impl Pending {
    /// Takes what was noted since the last batch.
    pub fn take() -> Pending {
        let both = super::watch::take_pending();
        Pending { added: both.get(0).unchecked_into(), touched: both.get(1).unchecked_into(), styled: both.get(2).unchecked_into() }
    }

    /// Too many to read one by one: the batch collects the whole page.
    fn overflow(&self) -> bool {
        self.added.length() + self.touched.length() + self.styled.length() > MAX_PENDING
    }
}

/// Brings the theme up to date with what the page added, without reading the whole page or
/// building the theme again; false: the batch must (a sheet changed in place, a scope came or
/// went, a custom property gained a role, or too much changed at once).
#[inline(never)]
pub(super) fn grow(s: &mut State, pending: &Pending, own: &[web_sys::CssStyleSheet]) -> bool {
    let n = s.roots.len();
    if pending.overflow() || s.roles.is_none() || s.marks.len() != n || s.last_input.len() != n || s.installed.len() != n {
        return false;
    }
    if s.installed.iter().any(|i| i.css.is_empty()) {
        return false;
    }
    let mut adds: Vec<Scope> = vec![Scope::default(); n];
    let mut new_sheets: Vec<Option<(Growth, Vec<SheetMark>)>> = (0..n).map(|_| None).collect();
    let own: Array = own.iter().collect();
    for (i, root) in s.roots.iter().enumerate() {
        // One call checks the scope's sheets; only what a sheet gained is read.
        let Some(marks) = sheet_growth::changed_marks(root.js(), &own, &s.marks[i]) else { continue };
        let foreign = |url: &str| s.cache.has_foreign_text(url);
        let read = &mut |index, from| sheet_growth::rules(root.js(), index, from);
        let Some(mut growth) = growth::grow(&s.marks[i], &marks, &s.last_input[i].sheets, &foreign, read) else { return false };
        adds[i].sheets = std::mem::take(&mut growth.added);
        new_sheets[i] = Some((growth, marks));
    }
    // Per scope: the elements to mark once their new values' markers are known.
    let mut later: Vec<Option<Array>> = vec![None; n];
    let entries = markup_of(&pending.added, &pending.touched, &pending.styled, MARKUP);
    // Restyled elements whose values have rules get them written in place, unobserved.
    inline::paint();
    for entry in entries.iter() {
        let entry: Array = entry.unchecked_into();
        // A node no longer in a themed scope (removed since) needs nothing.
        let Some(i) = s.roots.iter().position(|r| js_sys::Object::is(r.js(), &entry.get(0))) else { continue };
        if entry.get(3).is_truthy() {
            // A <picture>'s dark source is part of the full build only.
            return false;
        }
        let (last, add) = (&s.last_input[i], &mut adds[i]);
        // Every value the scope's markers don't name yet (one the last build saw gets its marker back).
        add.inline_styles.extend(Array::from(&entry.get(1)).iter().filter_map(|v| v.as_string()).filter(|v| !v.trim().is_empty()));
        later[i] = Some(entry.get(4).unchecked_into());
        for a in Array::from(&entry.get(2)).iter().filter_map(|v| v.as_string()) {
            let Some((name, value)) = a.split_once('\n') else { continue };
            let a = Attr { name: name.to_string(), value: value.to_string() };
            if last.attrs.binary_search(&a).is_err() {
                add.attrs.push(a);
            }
        }
    }
    let Some(roles) = s.roles.as_ref() else { return false };
    // Per scope: the rules for its sheets' additions, and those for its markup's.
    let mut built: Vec<(Added, Added)> = Vec::with_capacity(n);
    let build = |part: &Scope, root: &JsValue| {
        let empty = part.sheets.is_empty() && part.inline_styles.is_empty() && part.attrs.is_empty();
        if empty {
            return Some(Added::default());
        }
        let has_rule = |m: &str| inline::has_rule(root, m);
        dusk_core::dark::adjust::with_adjust(s.adjust, || images::during(|| build_added(roles, part, &has_rule)))
    };
    for (add, root) in adds.iter_mut().zip(&s.roots) {
        // Built apart (a sheet's rules and the markup's go in sheets of their own), no copy made.
        let sheets = Scope { sheets: std::mem::take(&mut add.sheets), ..Default::default() };
        let markup = Scope { inline_styles: std::mem::take(&mut add.inline_styles), attrs: std::mem::take(&mut add.attrs), ..Default::default() };
        let both = (build(&sheets, root.js()), build(&markup, root.js()));
        (add.sheets, add.inline_styles, add.attrs) = (sheets.sheets, markup.inline_styles, markup.attrs);
        match both {
            (Some(a), Some(b)) => built.push((a, b)),
            _ => return false,
        }
    }
    // Everything is built: now the writes, one run per scope that gained rules, then the markers.
    for (i, (mut add, (sheets, markup))) in adds.into_iter().zip(built).enumerate() {
        s.installed[i].append_markup(&markup.rules);
        s.installed[i].append(&sheets.rules);
        if let Some(later) = later[i].take() {
            inline::add(s.roots[i].js(), &markup.markers, &later);
        }
        add.inline_styles.retain(|v| s.last_input[i].inline_styles.binary_search(v).is_err());
        let last = &mut s.last_input[i];
        if let Some((growth, marks)) = new_sheets[i].take() {
            growth.apply(&mut last.sheets);
            s.marks[i] = marks;
            sheet_growth::commit(s.roots[i].js());
        }
        // The document's translucent selectors, from what it gained alone.
        if let Some(list) = s.translucent.as_mut().filter(|_| i == 0) {
            dusk_core::dark::translucent::extend(list, &add);
        }
        last.merge_markup(add.inline_styles, add.attrs);
    }
    true
}

/// Every marked sheet of every scope, after a full build.
pub(super) fn marks_now(s: &State, own: &[web_sys::CssStyleSheet]) -> Vec<Vec<SheetMark>> {
    let own: Array = own.iter().collect();
    s.roots.iter().map(|r| sheet_growth::marks(r.js(), &own)).collect()
}
