//! Reads the sources of an element's name for core's one naming rule
//! (`dusk_core::page::naming::naming`), each only when the rule asks; the text of the row an
//! element sits in, when its name doesn't tell it apart; and a scroll box's name.

use crate::dom::{as_document, as_element, as_shadow_root, get_attr, has_attr, tag};
use crate::text::{shown_text, shown_text_skipping, text_of};
use dusk_core::page::elements::{clean_text, describe};
use dusk_core::page::naming::{box_name, naming, ElementName, NamePart};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::Element;

// In JS: each is a selector query or two, dearer one property at a time across the boundary.
#[wasm_bindgen(inline_js = "import { read, call } from 'dusk-unshadowed';
const textOf = (el) => (el ? read(el, 'textContent') : undefined);

export function labelled_by(el) {
  const ids = (call(el, 'getAttribute', 'aria-labelledby') || '').split(/\\s+/).filter(Boolean), root = call(el, 'getRootNode');
  const text = ids.map((id) => textOf(read(root, 'getElementById') ? call(root, 'getElementById', id) : call(root, 'querySelector', '#' + CSS.escape(id))) || '');
  return text.join(' ').trim() || undefined;
}
export function inner_image(el) {
  const i = call(el, 'querySelector', 'img[alt]:not([alt=\"\"]), img[title]:not([title=\"\"]), svg[aria-label], [role=img][aria-label]');
  return i ? (call(i, 'getAttribute', 'alt') || call(i, 'getAttribute', 'title') || call(i, 'getAttribute', 'aria-label')) : undefined;
}
// The file of the one image an element shows (an image input's own).
export function image_file(el) {
  if (read(el, 'localName') === 'input') return call(el, 'getAttribute', 'src') || undefined;
  const imgs = call(el, 'querySelectorAll', 'img');
  return imgs.length === 1 ? call(imgs[0], 'getAttribute', 'src') || undefined : undefined;
}
export function svg_title(el) {
  const t = read(el, 'localName') === 'svg' ? call(el, 'querySelector', ':scope > title') : call(el, 'querySelector', 'svg title');
  return textOf(t) || undefined;
}
export function symbol(el) {
  const u = call(el, 'querySelector', 'use');
  return u ? (call(u, 'getAttribute', 'href') || call(u, 'getAttribute', 'xlink:href') || undefined) : undefined;
}
// An icon font's element: a class that names an icon font or an icon.
const ICON = /material|icon|symbol|glyph/i;
export function ligature(el) {
  if (ICON.test(call(el, 'getAttribute', 'class') || '')) return read(el, 'textContent');
  return textOf(call(el, 'querySelector', '[class*=material i],[class*=icon i],[class*=symbol i],[class*=glyph i]')) || undefined;
}
const OWN = ['class', 'id', 'data-testid', 'data-icon', 'data-action', 'name'];
export function words(el) {
  const out = OWN.map((a) => call(el, 'getAttribute', a) || '');
  let n = 0;
  for (const d of call(el, 'querySelectorAll', '[class],[data-icon],[data-testid]')) {
    out.push(call(d, 'getAttribute', 'class') || '', call(d, 'getAttribute', 'data-icon') || '', call(d, 'getAttribute', 'data-testid') || '');
    if (++n >= 12) break;
  }
  return out.join(' ').slice(0, 600);
}
// Rows and cells: what a reader takes as one item of a list, a table or a feed.
const ROW = 'tr,li,article,td,th,dd,[role=row],[role=listitem],[role=article],[role=gridcell],[role=cell],[role=option],[role=treeitem]';
const up = (a) => read(a, 'parentElement') || read(call(a, 'getRootNode'), 'host') || null;
// Characters of text in `a`, counted up to `cap`: a page-wide ancestor's textContent would copy the whole page.
function textLength(a, cap) {
  const walk = call(read(a, 'ownerDocument'), 'createTreeWalker', a, NodeFilter.SHOW_TEXT);
  let n = 0;
  for (let t = walk.nextNode(); t && n < cap; t = walk.nextNode()) n += t.data.trim().length;
  return n;
}
const DIALOG = 'dialog,[role=dialog],[role=alertdialog],[aria-modal=true]';
const CELL = 'td,th,[role=gridcell],[role=cell]';
const CARD = 'form,fieldset,section,[role=group],[role=region],[role=form]';
const HEAD = 'h1,h2,h3,h4,h5,h6,[role=heading],legend,caption';
// The container that tells `el` apart, and the element whose text names it, if one does: a
// dialog and its title (else its message), a table row (its text names it), a list item,
// card or form and its heading; else the nearest ancestor with more text than `el`.
export function context_of(el) {
  const own = textLength(el, 200);
  let loose = null;
  for (let a = up(el), k = 0; a && k < 12 && read(a, 'localName') !== 'body' && read(a, 'localName') !== 'html'; a = up(a), k++) {
    if (call(a, 'matches', DIALOG)) {
      const by = (call(a, 'getAttribute', 'aria-labelledby') || '').split(/\\s+/)[0], root = call(a, 'getRootNode');
      const title = (by && (read(root, 'getElementById') ? call(root, 'getElementById', by) : null)) || call(a, 'querySelector', HEAD);
      return ['dialog', a, title && textLength(title, 2) >= 2 ? title : null];
    }
    // A table cell is part of its row: the row's text tells the control apart.
    if (call(a, 'matches', CELL) && up(a) && call(up(a), 'matches', 'tr,[role=row]')) continue;
    if (call(a, 'hasAttribute', 'aria-label') && (call(a, 'matches', ROW) || !loose)) return ['', a, null];
    if (call(a, 'matches', 'tr,[role=row]')) return ['row', a, null];
    const more = textLength(a, own + 3) >= own + 3;
    if (more && (call(a, 'matches', ROW) || call(a, 'matches', CARD))) {
      const h = call(a, 'querySelector', HEAD);
      return ['', a, h && !call(h, 'contains', el) && textLength(h, 2) >= 2 ? h : null];
    }
    if (more && !loose && k < 6) loose = a;
  }
  return loose ? ['', loose, null] : undefined;
}
// The icon inside a named element: [image label, symbol href, ligature text, class words] of its
// first icon-like descendant, or undefined when it holds none.
const ICONISH = 'svg,img,i,[class*=icon i],[data-icon],[class*=material i],[class*=glyph i],[class*=symbol i],[class*=fa- i]';
export function inner_icon(el) {
  if (!read(el, 'firstElementChild')) return undefined;
  const i = call(el, 'querySelector', ICONISH);
  if (!i || textLength(i, 41) > 40) return undefined;
  const label = call(i, 'getAttribute', 'alt') || call(i, 'getAttribute', 'aria-label') || textOf(call(i, 'querySelector', 'title')) || '';
  const u = read(i, 'localName') === 'use' ? i : call(i, 'querySelector', 'use');
  const out = [call(i, 'getAttribute', 'class') || '', call(i, 'getAttribute', 'data-icon') || ''];
  for (const d of call(i, 'querySelectorAll', '[class],[data-icon]')) { out.push(call(d, 'getAttribute', 'class') || '', call(d, 'getAttribute', 'data-icon') || ''); if (out.length > 12) break; }
  return [label, u ? call(u, 'getAttribute', 'href') || call(u, 'getAttribute', 'xlink:href') || '' : '', read(i, 'localName') === 'svg' || read(i, 'localName') === 'img' ? '' : read(i, 'textContent'), out.join(' ').slice(0, 400)];
}
export function heading_of(box) {
  const H = 'h1,h2,h3,h4,h5,h6,legend,caption,[role=heading]';
  for (let p = read(box, 'previousElementSibling'), k = 0; p && k < 2; p = read(p, 'previousElementSibling'), k++) {
    if (call(p, 'matches', H)) return read(p, 'textContent');
    if (read(p, 'textContent').trim()) break;
  }
  const inner = call(box, 'querySelector', H);
  return inner ? read(inner, 'textContent') : undefined;
}")]
extern "C" {
    fn labelled_by(el: &Element) -> Option<String>;
    fn inner_image(el: &Element) -> Option<String>;
    fn image_file(el: &Element) -> Option<String>;
    fn svg_title(el: &Element) -> Option<String>;
    fn symbol(el: &Element) -> Option<String>;
    fn ligature(el: &Element) -> Option<String>;
    fn words(el: &Element) -> String;
    fn context_of(el: &Element) -> Option<js_sys::Array>;
    fn inner_icon(el: &Element) -> Option<js_sys::Array>;
    fn heading_of(el: &Element) -> Option<String>;
}

