//! A site's own dark design, as the browser's dark scheme shows it: the page's own
//! `prefers-color-scheme` conditions rewritten in place (core's `own::scheme_on`), so its dark
//! rules apply in its own cascade, and text the design leaves under AA raised (core's `own::raised`).

use super::collect::{as_element, Root};
use super::quality::text_pairs;
use dusk_core::dark::color::Rgba;
use dusk_core::dark::own::{raise_css, raised_through, scheme_css, scheme_on, RAISE_ATTR};
use dusk_core::page::color::Rgba as PageRgba;
use std::cell::RefCell;
use std::collections::BTreeSet;
use wasm_bindgen::prelude::*;
use web_sys::{CssStyleSheet, Element, MediaList};

/// Text elements measured at most: far more than a screen holds, fewer than a huge page has.
const MAX_TEXT: u32 = 20_000;

// Walking every rule of a big sheet crosses into JS once per sheet, not once per rule.
#[wasm_bindgen(inline_js = "import { read, call } from 'dusk-unshadowed';

export function scheme_lists(sheet) {
  const out = [];
  const has = (m) => m && m.mediaText.includes('prefers-color-scheme');
  const visit = (rules) => {
    for (const r of rules) {
      if (has(r.media)) out.push(r.media);
      if (r.styleSheet) { try { visit(r.styleSheet.cssRules); } catch (e) {} }
      if (r.cssRules) visit(r.cssRules);
    }
  };
  if (has(sheet.media)) out.push(sheet.media);
  try { visit(sheet.cssRules); } catch (e) {}
  return out;
}
export function sheets_loading(doc) {
  let n = 0;
  for (const l of call(doc, 'querySelectorAll', 'link[rel~=stylesheet i]:not([rel~=alternate i])')) if (!l.sheet && !l.disabled) n++;
  return n;
}")]
extern "C" {
    fn scheme_lists(sheet: &CssStyleSheet) -> js_sys::Array;
    /// Linked sheets the browser is still loading (a link's sheet is null until it has loaded).
    pub fn sheets_loading(doc: &web_sys::Document) -> u32;
}

/// The rule count noted for a sheet whose rules can't be read.
const UNREADABLE: u32 = u32::MAX;

/// One sheet as last walked: its rule count then, its scheme conditions with the text the page
/// gave them, and whether they are switched on now.
struct Walked {
    sheet: CssStyleSheet,
    count: u32,
    lists: Vec<(MediaList, String)>,
    on: bool,
}

thread_local! {
    /// Kept when switched off: switching on again only rewrites, without walking the sheets again.
    static WALKED: RefCell<Vec<Walked>> = const { RefCell::new(Vec::new()) };
}

/// Switches the site's dark-scheme conditions on in every readable sheet of `roots`, in place;
/// true if the page has any. A sheet is walked again only if its rule count changed.
pub fn switch_on(roots: &[Root], unreadable: &dyn Fn(&CssStyleSheet) -> bool) -> bool {
    WALKED.with(|w| {
        let mut walked = w.borrow_mut();
        for sheet in roots.iter().flat_map(Root::sheets) {
            let known = walked.iter().position(|x| js_sys::Object::is(&x.sheet, &sheet));
            // A cross-origin sheet throws on every read, and each throw costs ~20 ms: asked once.
            if known.is_some_and(|i| walked[i].count == UNREADABLE) || (known.is_none() && unreadable(&sheet)) {
                continue;
            }
            let count = sheet.css_rules().map(|r| r.length()).unwrap_or(UNREADABLE);
            let i = match known {
                Some(i) if walked[i].count == count => i,
                known => {
                    if let Some(i) = known {
                        restore(&mut walked.remove(i));
                    }
                    let found = if count == UNREADABLE { js_sys::Array::new() } else { scheme_lists(&sheet) };
                    let lists = found.iter().map(|l| l.unchecked_into::<MediaList>()).map(|l| (l.media_text(), l)).map(|(t, l)| (l, t)).collect();
                    walked.push(Walked { sheet, count, lists, on: false });
                    walked.len() - 1
                }
            };
            let entry = &mut walked[i];
            if !entry.on {
                for (list, text) in &entry.lists {
                    if let Some(on) = scheme_on(text) {
                        list.set_media_text(&on);
                    }
                }
                entry.on = true;
            }
        }
        walked.iter().any(|x| !x.lists.is_empty())
    })
}

