//! A busy page's sheets checked in one call per scope (core's `growth` marks), and only the rules
//! a sheet gained read: a CSS-in-JS sheet that grows by `insertRule` is not serialised again.

use dusk_core::dark::growth::{parse_marks, parse_marks_over, Rules, SheetMark};
use js_sys::Array;
use wasm_bindgen::prelude::*;
use web_sys::CssStyleSheet;

#[wasm_bindgen(inline_js = "import { read } from 'dusk-unshadowed';
// A number per sheet object, for as long as the page lives.
const ids = new WeakMap();
let next = 1;
// Cross-origin sheets: asking for their rules throws, and throwing costs ~20 ms.
const unreadable = new WeakSet();
// Per scope root: its page sheets as listed last, for sheet_rules to read by index, and as the
// marks Rust holds were listed (committed), so an unchanged scope costs no text.
const listed = new WeakMap();
const committed = new WeakMap();
// Per sheet read here: how many rules it had, and its first and last, so a read from a later
// rule knows the ones before are still in place.
const seen = new WeakMap();
// Per sheet: its live rule and media lists, asked for once (a busy page's batch lists every sheet).
const lists = new WeakMap();
const listsOf = (s) => {
  let l = lists.get(s);
  if (l) return l;
  let rules = null;
  if (!unreadable.has(s)) try { rules = s.cssRules; } catch { unreadable.add(s); }
  lists.set(s, (l = { rules, media: s.media }));
  return l;
};
const rulesOf = (s) => listsOf(s).rules;
const clean = (t) => (t || '').replace(/[\\t\\n]/g, ' ');
const mediaOf = (m) => (m.length ? clean(m.mediaText) : '');
// Per scope root: the page's own adopted sheets as last found, and the list's length and ends
// then. Each read of an adopted sheet goes through Blink: when the list still starts and ends as
// it did and only our sheets came after, the page's are the same.
const adoptedSeen = new WeakMap();
function pageAdopted(root, own) {
  const a = read(root, 'adoptedStyleSheets'), n = a.length;
  const last = adoptedSeen.get(root);
  if (last && n >= last.n && (last.n === 0 || (a[0] === last.first && a[last.n - 1] === last.end))) {
    let mine = true;
    for (let i = last.n; i < n && mine; i++) mine = own.includes(a[i]);
    if (mine) {
      if (n > last.n) Object.assign(last, { n, first: a[0], end: a[n - 1] });
      return last.page;
    }
  }
  const ours = new Set(own), page = [];
  for (const s of a) if (!ours.has(s)) page.push(s);
  adoptedSeen.set(root, { n, first: a[0], end: a[n - 1], page });
  return page;
}
function list(root, own) {
  // By index: spreading the list cost three times as much (70 sheets: 11 µs against 4).
  const list = read(root, 'styleSheets'), n = list.length, sheets = [];
  for (let i = 0; i < n; i++) sheets.push(list[i]);
  for (const s of pageAdopted(root, own)) sheets.push(s);
  const out = { sheets, rules: [], disabled: [], media: [] };
  for (const s of sheets) {
    const l = listsOf(s);
    out.rules.push(l.rules ? l.rules.length : -1);
    out.disabled.push(s.disabled);
    out.media.push(mediaOf(l.media));
  }
  return out;
}
const same = (a, b) => a && a.sheets.length === b.sheets.length && a.sheets.every((s, i) => s === b.sheets[i] && a.rules[i] === b.rules[i] && a.disabled[i] === b.disabled[i] && a.media[i] === b.media[i]);
// The scope's marks, one line per page sheet; '' when they are as last committed (unless `all`).
// Otherwise, when the committed list's first sheets are still there, in place, switched and with
// media as they were: '~' and their count, a line for each whose rule count changed, and full
// lines for the sheets after them (core's parse_marks_over).
export function sheet_marks(root, own, all) {
  const now = list(root, own);
  listed.set(root, now);
  const last = all ? null : committed.get(root);
  if (last && same(last, now)) return '';
  let out = '', kept = 0;
  if (last) {
    const most = Math.min(last.sheets.length, now.sheets.length);
    while (kept < most && last.sheets[kept] === now.sheets[kept] && last.disabled[kept] === now.disabled[kept] && last.media[kept] === now.media[kept]) kept++;
    if (kept) out = '~' + kept + '\\n';
    for (let i = 0; i < kept; i++) if (now.rules[i] !== last.rules[i]) out += '=' + i + '\\t' + now.rules[i] + '\\n';
  }
  for (let i = kept; i < now.sheets.length; i++) {
    const s = now.sheets[i];
    let id = ids.get(s);
    if (!id) ids.set(s, (id = next++));
    out += id + '\\t' + now.rules[i] + '\\t' + (now.disabled[i] ? 1 : 0) + '\\t' + now.media[i] + '\\t' + (now.rules[i] < 0 ? clean(s.href) : '') + '\\n';
  }
  return out;
}
// Whether the scope's adopted sheets held any of the page's when last listed.
export function has_page_adopted(root) { return (adoptedSeen.get(root)?.page.length ?? 0) > 0; }
// Rust holds the marks listed last now.
export function sheet_marks_commit(root) { committed.set(root, listed.get(root)); }
// The text of a listed sheet's rules from `from` on, as collect's append_rules writes it: after
// '+' when the rules before are the ones read here last, else all of them after '='; null for
// an @import among them (its sheet is inlined by a full read).
export function sheet_rules(root, index, from) {
  const s = listed.get(root)?.sheets[index];
  const rules = s && rulesOf(s);
  if (!rules) return null;
  const known = seen.get(s);
  let start = from, mark = '+';
  // The first and last rules read are still in place: a CSS-in-JS sheet of thousands of rules is
  // not walked for each rule it gains (an edit between them, with a rule added, waits for a full build).
  if (from > 0 && !(known && known.n === from && rules[0] === known.first && rules[from - 1] === known.last)) { start = 0; mark = '='; }
  let out = mark;
  const n = rules.length;
  for (let i = start; i < n; i++) {
    const r = rules[i];
    if (r.type === 3) { seen.delete(s); return null; }
    out += r.cssText + '\\n';
  }
  seen.set(s, { n, first: rules[0], last: rules[n - 1] });
  return out;
}
export function note_unreadable(sheet) { unreadable.add(sheet); lists.delete(sheet); }")]
extern "C" {
    fn sheet_marks(root: &JsValue, own: &Array, all: bool) -> String;
    fn sheet_marks_commit(root: &JsValue);
    fn sheet_rules(root: &JsValue, index: u32, from: u32) -> Option<String>;
    fn note_unreadable(sheet: &CssStyleSheet);
    /// The scope's adopted sheets held some of the page's when its sheets were last listed.
    pub fn has_page_adopted(root: &JsValue) -> bool;
}