thread_local! {
    /// `label[for]` texts by id, built once per listing: `input.labels` is a live list that
    /// walks the whole document on every read.
    static LABELS_FOR: std::cell::RefCell<Option<std::collections::BTreeMap<String, String>>> = const { std::cell::RefCell::new(None) };
}

/// Caches the texts of all `label[for]` elements in `roots` until `forget_labels`.
pub fn cache_labels(lists: impl Iterator<Item = web_sys::NodeList>) {
    let mut map = std::collections::BTreeMap::new();
    for list in lists {
        for i in 0..list.length() {
            let Some(label) = list.item(i).and_then(as_element) else { continue };
            let Some(id) = label.get_attribute("for") else { continue };
            map.entry(id).or_insert_with(|| text_of(&label, 80));
        }
    }
    LABELS_FOR.with(|l| *l.borrow_mut() = Some(map));
}

pub fn forget_labels() {
    LABELS_FOR.with(|l| *l.borrow_mut() = None);
}

fn label_for_id(el: &Element, id: &str) -> Option<String> {
    if let Some(text) = LABELS_FOR.with(|l| l.borrow().as_ref().map(|m| m.get(id).cloned())) {
        return text;
    }
    let root = el.get_root_node();
    let selector = format!("label[for=\"{}\"]", id.replace('\\', "\\\\").replace('"', "\\\""));
    let found = if let Some(d) = as_document(&root) {
        d.query_selector(&selector).ok().flatten()
    } else {
        as_shadow_root(&root).and_then(|s| s.query_selector(&selector).ok().flatten())
    };
    found.map(|l| text_of(&l, 80))
}