fn restore(entry: &mut Walked) {
    if std::mem::take(&mut entry.on) {
        for (list, text) in &entry.lists {
            list.set_media_text(text);
        }
    }
}

/// Puts every rewritten condition back as the page wrote it.
pub fn switch_off() {
    WALKED.with(|w| w.borrow_mut().iter_mut().for_each(restore));
}

/// Switches the site's dark scheme on and judges the page as the browser's dark scheme shows it:
/// dark, so the site's own design, with the text it leaves under AA to raise (the conditions stay
/// on); None if it has no dark-scheme rules or stays light (the conditions are put back).
pub fn judge(doc: &web_sys::Document, roots: &[Root], unreadable: &dyn Fn(&CssStyleSheet) -> bool) -> Option<Measured> {
    if !switch_on(roots, unreadable) {
        return None;
    }
    if !super::page_is_dark_held(doc) {
        // Not a dark design of its own (a few dark rules on a light page): the theme recolours the
        // light page and mirrors only the colours of those rules, so nothing moves.
        switch_off();
        return None;
    }
    Some(measure(doc))
}

/// What the site's own design needs from Dusk, read while the page is styled with it.
#[derive(Clone)]
pub struct Measured {
    /// Text under AA, each with the colour it is raised to.
    raised: Vec<(Element, String)>,
    /// The root's colour scheme rule (core's `own::scheme_css`).
    scheme: &'static str,
}

/// Measures the document as it is styled now (read here, where style is clean, so switching on
/// later forces no extra restyle).
pub fn measure(doc: &web_sys::Document) -> Measured {
    let Some(body) = doc.body() else { return Measured { raised: Vec::new(), scheme: "" } };
    let raised = raise_all(text_pairs(&body.into(), MAX_TEXT));
    let root = doc
        .document_element()
        .and_then(|html| doc.default_view()?.get_computed_style(&html).ok().flatten())
        .and_then(|s| s.get_property_value("color-scheme").ok())
        .unwrap_or_default();
    let meta = doc.query_selector("meta[name=color-scheme i]").ok().flatten().and_then(|m| m.get_attribute("content"));
    Measured { raised, scheme: scheme_css(&root, meta.as_deref()) }
}

/// Each measured pair under AA as painted, with the colour it is raised to.
pub fn raise_all(pairs: Vec<(Element, PageRgba, PageRgba, bool, f64)>) -> Vec<(Element, String)> {
    let dark = |c: &PageRgba| Rgba { r: (c.r * 255.0) as f32, g: (c.g * 255.0) as f32, b: (c.b * 255.0) as f32, a: c.a as f32 }.rounded();
    pairs.into_iter().filter_map(|(el, fg, bg, large, opacity)| Some((el, raised_through(dark(&fg), dark(&bg), large, opacity as f32)?.to_css()))).collect()
}

/// Marks each raised element (and unmarks the rest) and returns the document's CSS: the raise
/// rules, and the root's dark scheme where the page offers one.
pub fn mark(doc: &web_sys::Document, measured: &Measured) -> String {
    format!("{}{}", measured.scheme, mark_raised(doc, &measured.raised, &format!("[{RAISE_ATTR}]")))
}

/// Marks each raised element, unmarks the others `marked` selects, and returns the raise rules.
pub fn mark_raised(doc: &web_sys::Document, raised: &[(Element, String)], marked: &str) -> String {
    let mut colours = BTreeSet::new();
    let now = js_sys::Set::new(&JsValue::UNDEFINED);
    raised.iter().for_each(|(el, _)| {
        now.add(el);
    });
    if let Ok(old) = doc.query_selector_all(marked) {
        for el in (0..old.length()).filter_map(|i| old.item(i).and_then(as_element)) {
            if !now.has(&el) {
                let _ = el.remove_attribute(RAISE_ATTR);
            }
        }
    }
    for (el, colour) in raised {
        if el.get_attribute(RAISE_ATTR).as_deref() != Some(colour) {
            let _ = el.set_attribute(RAISE_ATTR, colour);
        }
        colours.insert(colour.as_str());
    }
    raise_css(colours)
}

/// Takes every raise mark off.
pub fn unmark(roots: &[Root]) {
    for root in roots {
        let Some(list) = root.query_all(&format!("[{RAISE_ATTR}]")) else { continue };
        for i in 0..list.length() {
            if let Some(el) = list.item(i).and_then(as_element) {
                let _ = el.remove_attribute(RAISE_ATTR);
            }
        }
    }
}
