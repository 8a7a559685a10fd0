//! Our override sheets live in each scope's adoptedStyleSheets: always after the page's own
//! sheets in the cascade, invisible to the DOM, and removable without a trace.

use super::collect::Root;
use js_sys::{Array, Object};
use wasm_bindgen::prelude::*;
use web_sys::CssStyleSheet;

#[wasm_bindgen(inline_js = "import { read } from 'dusk-unshadowed';
// A sheet of `like`'s realm (a document adopts only sheets made for it) holding `css`, switched as `like` is.
export function sheet_like(like, css) {
  const s = new like.constructor();
  s.replaceSync(css);
  s.disabled = like.disabled;
  return s;
}
// `sheet` adopted right after `after`, the last of our `count` sheets from `first` on; false if
// either is not adopted (the page reset the list). Ours are last in the common case: one append,
// no walk of the list (each read of an adopted sheet goes through Blink).
export function adopt_after(root, first, after, count, sheet) {
  const a = read(root, 'adoptedStyleSheets');
  const n = a.length;
  if (n >= count && a[n - 1] === after && a[n - count] === first) { a.push(sheet); return true; }
  const i = a.indexOf(after);
  if (i < 0 || !a.includes(first)) return false;
  root.adoptedStyleSheets = [...a.slice(0, i + 1), sheet, ...a.slice(i + 1)];
  return true;
}
// The page's adopted sheets moved before ours (`ours`, in their order): a sheet the page adopts
// after the theme would beat the theme and the overrides mirrored from its own rules.
export function page_sheets_first(root, ours) {
  const a = read(root, 'adoptedStyleSheets'), mine = new Set(ours);
  let after = false, late = false;
  for (const s of a) if (mine.has(s)) after = true; else if (after) { late = true; break; }
  if (late) root.adoptedStyleSheets = [...a.filter((s) => !mine.has(s)), ...a.filter((s) => mine.has(s))];
}
export function adopted_both(root, a, b) {
  const list = read(root, 'adoptedStyleSheets');
  return list.includes(a) && list.includes(b);
}")]
extern "C" {
    fn sheet_like(like: &CssStyleSheet, css: &str) -> CssStyleSheet;
    fn adopt_after(root: &JsValue, first: &CssStyleSheet, after: &CssStyleSheet, count: u32, sheet: &CssStyleSheet) -> bool;
    fn adopted_both(root: &JsValue, a: &CssStyleSheet, b: &CssStyleSheet) -> bool;
    fn page_sheets_first(root: &JsValue, ours: &Array);
}

/// Every sheet the page adopted in `root` goes before ours (`own`, and the site's customisation
/// after them), so the theme and its mirrored overrides come later in the cascade.
pub fn keep_page_sheets_first(root: &Root, own: &[CssStyleSheet]) {
    let ours: Array = own.iter().map(JsValue::from).chain(customisation_sheets()).collect();
    page_sheets_first(root.js(), &ours);
}

#[derive(Clone)]
pub struct Installed {
    pub root: Root,
    pub sheet: CssStyleSheet,
    /// The theme's text as far as the layer needs it; what was added since (`append`) follows it.
    pub css: ThemeText,
    /// What the page added since the theme was built, adopted right after the theme: first a
    /// sheet that grows by `insertRule` with the markup's new colours (Chrome restyles only the
    /// elements a new `[attr="…"]` rule matches), then each batch's mirrored sheet rules in a
    /// sheet of their own (an edit to a sheet of class rules restyles every element of every one
    /// of its classes; a sheet added restyles only its own), folded in levels (core `added_sheets`).
    added: Vec<Added>,
}

/// A sheet of rules added after the theme, its text, and how many folds made it.
#[derive(Clone)]
struct Added {
    sheet: CssStyleSheet,
    text: String,
    level: u8,
}

impl Installed {
    pub fn new(root: Root) -> Option<Installed> {
        Some(Installed { root, sheet: CssStyleSheet::new().ok()?, css: ThemeText::default(), added: Vec::new() })
    }

    /// A sheet made by `window`'s realm: a document adopts only sheets constructed for it.
    pub fn in_realm(root: Root, window: &web_sys::Window) -> Option<Installed> {
        let constructor = js_sys::Reflect::get(window, &"CSSStyleSheet".into()).ok().filter(|c| c.is_function())?.unchecked_into::<js_sys::Function>();
        let sheet = js_sys::Reflect::construct(&constructor, &Array::new()).ok()?;
        Some(Installed { root, sheet: sheet.unchecked_into(), css: ThemeText::default(), added: Vec::new() })
    }

    /// A sheet holding `css`, parsed now but not yet adopted by its scope.
    pub fn parsed(root: Root, css: &str) -> Option<Installed> {
        let mut out = Installed::new(root)?;
        out.load(css);
        Some(out)
    }

    fn load(&mut self, css: &str) {
        let text = ThemeText::of(css);
        if text != self.css {
            // A rule Chrome rejects is dropped by replaceSync, never the whole sheet.
            let _ = self.sheet.replace_sync(css);
            self.css = text;
            // The new theme holds what was added.
            let added: Vec<_> = self.added.drain(..).map(|a| a.sheet).collect();
            if !added.is_empty() {
                let next: Array = self.root.adopted().iter().filter(|s| !added.iter().any(|a| Object::is(s, a))).collect();
                self.root.set_adopted(&next);
            }
        }
    }