/// The text of the control's `label[for]`, else of the label around it.
fn label_text(el: &Element) -> Option<String> {
    let id = el.id();
    let by_for = if id.is_empty() { None } else { label_for_id(el, &id) };
    by_for.filter(|t| !t.is_empty()).or_else(|| el.closest("label").ok().flatten().map(|l| text_of(&l, 80)).filter(|t| !t.is_empty()))
}

fn part(el: &Element, p: NamePart, max: usize) -> Option<String> {
    match p {
        NamePart::Type => get_attr(el, "type"),
        NamePart::Value => get_attr(el, "value"),
        NamePart::Label => label_text(el),
        NamePart::LabelledBy => has_attr(el, "aria-labelledby").then(|| labelled_by(el)).flatten(),
        NamePart::AriaLabel => get_attr(el, "aria-label"),
        NamePart::Placeholder => get_attr(el, "placeholder"),
        NamePart::Title => get_attr(el, "title"),
        NamePart::PrevLabel => el.previous_element_sibling().filter(|p| tag(p) == "label" && !has_attr(p, "for")).map(|p| text_of(&p, 80)),
        NamePart::Name => get_attr(el, "name"),
        NamePart::Alt => get_attr(el, "alt"),
        NamePart::Src => get_attr(el, "src"),
        NamePart::Shown => Some(shown_text(el, (max * 4).max(64) as u32)),
        NamePart::Inner => inner_image(el),
        NamePart::SvgTitle => svg_title(el),
        NamePart::Symbol => symbol(el),
        NamePart::ImageFile => image_file(el),
        NamePart::Ligature => ligature(el),
        NamePart::Words => Some(words(el)),
        NamePart::Heading => heading_of(el),
    }
}

