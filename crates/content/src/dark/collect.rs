//! Reads what styles a scope (the document or an open shadow root) into core's `Scope`.

use dusk_core::dark::{Attr, SchemeSource, Scope, Sheet};
use js_sys::{Array, Object};
use std::rc::Rc;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{CssImportRule, CssStyleSheet, Document, Element, NodeList, ShadowRoot, StyleSheetList};

/// A style scope: the document or an open shadow root.
#[derive(Clone)]
pub enum Root {
    Doc(Document),
    Shadow(ShadowRoot),
}

impl Root {
    pub fn js(&self) -> &JsValue {
        match self {
            Root::Doc(d) => d.as_ref(),
            Root::Shadow(s) => s.as_ref(),
        }
    }

    /// The window of the scope's own realm (a same-origin frame's, not the top page's).
    pub fn window(&self) -> Option<web_sys::Window> {
        match self {
            Root::Doc(d) => d.default_view(),
            Root::Shadow(s) => s.owner_document().and_then(|d| d.default_view()),
        }
    }

    fn style_sheets(&self) -> StyleSheetList {
        match self {
            Root::Doc(d) => d.style_sheets(),
            Root::Shadow(s) => s.style_sheets(),
        }
    }

    /// The scope's own sheets: its style sheet list, then its adopted sheets.
    pub fn sheets(&self) -> Vec<CssStyleSheet> {
        let list = self.style_sheets();
        let linked = (0..list.length()).filter_map(|i| list.item(i)).map(JsCast::unchecked_into::<CssStyleSheet>);
        linked.chain(self.adopted().iter().map(JsCast::unchecked_into)).collect()
    }

    pub fn adopted(&self) -> Array {
        match self {
            Root::Doc(d) => d.adopted_style_sheets(),
            Root::Shadow(s) => s.adopted_style_sheets(),
        }
    }

    pub fn set_adopted(&self, sheets: &Array) {
        match self {
            Root::Doc(d) => d.set_adopted_style_sheets(sheets),
            Root::Shadow(s) => s.set_adopted_style_sheets(sheets),
        }
    }

    /// Puts `css` into one of Dusk's own sheets (`current` is its text now) and keeps that sheet
    /// adopted by this scope; the text is replaced only when it changed.
    pub fn keep_adopted(&self, sheet: &CssStyleSheet, current: &mut String, css: &str) {
        if current != css {
            let _ = sheet.replace_sync(css);
            *current = css.to_string();
        }
        let adopted = self.adopted();
        if !adopted.iter().any(|s| js_sys::Object::is(&s, sheet)) {
            adopted.push(sheet);
            self.set_adopted(&adopted);
        }
    }

    pub fn query_all(&self, selector: &str) -> Option<NodeList> {
        match self {
            Root::Doc(d) => d.query_selector_all(selector).ok(),
            Root::Shadow(s) => s.query_selector_all(selector).ok(),
        }
    }
}

/// Remembers each sheet's text so unchanged sheets are not serialised again.
#[derive(Default)]
pub struct SheetCache {
    entries: Vec<(CssStyleSheet, u32, Sheet)>,
    /// Cross-origin sheets and their URLs: asking again would only throw again, and throwing costs ~20 ms.
    unreadable: Vec<(CssStyleSheet, Option<String>)>,
    /// Cross-origin sheets' text by URL, as serialised CSSOM; None while asked for or unobtainable.
    foreign: Vec<(String, Option<Rc<str>>)>,
    /// URLs of cross-origin sheets found since the last `take_to_fetch`.
    to_fetch: Vec<String>,
}

impl SheetCache {
    fn text_of(&mut self, sheet: &CssStyleSheet) -> Option<Sheet> {
        if let Some((_, href)) = self.unreadable.iter().find(|(k, _)| Object::is(k, sheet)) {
            return self.foreign_sheet(href.clone()?, sheet);
        }
        let Ok(rules) = sheet.css_rules() else {
            let href = sheet.href().ok().flatten();
            if let Some(url) = href.clone() {
                self.foreign_text(url);
            }
            self.unreadable.push((sheet.clone(), href.clone()));
            super::sheet_growth::unreadable(sheet);
            return self.foreign_sheet(href?, sheet);
        };
        let len = rules.length();
        if let Some((_, n, s)) = self.entries.iter().find(|(k, _, _)| Object::is(k, sheet)) {
            if *n == len {
                return Some(s.clone());
            }
        }
        let mut css = RuleTexts::default();
        append_rules(sheet, &mut css, 0, &mut |url| self.foreign_text(url));
        let parsed = Sheet { css: css.shared(), media: sheet.media().media_text() };
        self.entries.retain(|(k, _, _)| !Object::is(k, sheet));
        self.entries.push((sheet.clone(), len, parsed.clone()));
        Some(parsed)
    }