    /// Our sheets of this scope: the theme, and what was added since.
    pub fn sheets(&self) -> impl Iterator<Item = CssStyleSheet> + '_ {
        std::iter::once(self.sheet.clone()).chain(self.added.iter().map(|a| a.sheet.clone()))
    }

    /// Adds rules for new inline colours and legacy attributes after the theme, one insertion each.
    pub fn append_markup(&mut self, rules: &[String]) {
        if rules.is_empty() {
            return;
        }
        if self.added.is_empty() {
            self.push_added(String::new(), 0);
        }
        let Some(markup) = self.added.first_mut() else { return };
        for rule in rules {
            let end = markup.sheet.css_rules().map_or(0, |r| r.length());
            // A rule Chrome rejects is left out, as replaceSync leaves it out.
            if markup.sheet.insert_rule_with_index(rule, end).is_ok() {
                markup.text.push_str(rule);
                self.css.push(rule);
            }
        }
        self.keep();
    }

    /// Adds mirrored sheet rules after the theme, in a sheet of their own: only they are matched anew.
    pub fn append(&mut self, rules: &[String]) {
        if rules.is_empty() {
            return;
        }
        if self.added.is_empty() {
            // The markup's sheet comes first, empty until it has a rule.
            self.push_added(String::new(), 0);
        }
        let text = rules.concat();
        self.css.push(&text);
        self.push_added(text, 0);
        let levels = |added: &[Added]| added[1..].iter().map(|a| a.level).collect::<Vec<_>>();
        while let Some(from) = dusk_core::dark::added_sheets::fold_from(&levels(&self.added)) {
            self.fold(from + 1);
        }
        // Each push_added found the theme and the sheet before its own in place, or put ours back.
    }

    /// The added sheets from `from` on, as one sheet of the next level in their place.
    fn fold(&mut self, from: usize) {
        let run: Vec<Added> = self.added.drain(from..).collect();
        let level = run.first().map_or(0, |a| a.level.saturating_add(1));
        let text: String = run.iter().map(|a| a.text.as_str()).collect();
        let next: Array = self.root.adopted().iter().filter(|s| !run.iter().any(|a| Object::is(s, &a.sheet))).collect();
        self.root.set_adopted(&next);
        self.push_added(text, level);
    }

    /// A sheet of added rules after the others, adopted at once when ours are in place.
    fn push_added(&mut self, text: String, level: u8) {
        // A rule Chrome rejects is left out, as in the theme.
        let sheet = sheet_like(&self.sheet, &text);
        let last = self.added.last().map_or(&self.sheet, |a| &a.sheet);
        let adopted = adopt_after(self.root.js(), &self.sheet, last, self.added.len() as u32 + 1, &sheet);
        self.added.push(Added { sheet, text, level });
        if !adopted {
            self.keep();
        }
    }

    /// Our sheets back in the scope's adopted sheets if the page took the theme or the last added one out.
    fn keep(&mut self) {
        let last = self.added.last().map_or(&self.sheet, |a| &a.sheet);
        if !adopted_both(self.root.js(), &self.sheet, last) {
            self.readopt();
        }
    }

    /// Replaces the CSS if it changed, and re-adds the sheets if the page reset adoptedStyleSheets.
    pub fn set(&mut self, css: &str) {
        self.load(css);
        self.readopt();
    }

    /// Re-adds our sheets if the page reset adoptedStyleSheets.
    pub fn readopt(&mut self) {
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
        let current = self.root.adopted();
        if self.added.iter().any(|a| !current.iter().any(|s| Object::is(&s, &a.sheet))) {
            // In order, right after the theme.
            let next: Array = current.iter().filter(|s| !self.added.iter().any(|a| Object::is(s, &a.sheet))).collect();
            let at = next.iter().position(|s| Object::is(&s, &self.sheet)).map_or(next.length(), |i| i as u32 + 1);
            for (k, a) in self.added.iter().enumerate() {
                next.splice(at + k as u32, 0, &a.sheet);
            }
            self.root.set_adopted(&next);
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
    customisation_sheets().any(|s| Object::is(&s, sheet))
}

/// The site's customisation sheets (custom.js, and the Customize agent's preview) in this world.
fn customisation_sheets() -> impl Iterator<Item = JsValue> {
    let global = js_sys::global();
    ["duskCustomSheet", "duskCustomPreview"].into_iter().filter_map(move |k| js_sys::Reflect::get(&global, &k.into()).ok().filter(|s| s.is_object()))
}

/// A theme's text without the text: Blink's sheet holds that, and a CSS-heavy page's theme is a
/// megabyte of the layer's wasm memory, which never shrinks. Its length, a 64-bit FNV-1a of it
/// (whether a new build changed it), and its start (the dark agent's excerpt).
#[derive(Clone, Debug, PartialEq)]
pub struct ThemeText {
    len: usize,
    hash: u64,
    head: String,
}

/// The start of a theme kept as text: longer than the agent's excerpt.
const HEAD: usize = 4096;

impl Default for ThemeText {
    fn default() -> ThemeText {
        ThemeText { len: 0, hash: 0xcbf2_9ce4_8422_2325, head: String::new() }
    }
}

impl ThemeText {
    pub fn of(css: &str) -> ThemeText {
        let mut out = ThemeText::default();
        out.push(css);
        out
    }

    pub fn push(&mut self, css: &str) {
        self.len += css.len();
        self.hash = css.bytes().fold(self.hash, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
        let mut end = HEAD.saturating_sub(self.head.len()).min(css.len());
        while !css.is_char_boundary(end) {
            end -= 1;
        }
        self.head.push_str(&css[..end]);
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The text's first `max` bytes of its first `within` (at most `HEAD`), cut at a character.
    pub fn start(&self, within: usize, max: usize) -> &str {
        let mut end = self.head.len().min(within).min(max);
        while !self.head.is_char_boundary(end) {
            end -= 1;
        }
        &self.head[..end]
    }
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
