//! The text a reader sees in an element: no script or style text, nothing hidden inside a shown
//! element, and no text a person can't see (font-size 0, transparent, the colour of what is
//! behind it, clipped to nothing), which a listing counts.

use dusk_core::page::elements::clean_text;
use wasm_bindgen::prelude::*;
use web_sys::{Document, Element};

#[wasm_bindgen(inline_js = "import { read, call } from 'dusk-unshadowed';
const NO_TEXT = new Set(['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT']);
// Rendered text a person still can't see: no size, transparent, the colour of what is behind it
// (0), or clipped to nothing (1, which names a control that shows nothing else, as aria-label would).
function unseenJudge() {
  const styles = new Map(), behind = new Map(), judged = new Map();
  const style = (e) => { let s = styles.get(e); if (!s) styles.set(e, (s = read(read(e, 'ownerDocument'), 'defaultView').getComputedStyle(e))); return s; };
  const up = (e) => read(e, 'parentElement') || read(call(e, 'getRootNode'), 'host') || null;
  const rgb = (c) => { const m = /^rgba?\\(([\\d.]+),? ([\\d.]+),? ([\\d.]+)(?:,? \\/?\\s*([\\d.]+))?/.exec(c); return m ? [+m[1], +m[2], +m[3], m[4] === undefined ? 1 : +m[4]] : null; };
  const back = (e) => {
    if (!e) return null;
    let b = behind.get(e);
    if (b !== undefined) return b;
    const s = style(e), c = rgb(s.backgroundColor), top = e === read(read(e, 'ownerDocument'), 'documentElement');
    b = s.backgroundImage !== 'none' ? null : c && c[3] > 0.9 ? c : top ? (/dark/.test(s.colorScheme) ? null : [255, 255, 255, 1]) : back(up(e));
    behind.set(e, b);
    return b;
  };
  // What is painted right under p's text where it shows on screen: true for an image or a
  // picture, else a colour; null off screen or unknown (then its ancestors' background decides).
  const under = (p) => {
    const r = call(p, 'getBoundingClientRect'), v = read(read(p, 'ownerDocument'), 'defaultView'), x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (!(r.width > 0 && x >= 0 && y >= 0 && x < v.innerWidth && y < v.innerHeight)) return null;
    const stack = call(read(p, 'ownerDocument'), 'elementsFromPoint', x, y), at = stack.findIndex((e) => e === p || call(p, 'contains', e));
    if (at < 0) return null;
    for (const e of stack.slice(at + 1)) {
      if (call(p, 'contains', e)) continue;
      if (/^(img|video|canvas|picture|svg|iframe|embed|object)$/.test(read(e, 'localName'))) return true;
      const s = style(e), c = rgb(s.backgroundColor);
      if (s.backgroundImage !== 'none') return true;
      if (c && c[3] > 0.9) return c;
    }
    return null;
  };
  // Clipped to nothing: a box of a pixel or less that clips or hides its overflow, on p or just
  // above it (how \"visually hidden\" text is written).
  const tiny = (e) => {
    if (!e || read(e, 'localName') === 'body' || read(e, 'localName') === 'html' || !(read(e, 'offsetWidth') <= 1 || read(e, 'offsetHeight') <= 1)) return false;
    const s = style(e);
    return s.overflow !== 'visible' || s.clip !== 'auto' || s.clipPath !== 'none';
  };
  return (p) => {
    let j = judged.get(p);
    if (j !== undefined) return j;
    const s = style(p), c = rgb(s.color), b = back(p);
    const near = (b) => Math.abs(c[0] - b[0]) + Math.abs(c[1] - b[1]) + Math.abs(c[2] - b[2]) < 30;
    // Text the colour of its background is unseen unless something else shows under it.
    const blends = () => { if (!b || !near(b)) return false; const u = under(p); return u === null || (u !== true && near(u)); };
    j = parseFloat(s.fontSize) < 1 ? 0 : !c || s.webkitBackgroundClip === 'text' || s.backgroundClip === 'text' ? -1
      : c[3] < 0.1 || !call(p, 'checkVisibility', { checkOpacity: true }) || blends() ? 0
      : tiny(p) || tiny(up(p)) ? 1 : -1;
    judged.set(p, j);
    return j;
  };
}
// One listing's judgements and the unseen text nodes it met, so shared ancestors are read once.
let reading = null;
// Each takes the document read: a function with no JS value in its signature would be imported by
// the wasm straight from this snippet, which the layer's engine does not hand it (engine/wasm.js).
export function begin_reading(doc) { reading = { doc, unseen: unseenJudge(), left: new Set() }; }
export function end_reading(doc) { const n = reading?.doc === doc ? reading.left.size : 0; reading = null; return n; }
export function shown_text(el, max, skip, keep) {
  const shown = new Map(), walk = call(read(el, 'ownerDocument'), 'createTreeWalker', el, NodeFilter.SHOW_TEXT);
  const unseen = reading ? reading.unseen : unseenJudge(), left = reading?.left, clipNodes = [];
  // A hidden element still names itself; only inside a shown one is hidden text left out.
  const all = !call(el, 'checkVisibility', { checkVisibilityCSS: true });
  // Only letters count towards max: an indented page's whitespace alone would fill it.
  let out = '', last = null, got = 0, clip = '';
  for (let n = walk.nextNode(); n && got < max; n = walk.nextNode()) {
    const p = read(n, 'parentElement');
    if (!p || NO_TEXT.has(read(p, 'tagName')) || call(p, 'closest', 'script,style,template,noscript')) continue;
    let ok = shown.get(p);
    if (ok === undefined) { ok = call(p, 'checkVisibility', { checkVisibilityCSS: true }); shown.set(p, ok); }
    if (!ok && !all) continue;
    if (glyph(p, n.data)) continue;
    // Another control's text (`skip`), when reading the container around one (`keep`).
    if (skip) { const c = call(p, 'closest', skip); if (c && c !== el && call(el, 'contains', c) && !call(c, 'contains', keep)) continue; }
    if (ok && n.data.trim()) {
      const u = unseen(p);
      if (u === 0 || u === 1) {
        if (u === 1) clip += (clip ? ' ' : '') + n.data, clipNodes.push(n);
        left?.add(n);
        continue;
      }
    }
    // Blocks, cells and flex items are read apart, as innerText would: Nanny, Re: lunch; not NannyRe: lunch.
    if (last && last !== p && out && !/\\s$/.test(out) && apart(last, p, el)) out += ' ';
    out += n.data;
    got += n.data.trim().length;
    last = p;
  }
  if (clip && !/[\\p{L}\\p{N}]/u.test(out)) {
    clipNodes.forEach((n) => left?.delete(n));
    return clip;
  }
  return out;
}
// An icon font's ligature (class material-icons, fa, glyphicon… and one lower-case word) draws an
// icon, not text: a row holding a trash icon is not named delete (names.rs names the icon).
const ICON_FONT = /(^|\\s)(material-(icons|symbols)[\\w-]*|[\\w-]*-icons?|icons?|glyphicon[\\w-]*|fa|mi)(\\s|$)/;
function glyph(p, text) {
  return /^\\s*[a-z][a-z0-9_]*\\s*$/.test(text) && ICON_FONT.test(call(p, 'getAttribute', 'class') || '');
}
const display = new WeakMap();
function inline(e) {
  let d = display.get(e);
  if (d === undefined) { d = read(read(e, 'ownerDocument'), 'defaultView').getComputedStyle(e).display; display.set(e, d); }
  return d === 'inline' || d === 'contents';
}
// Whether a box that is not inline lies between two text nodes' parents, below their common ancestor.
function apart(a, b, top) {
  for (let e = b; e && e !== top && !call(e, 'contains', a); e = read(e, 'parentElement')) if (!inline(e)) return true;
  for (let e = a; e && e !== top && !call(e, 'contains', b); e = read(e, 'parentElement')) if (!inline(e)) return true;
  return false;
}")]
extern "C" {
    /// The text a reader sees: no script, style or template text, nothing hidden inside a shown
    /// element, no text a person can't see; about `max` chars.
    pub fn shown_text(el: &Element, max: u32) -> String;
    /// `shown_text` without the text inside descendants matching `skip`, but for one that holds `keep`.
    #[wasm_bindgen(js_name = shown_text)]
    pub fn shown_text_skipping(el: &Element, max: u32, skip: &str, keep: &Element) -> String;
    /// Starts sharing style reads between `shown_text` calls, and counting the unseen text they left out.
    pub fn begin_reading(doc: &Document);
    /// Ends `begin_reading`: how many pieces of unseen text were left out since.
    pub fn end_reading(doc: &Document) -> u32;
}

/// The text a reader sees in `el`, cleaned and cut at `max` chars.
pub fn text_of(el: &Element, max: usize) -> String {
    clean_text(&shown_text(el, (max * 4).max(64) as u32), max)
}