    /// A cross-origin sheet's text if it has arrived; the first ask queues it for fetching.
    fn foreign_text(&mut self, url: String) -> Option<Rc<str>> {
        match self.foreign.iter().find(|(k, _)| *k == url) {
            Some((_, text)) => text.clone(),
            None => {
                self.foreign.push((url.clone(), None));
                self.to_fetch.push(url);
                None
            }
        }
    }

    fn foreign_sheet(&self, url: String, sheet: &CssStyleSheet) -> Option<Sheet> {
        let css = self.foreign.iter().find(|(k, _)| *k == url)?.1.clone()?;
        Some(Sheet { css, media: sheet.media().media_text() })
    }

    /// A cross-origin sheet's text has arrived from the worker.
    pub fn has_foreign_text(&self, url: &str) -> bool {
        self.foreign.iter().any(|(k, text)| k == url && text.is_some())
    }

    /// A sheet found cross-origin already (its rules throw).
    pub fn is_unreadable(&self, sheet: &CssStyleSheet) -> bool {
        self.unreadable.iter().any(|(k, _)| Object::is(k, sheet))
    }

    /// Cross-origin sheets not yet asked for; the caller fetches them.
    pub fn take_to_fetch(&mut self) -> Vec<String> {
        std::mem::take(&mut self.to_fetch)
    }

    /// An @import arrived after its sheet was read: the sheet's rule count did not change, so
    /// every sheet is serialised afresh.
    pub fn forget_texts(&mut self) {
        self.entries.clear();
    }

    /// A fetched cross-origin sheet's serialised text (None: it could not be had).
    pub fn set_foreign(&mut self, url: &str, css: Option<String>) {
        if let Some(entry) = self.foreign.iter_mut().find(|(k, _)| k == url) {
            if css.is_some() {
                // A readable sheet may @import this one: serialise every sheet afresh.
                self.entries.clear();
            }
            entry.1 = css.map(Rc::from);
        }
    }
}

/// A sheet's text as read, one piece per rule: joined once its length is known, so a big sheet
/// (AdminLTE's 1.4 MB) never goes through a doubling buffer nor sits in the layer's memory three
/// times at once, and the memory, which never shrinks, keeps a lower peak.
#[derive(Default)]
pub struct RuleTexts(Vec<String>);

impl RuleTexts {
    fn push(&mut self, text: String) {
        self.0.push(text);
    }

    /// The pieces joined, each followed by a line break, in a string of exactly that length.
    pub fn joined(self) -> String {
        let mut out = String::with_capacity(self.0.iter().map(|p| p.len() + 1).sum());
        for piece in self.0 {
            out.push_str(&piece);
            out.push('\n');
        }
        out
    }

    /// The same as a shared text; the pieces are freed first, so it can take their place.
    pub fn shared(self) -> Rc<str> {
        Rc::from(self.joined().as_str())
    }
}

/// Serialises a sheet's rules, inlining `@import`ed sheets where they stand; a cross-origin
/// import's text comes from `foreign` (None until the worker has fetched it).
pub fn append_rules(sheet: &CssStyleSheet, out: &mut RuleTexts, depth: u32, foreign: &mut dyn FnMut(String) -> Option<Rc<str>>) {
    let Ok(rules) = sheet.css_rules() else { return };
    for i in 0..rules.length() {
        let Some(rule) = rules.item(i) else { continue };
        // By type, not instanceof: a same-origin frame's rules come from another realm.
        if rule.type_() == 3 {
            let import = rule.unchecked_ref::<CssImportRule>();
            let Some(inner) = import.style_sheet().filter(|_| depth < 8) else { continue };
            if inner.css_rules().is_ok() {
                append_rules(&inner, out, depth + 1, foreign);
            } else if let Some(text) = inner.href().ok().flatten().and_then(&mut *foreign) {
                let media = import.media().map(|m| m.media_text()).unwrap_or_default();
                // The fetched text ends with its own line break; the join adds none after it.
                let text = text.strip_suffix('\n').unwrap_or(&text);
                if media.trim().is_empty() || media.trim().eq_ignore_ascii_case("all") {
                    out.push(text.to_string());
                } else {
                    out.push(format!("@media {media}{{\n{text}\n}}"));
                }
            }
            continue;
        }
        out.push(rule.css_text());
    }
}

