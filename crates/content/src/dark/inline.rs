//! Inline styles' colours go on a marker attribute (core's `theme::Markers`): each element with a
//! coloured `style` carries `data-dusk-i` naming its value's mapped colours, so Chrome matches the
//! markers' rules only against the elements that carry one (one attribute whose value changes:
//! swapping an attribute per colour cost a dashboard more style time). The value → marker maps
//! live on the JS side, per scope root, so a batch marks what it reads in the same call.

use super::collect::Root;
use js_sys::Array;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = "import { call, getter, method, read } from 'dusk-unshadowed';
// Per scope root: its value → marker map, and the markers it has rules for.
const maps = new WeakMap();
// Read for every recoloured element of a busy page: the prototypes' own, bound once.
const attr = method(Element, 'getAttribute'), setAttr = method(Element, 'setAttribute'), unsetAttr = method(Element, 'removeAttribute'), hasAttr = method(Element, 'hasAttribute');
const rootOf = method(Node, 'getRootNode'), nameOf = getter(Element, 'localName'), spaceOf = getter(Element, 'namespaceURI'), matches = method(Element, 'matches'), within = method(Element, 'querySelectorAll');
// Declarations that never take a colour (core's `theme::COLOURLESS`): a style that differs from a
// known one only by them has that one's marker (a progress bar's width per card).
let colourless = null;
export function markers_colourless(names) { colourless = new Set(names.split(',')); }
// The style less its colourless declarations; the style itself where it has none, or where a
// `;` may sit inside a value (urls, strings, comments) or a custom property is read.
function colourPart(v) {
  if (!colourless || /url\\(|var\\(|\\/\\*|[\"'\\\\]/i.test(v)) return v;
  let out = '', dropped = false;
  for (const d of v.split(';')) {
    const t = d.trim();
    if (!t) continue;
    const i = t.indexOf(':');
    if (i > 0 && colourless.has(t.slice(0, i).trim().toLowerCase())) { dropped = true; continue; }
    out += out ? '; ' + t : t;
  }
  return dropped ? out : v;
}
function markerOf(map, v) {
  const m = map.map.get(v);
  if (m !== undefined || !colourless) return m;
  const k = colourPart(v);
  return k === v ? undefined : k ? map.map.get(k) : '';
}
// The element's marker for its current style; false if its value is not in the map yet.
function mark(e, map) {
  const v = attr(e, 'style');
  const want = v === null || !v.trim() ? '' : map ? markerOf(map, v) : undefined;
  const old = attr(e, 'data-dusk-i');
  if (want) { if (old !== want) setAttr(e, 'data-dusk-i', want); } else if (old !== null) unsetAttr(e, 'data-dusk-i');
  return want !== undefined;
}
// Recoloured in place: an element whose style the page rewrites once themed (a dashboard's
// cells) gets its value's dark declarations, read from its marker's rule, written into its own
// style instead of a marker. Chrome then applies the page's inline change alone; any rule
// overriding an inline colour, or a marker attribute that changes, restyles the element whole.
const HTML = 'http://www.w3.org/1999/xhtml', SVG = 'http://www.w3.org/2000/svg';
const htmlStyle = getter(HTMLElement, 'style'), svgStyle = getter(SVGElement, 'style');
const setProp = method(CSSStyleDeclaration, 'setProperty'), getProp = method(CSSStyleDeclaration, 'getPropertyValue'), prioOf = method(CSSStyleDeclaration, 'getPropertyPriority'), unsetProp = method(CSSStyleDeclaration, 'removeProperty');
const setCss = Object.getOwnPropertyDescriptor(CSSStyleDeclaration.prototype, 'cssText').set;
const inlineOf = (e) => { const ns = spaceOf(e); return ns === HTML ? htmlStyle(e) : ns === SVG ? svgStyle(e) : null; };
// Per marker: its rule's declarations [name, value, …]; per sheet of a scope: the rules read.
const declsOf = new Map(), scanned = new WeakMap();
const MARKER = '[data-dusk-i=\"';
function declsFor(root, marker) {
  const d = declsOf.get(marker);
  if (d || declsOf.size > 4096) return d || null;
  for (const s of read(root, 'adoptedStyleSheets')) {
    const rules = s.cssRules;
    for (let i = scanned.get(s) || 0; i < rules.length; i++) {
      const sel = rules[i].selectorText;
      if (!sel || !sel.startsWith(MARKER)) continue;
      const st = rules[i].style, out = [];
      for (let j = 0; j < st.length; j++) out.push(st[j], getProp(st, st[j]));
      declsOf.set(sel.slice(MARKER.length, -2), out);
    }
    scanned.set(s, rules.length);
  }
  return declsOf.get(marker) || null;
}
// Per element painted: the page's value its dark declarations were written over.
const painted = new WeakMap(), paintedWith = new WeakMap();
let toPaint = [], anyPainted = false;
function paint(e, map, root) {
  const v = attr(e, 'style');
  const want = v === null || !v.trim() ? '' : map ? markerOf(map, v) : undefined;
  const st = want ? inlineOf(e) : null;
  const d = st && declsFor(root, want);
  if (!d) return mark(e, map);
  toPaint.push(e, st, d, v, want);
  return true;
}
function write(e, st, d, v, want) {
  // A page's `!important` inline colour keeps its importance.
  const strong = v.includes('!');
  for (let j = 0; j < d.length; j += 2) setProp(st, d[j], d[j + 1], strong ? prioOf(st, d[j]) : '');
  if (hasAttr(e, 'data-dusk-i')) unsetAttr(e, 'data-dusk-i');
  painted.set(e, v);
  paintedWith.set(e, want);
  anyPainted = true;
}
// `now` false: whether any wait (each import takes an argument: short_imports.mjs).
export function paint_pending(now) {
  if (!now) return toPaint.length > 0;
  const all = toPaint;
  toPaint = [];
  for (let i = 0; i < all.length; i += 5) write(all[i], all[i + 1], all[i + 2], all[i + 3], all[i + 4]);
  return all.length > 0;
}
// From the observer's callback: an element whose `style` the page rewrote to a value the theme
// knows is queued for its dark colours (or marked) with no batch; false if a batch must see it.
// `repaint(null)` writes what is queued (the caller stops observing first).
function repaint(e) {
  if (e === null) return paint_pending(true);
  const root = rootOf(e), map = maps.get(root);
  return map ? paint(e, map, root) : false;
}
export function repainter() { return repaint; }
// The page's own colours back where a paint still holds (switching off, or a full build).
let scratch = null;
function unpaint(e) {
  const v = painted.get(e), d = declsOf.get(paintedWith.get(e));
  painted.delete(e);
  const st = inlineOf(e);
  if (!d || !st) return;
  if (!scratch) scratch = htmlStyle(document.createElement('div'));
  setCss.call(scratch, v);
  for (let j = 0; j < d.length; j += 2) {
    const name = d[j];
    if (getProp(st, name) !== d[j + 1]) continue;
    const was = getProp(scratch, name);
    if (was) setProp(st, name, was, prioOf(scratch, name)); else unsetProp(st, name);
  }
}
// Each painted element of the scope gets its page value back, and that value's marker.
export function paint_undo(root) {
  if (!anyPainted) return;
  const map = maps.get(root);
  for (const e of call(root, 'querySelectorAll', '[style]')) if (painted.has(e)) { unpaint(e); mark(e, map); }
}
// Values remembered between full builds at most: a feed writing a new value per card would grow
// the map for the page's life. A forgotten value is mapped again if it comes back.
const MAX_VALUES = 4096;
export function markers_put(root, pairs, replace) {
  let map = replace ? undefined : maps.get(root);
  if (!map) maps.set(root, (map = { map: new Map(), names: new Set() }));
  else if (map.map.size > MAX_VALUES) map.map.clear();
  for (let i = 0; i + 1 < pairs.length; i += 2) {
    const v = pairs[i], m = pairs[i + 1];
    map.map.set(v, m);
    if (!m) continue;
    map.names.add(m);
    // Its colour part names the same marker: the next value that differs only in geometry finds it.
    const k = colourPart(v);
    if (k !== v && k) map.map.set(k, m);
  }
  if (replace) for (const e of call(root, 'querySelectorAll', '[style]')) mark(e, map);
}
export function markers_clear(root) {
  if (!maps.delete(root)) return;
  for (const e of call(root, 'querySelectorAll', '[data-dusk-i]')) unsetAttr(e, 'data-dusk-i');
}
export function has_marker(root, name) {
  return !!maps.get(root)?.names.has(name);
}
export function markers_apply(els) {
  for (const e of els) mark(e, maps.get(rootOf(e)));
}
export function markers_apply_trees(added, touched, styled) {
  for (const el of added) {
    const map = maps.get(rootOf(el));
    if (!map) continue;
    if (hasAttr(el, 'style')) mark(el, map);
    for (const e of within(el, '[style]')) mark(e, map);
  }
  markers_apply(touched);
  markers_apply(styled);
}
export function markers_apply_all(root) {
  const map = maps.get(root);
  if (map) for (const e of call(root, 'querySelectorAll', '[style]')) mark(e, map);
}
const SVG_COLOURS = ['fill', 'stroke'], FONT_COLOURS = ['bgcolor', 'color'], BODY_COLOURS = ['bgcolor', 'text'], BGCOLOR = ['bgcolor'];
export function markup_of(added, touched, styled, selector) {
  const out = new Map();
  // The element's scope entry, with its style marked (or its new value noted).
  const styleOf = (e, inPlace) => {
    const root = rootOf(e);
    let r = out.get(root);
    if (!r) out.set(root, (r = { styles: new Set(), attrs: new Set(), sources: false, later: [] }));
    // A value the theme has a marker for (or knows sets no colour) is marked now; a new one after its rule is built.
    if (!(inPlace ? paint(e, maps.get(root), root) : mark(e, maps.get(root)))) { r.styles.add(attr(e, 'style')); r.later.push(e); }
    return r;
  };
  const note = (e) => {
    const r = styleOf(e);
    const name = nameOf(e);
    if (name === 'source') { if (/prefers-color-scheme/i.test(attr(e, 'media') || '')) r.sources = true; return; }
    const names = spaceOf(e) === 'http://www.w3.org/2000/svg' ? SVG_COLOURS : name === 'font' ? FONT_COLOURS : name === 'body' ? BODY_COLOURS : BGCOLOR;
    for (const n of names) { const v = attr(e, n); if (v !== null) r.attrs.add(n + '\\n' + v); }
  };
  for (const el of added) { if (matches(el, selector)) note(el); for (const e of within(el, selector)) note(e); }
  for (const el of touched) note(el);
  for (const el of styled) styleOf(el, true);
  return [...out].map(([root, r]) => [root, [...r.styles], [...r.attrs], r.sources, r.later]);
}")]
extern "C" {
    fn markers_colourless(names: &str);
    fn markers_put(root: &JsValue, pairs: &Array, replace: bool);
    fn markers_clear(root: &JsValue);
    fn markers_apply(els: &Array);
    fn markers_apply_trees(added: &Array, touched: &Array, styled: &Array);
    fn markers_apply_all(root: &JsValue);
    fn has_marker(root: &JsValue, name: &str) -> bool;
    /// Per scope root the added and touched elements are in: [root, new style values, legacy
    /// colour attributes ("name\nvalue"), a dark-scheme `<source>` came, elements to mark once
    /// their values' rules are built].
    fn paint_pending(now: bool) -> bool;
    fn paint_undo(root: &JsValue);
    pub(super) fn markup_of(added: &Array, touched: &Array, styled: &Array, selector: &str) -> Array;
    /// `repaint(element)`: true if the element's new `style` was painted or marked then and there.
    pub(super) fn repainter() -> js_sys::Function;
}

fn flat(pairs: &[(String, String)]) -> Array {
    pairs.iter().flat_map(|(v, m)| [JsValue::from_str(v), JsValue::from_str(m)]).collect()
}

thread_local! {
    static COLOURLESS_SENT: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// A full build's markers for one scope: every element of it is marked anew.
pub fn put(root: &Root, markers: &[(String, String)]) {
    if !COLOURLESS_SENT.replace(true) {
        markers_colourless(&dusk_core::dark::theme::colourless_names());
    }
    markers_put(root.js(), &flat(markers), true);
}

/// Markers for values built since, added to the scope's map; `later` are then marked.
pub fn add(root: &JsValue, markers: &[(String, String)], later: &Array) {
    markers_put(root, &flat(markers), false);
    markers_apply(later);
}

/// Added subtrees and restyled elements get their values' markers (the theme was not rebuilt).
pub fn apply(added: &Array, touched: &Array, styled: &Array) {
    markers_apply_trees(added, touched, styled);
}

/// Every element of the scope gets its value's marker (its theme was not rebuilt).
pub fn refresh(root: &Root) {
    markers_apply_all(root.js());
}

/// The scope has a rule for this marker (the full build's or one added since).
pub fn has_rule(root: &JsValue, marker: &str) -> bool {
    has_marker(root, marker)
}

/// Takes every marker out of the scope, and the dark colours written in place.
pub fn clear(root: &Root) {
    unpaint(root);
    markers_clear(root.js());
}

/// Restyled elements whose values the theme knows get their dark colours in place.
pub fn paint() {
    if paint_pending(false) {
        super::watch::unobserved(|| {
            paint_pending(true);
        });
    }
}

/// The page's own values back on the scope's elements painted in place, with their markers, so
/// the page is read as it wrote it.
pub fn unpaint(root: &Root) {
    super::watch::unobserved(|| paint_undo(root.js()));
}