/// The element's name and whether it is guessed from an icon (core's rule).
pub fn element_name(el: &Element, tag: &str, max: usize) -> ElementName {
    naming(tag, |p| part(el, p, max), max)
}

/// The text an agent sees for an element: its name, guessed or not.
pub fn element_text(el: &Element, tag: &str, max: usize) -> String {
    element_name(el, tag, max).text
}

/// `tag#id "text"` for messages.
pub fn describe_el(el: &Element) -> String {
    let t = tag(el);
    describe(&t, &el.id(), &element_text(el, &t, 40))
}

/// Text inside these is another control's, never a context.
const CONTROLS: &str = "a[href],button,input,select,textarea,[role=button],[role=link],[role=menuitem],[role=tab],[role=checkbox],[role=radio],[role=switch],[role=option],[role=slider],[onclick]";

/// What tells `el` apart when its name doesn't: its container's kind ("dialog", or "" for a row,
/// card or the text around it) and the container's own text (its label, title or heading, a row's
/// first cell, else its text without other controls' and without `own` at its start), cut at `max`
/// characters; None when that says nothing (no two letters or digits).
pub fn row_text(el: &Element, own: &str, max: usize) -> Option<(&'static str, String)> {
    let found = context_of(el)?;
    let kind = found.get(0).as_string().unwrap_or_default();
    let container = as_element_value(&found.get(1))?;
    let named = as_element_value(&found.get(2));
    let cap = ((max + own.chars().count()) * 4).max(64) as u32;
    let raw = match (get_attr(&container, "aria-label").filter(|l| !l.trim().is_empty()), named) {
        (Some(label), _) => label,
        (None, Some(n)) => text_of(&n, max + 2),
        // A table row: its text, links and all (a row's name is often its link), less the buttons and fields every row repeats.
        (None, None) if kind == "row" => clean_text(&shown_text_skipping(&container, cap, ROW_ACTIONS, el), max + own.chars().count() + 2),
        (None, None) => clean_text(&shown_text_skipping(&container, cap, CONTROLS, el), max + own.chars().count() + 2),
    };
    let raw = raw.trim_start();
    let rest = match (own.is_empty(), kind == "row") {
        (true, _) => raw.to_string(),
        // In a row the control may sit anywhere: its own name is taken out wherever it is.
        (false, true) => raw.replacen(own, "", 1),
        (false, false) => raw.strip_prefix(own).unwrap_or(raw).to_string(),
    };
    let text = clean_text(&rest, max);
    let kind = if kind == "dialog" { "dialog" } else { "" };
    (text.chars().filter(|c| c.is_alphanumeric()).count() >= 2).then_some((kind, text))
}

/// A row's buttons and fields: each row has the same ones, so their words tell no row apart.
const ROW_ACTIONS: &str = "button,input,select,textarea,[role=button],[role=checkbox],[role=switch]";

fn as_element_value(v: &JsValue) -> Option<Element> {
    v.is_object().then(|| as_element(v.clone().unchecked_into())).flatten()
}

/// The icon inside a named element, guessed as an unnamed icon's name is (core's `icon_inside`).
pub fn icon_inside(el: &Element, name: &str) -> Option<String> {
    let parts = inner_icon(el)?;
    let part = |i: u32| parts.get(i).as_string().filter(|s| !s.trim().is_empty());
    dusk_core::page::icons::icon_inside(part(0).as_deref(), part(1).as_deref(), part(2).as_deref(), part(3).as_deref(), name)
}

/// A scroll box's name: its label, title or heading, else its id or class as words.
pub fn scroll_box_name(el: &Element) -> String {
    box_name(
        |p| match p {
            NamePart::Words => Some(format!("{} {}", el.id(), get_attr(el, "class").unwrap_or_default())),
            p => part(el, p, 30),
        },
        30,
    )
}