/// The page's sheets of `root` (not ours), in cascade order.
fn page_sheets(root: &Root, own: &[CssStyleSheet]) -> Vec<CssStyleSheet> {
    let list = root.style_sheets();
    let mut out: Vec<CssStyleSheet> = (0..list.length()).filter_map(|i| list.item(i)).map(JsCast::unchecked_into).collect();
    let adopted = root.adopted();
    out.extend(adopted.iter().map(JsCast::unchecked_into::<CssStyleSheet>).filter(|s| !own.iter().any(|o| Object::is(o, s))));
    out
}

/// The text of every enabled page sheet of `root`.
pub fn sheets(root: &Root, cache: &mut SheetCache, own: &[CssStyleSheet]) -> Vec<Sheet> {
    page_sheets(root, own).iter().filter(|s| !s.disabled()).filter_map(|s| cache.text_of(s)).collect()
}

/// Everything that styles `root`, leaving out our own sheets.
#[inline(never)]
pub fn scope(root: &Root, cache: &mut SheetCache, own: &[CssStyleSheet]) -> Scope {
    let mut out = Scope { sheets: sheets(root, cache, own), ..Default::default() };
    out.inline_styles = distinct(root, "[style]", &["style"]);
    out.inline_styles.retain(|s| !s.trim().is_empty());
    for (selector, names) in [
        ("[bgcolor]", &["bgcolor"][..]),
        ("font[color]", &["color"]),
        ("body[text]", &["text"]),
        ("svg[fill], svg [fill], svg[stroke], svg [stroke]", &["fill", "stroke"]),
    ] {
        let mut seen = std::collections::BTreeSet::new();
        for el in elements(root, selector) {
            for name in names {
                seen.extend(el.get_attribute(name).map(|value| Attr { name: name.to_string(), value }));
            }
        }
        out.attrs.extend(seen);
    }
    let mut sources = std::collections::BTreeSet::new();
    for el in elements(root, "picture > source[media*=\"prefers-color-scheme\" i][srcset]") {
        if let (Some(srcset), Some(media)) = (el.get_attribute("srcset"), el.get_attribute("media")) {
            sources.insert(SchemeSource { srcset, media });
        }
    }
    out.scheme_sources = sources.into_iter().collect();
    out
}

fn distinct(root: &Root, selector: &str, names: &[&str]) -> Vec<String> {
    let mut values = std::collections::BTreeSet::new();
    for el in elements(root, selector) {
        for name in names {
            values.extend(el.get_attribute(name));
        }
    }
    values.into_iter().collect()
}

fn elements(root: &Root, selector: &str) -> impl Iterator<Item = Element> {
    let list = root.query_all(selector);
    let n = list.as_ref().map_or(0, |l| l.length());
    (0..n).filter_map(move |i| list.as_ref()?.item(i).and_then(as_element))
}

/// Open shadow roots under `root` (not nested ones; callers recurse).
#[inline(never)]
pub fn shadow_roots_in(root: &Root) -> Vec<ShadowRoot> {
    shadow_roots_within(root.js()).iter().map(JsCast::unchecked_into).collect()
}

/// `node` as an element, checked by node type rather than `instanceof`, which fails for nodes of
/// a same-origin frame (another realm).
pub fn as_element(node: web_sys::Node) -> Option<Element> {
    (node.node_type() == web_sys::Node::ELEMENT_NODE).then(|| node.unchecked_into())
}

// A walk reading each element's shadow root: a selector for the elements that may host one
// (`*:not(a,abbr,…)`) took ~0.8 µs an element to match, the walk ~0.05.
#[wasm_bindgen::prelude::wasm_bindgen(inline_js = "import { getter, method } from 'dusk-unshadowed';
const walkerOf = method(Document, 'createTreeWalker'), next = method(TreeWalker, 'nextNode');
const shadowOf = getter(Element, 'shadowRoot'), docOf = getter(Node, 'ownerDocument'), firstElementOf = getter(Element, 'firstElementChild');
function walk(root, out) {
  const w = walkerOf(docOf(root) || root, root, 1);
  for (let e = next(w); e; e = next(w)) { const r = shadowOf(e); if (r) out.push(r); }
  return out;
}
export function shadow_roots_within(root) { return walk(root, []); }
export function shadow_roots_of(added) {
  const out = [];
  for (const el of added) {
    const own = shadowOf(el);
    if (own) out.push(own);
    if (firstElementOf(el)) walk(el, out);
  }
  return out;
}")]
extern "C" {
    /// The open shadow roots of the elements under `root`, in document order.
    fn shadow_roots_within(root: &JsValue) -> Array;
    fn shadow_roots_of(added: &Array) -> Array;
}

/// Open shadow roots in subtrees that were just added, found in one call.
pub fn shadow_roots_under(added: &Array) -> Vec<ShadowRoot> {
    shadow_roots_of(added).iter().map(JsCast::unchecked_into).collect()
}