/// Every page sheet of the scope (not `own`, ours), in cascade order; None when they are as
/// `commit` last left them (`last`; no text crosses then).
pub fn changed_marks(root: &JsValue, own: &Array, last: &[SheetMark]) -> Option<Vec<SheetMark>> {
    let text = sheet_marks(root, own, false);
    if text.is_empty() {
        return None;
    }
    // Sent as a change to the committed marks, which `last` is.
    Some(parse_marks_over(last, &text).unwrap_or_else(|| parse_marks(&sheet_marks(root, own, true))))
}

/// Every page sheet of the scope, taken as the ones the scope's marks now hold.
pub fn marks(root: &JsValue, own: &Array) -> Vec<SheetMark> {
    let text = sheet_marks(root, own, true);
    sheet_marks_commit(root);
    parse_marks(&text)
}

/// The marks `changed_marks` read last are the ones the scope's marks now hold.
pub fn commit(root: &JsValue) {
    sheet_marks_commit(root);
}

/// The rules of the scope's sheet `index` (as `marks` listed it last) from `from` on.
pub fn rules(root: &JsValue, index: usize, from: usize) -> Option<Rules> {
    let mut text = sheet_rules(root, index as u32, from as u32)?;
    // The mark taken off in place: a sheet read whole is the page's CSS, and a copy of it would
    // raise the layer's memory, which never shrinks, for good.
    let whole = !text.starts_with('+');
    if text.is_empty() {
        return None;
    }
    text.remove(0);
    Some(if whole { Rules::Whole(text) } else { Rules::Tail(text) })
}

/// A sheet the page layer found cross-origin: marks never ask for its rules.
pub fn unreadable(sheet: &CssStyleSheet) {
    note_unreadable(sheet);
}
