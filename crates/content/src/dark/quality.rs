//! The dark agent's guard, measured where the user looks: each visible text element's contrast on
//! its composited background, and, against a recorded baseline, text that vanished and boxes
//! that moved. Reads only, so measuring never changes what it measures.

use crate::selector::unique_selector;
use dusk_core::page::color::{contrast_ratio, Rgba};
use dusk_core::page::number::parse_number;
use dusk_core::protocol::css::{LowContrast, ThemeQuality};
use std::cell::RefCell;
use std::collections::HashMap;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Document, Element};

/// A text's contrast ratio as painted, its colour (its own alpha blended), the background behind
/// it, whether it is large text, and the opacity it is painted at (its own times its ancestors').
type Contrast = (f64, Rgba, Rgba, bool, f64);

/// Caps the work on huge pages.
const MAX_TEXT_ELEMENTS: u32 = 2000;
/// Text at or below this ratio to its background can't be read at all.
const UNREADABLE: f64 = 1.5;
/// How many examples each list names.
const EXAMPLES: usize = 5;

// Thousands of computed-style reads cross into JS once, as one string, instead of one call each.
#[wasm_bindgen(inline_js = "import { read, call } from 'dusk-unshadowed';

const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'TEXTAREA']);
export function text_elements(root, max) {
  return text_elements_in([root], max);
}
export function text_elements_in(roots, max) {
  const out = [], seen = new Set();
  for (const root of roots) {
    const walk = call(document, 'createTreeWalker', root, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n && out.length < max; n = walk.nextNode()) {
      const el = read(n, 'parentElement');
      if (!el || seen.has(el) || SKIP.has(read(el, 'tagName')) || call(el, 'closest', 'svg') || !n.data.trim()) continue;
      seen.add(el); out.push(el);
    }
  }
  return out;
}
export function style_rows(els) {
  const index = new Map(), rows = [], rects = new Float64Array(els.length * 4), items = new Int32Array(els.length);
  const row = (el, text) => {
    let i = index.get(el);
    if (i !== undefined && (!text || rows[i].length > 4)) return i;
    const p = read(el, 'parentElement') ? row(read(el, 'parentElement'), false) : -1, s = getComputedStyle(el);
    const fields = [p, s.backgroundColor, s.backgroundImage, s.opacity];
    if (text) fields.push(s.color, s.visibility, s.fontSize, s.fontWeight);
    if (i === undefined) { i = rows.length; rows.push(fields); index.set(el, i); } else rows[i] = fields;
    return i;
  };
  els.forEach((el, k) => {
    items[k] = read(el, 'isConnected') ? row(el, true) : -1;
    const r = call(el, 'getBoundingClientRect');
    rects.set([r.left + scrollX, r.top + scrollY, r.width, r.height], k * 4);
  });
  return { rows: rows.map((f) => f.join('\\u0001')).join('\\u0002'), rects, items };
}")]
extern "C" {
    fn text_elements(root: &JsValue, max: u32) -> js_sys::Array;
    fn text_elements_in(roots: &js_sys::Array, max: u32) -> js_sys::Array;
    fn style_rows(els: &js_sys::Array) -> JsValue;
}

struct Row {
    parent: i32,
    background: Option<Rgba>,
    image: bool,
    /// The element's own opacity; what reaches the screen is the product up its ancestors.
    opacity: f64,
    color: Option<Rgba>,
    visible: bool,
    large: bool,
}

/// Most elements share a few colour strings, so each is parsed once.
fn parse_row<'a>(text: &'a str, colours: &mut HashMap<&'a str, Option<Rgba>>) -> Row {
    let f: Vec<&str> = text.split('\u{1}').collect();
    let get = |i: usize| f.get(i).copied().unwrap_or("");
    let mut colour = |s: &'a str| *colours.entry(s).or_insert_with(|| Rgba::parse(s));
    let size = parse_number(get(6).trim_end_matches("px")).unwrap_or(16.0);
    let weight = parse_number(get(7)).unwrap_or(400.0);
    let opacity = parse_number(get(3)).unwrap_or(1.0);
    Row {
        parent: get(0).parse().unwrap_or(-1),
        background: colour(get(1)),
        image: !matches!(get(2), "none" | ""),
        opacity,
        color: if f.len() > 4 { colour(get(4)) } else { None },
        visible: get(5) != "hidden" && opacity > 0.0,
        large: size >= 24.0 || (size >= 18.66 && weight >= 700.0),
    }
}

/// One measurement: each element's row (None: detached), box, and composited backgrounds.
struct Snapshot {
    rows: Vec<Row>,
    items: Vec<i32>,
    rects: Vec<f64>,
    /// Per row: unknown yet, or the colour behind it (None under a background image).
    behind: Vec<Option<Option<Rgba>>>,
}

impl Snapshot {
    fn take(els: &js_sys::Array) -> Snapshot {
        let raw = style_rows(els);
        let get = |k: &str| js_sys::Reflect::get(&raw, &k.into()).unwrap_or(JsValue::UNDEFINED);
        let text = get("rows").as_string().unwrap_or_default();
        let mut colours = HashMap::new();
        let rows: Vec<Row> = if text.is_empty() { vec![] } else { text.split('\u{2}').map(|r| parse_row(r, &mut colours)).collect() };
        let rects = get("rects").dyn_into::<js_sys::Float64Array>().map(|a| a.to_vec()).unwrap_or_default();
        let items = get("items").dyn_into::<js_sys::Int32Array>().map(|a| a.to_vec()).unwrap_or_default();
        let behind = vec![None; rows.len()];
        Snapshot { rows, items, rects, behind }
    }

    /// The opacity row `row` is painted at: its own times every ancestor's.
    fn opacity(&self, row: i32) -> f64 {
        let mut at = row;
        let mut product = 1.0;
        while let Some(x) = usize::try_from(at).ok().and_then(|r| self.rows.get(r)) {
            product *= x.opacity.clamp(0.0, 1.0);
            at = x.parent;
        }
        product
    }

    fn has_box(&self, k: usize) -> bool {
        let r = self.rect(k);
        r[2] > 0.0 && r[3] > 0.0
    }

    fn rect(&self, k: usize) -> [f64; 4] {
        let r = self.rects.get(k * 4..k * 4 + 4).unwrap_or(&[0.0; 4]);
        [r[0], r[1], r[2], r[3]]
    }

    fn background(&mut self, row: i32) -> Option<Rgba> {
        let Some(r) = usize::try_from(row).ok().filter(|&r| r < self.rows.len()) else {
            // Above the root: the canvas, white unless the root painted it.
            return Some(Rgba { r: 1.0, g: 1.0, b: 1.0, a: 1.0 });
        };
        if let Some(known) = self.behind[r] {
            return known;
        }
        let (own, image, parent) = {
            let x = &self.rows[r];
            (x.background.unwrap_or(Rgba { r: 0.0, g: 0.0, b: 0.0, a: 0.0 }), x.image, x.parent)
        };
        let result = if own.a >= 1.0 {
            Some(own)
        } else if image {
            None
        } else {
            self.background(parent).map(|below| own.over(&below))
        };
        self.behind[r] = Some(result);
        result
    }

    /// Whether element `k` shows, and its contrast if knowable.
    fn text(&mut self, k: usize) -> Option<(bool, Option<Contrast>)> {
        let row = *self.items.get(k)?;
        let r = usize::try_from(row).ok()?;
        let rect = self.rect(k);
        let (visible, color, large) = {
            let x = &self.rows[r];
            (x.visible && rect[2] > 0.0 && rect[3] > 0.0, x.color, x.large)
        };
        let opacity = self.opacity(row);
        let contrast = self.background(row).zip(color).map(|(bg, fg)| {
            let fg = if fg.a < 1.0 { fg.over(&bg) } else { fg };
            // What reaches the screen: the text blended again at the opacity it is painted at.
            let painted = if opacity < 1.0 { Rgba { a: opacity, ..fg }.over(&bg) } else { fg };
            (contrast_ratio(&painted, &bg), fg, bg, large, opacity)
        });
        Some((visible, contrast))
    }
}

struct Baseline {
    els: js_sys::Array,
    rects: Vec<[f64; 4]>,
    visible: Vec<bool>,
}

thread_local! {
    static BASELINE: RefCell<Option<Baseline>> = const { RefCell::new(None) };
}

fn element(els: &js_sys::Array, k: usize) -> Option<Element> {
    Some(els.get(k as u32)).filter(|v| v.is_object()).map(JsCast::unchecked_into)
}

#[inline(never)]
pub fn measure(doc: &Document, baseline: bool) -> Result<ThemeQuality, String> {
    let root: JsValue = doc.body().map(JsValue::from).ok_or("the page has no body")?;
    // After the baseline, the same elements are measured again: one pass serves AA and the diff.
    let known = if baseline { None } else { BASELINE.with(|b| b.borrow().as_ref().map(|b| b.els.clone())) };
    let els = known.unwrap_or_else(|| text_elements(&root, MAX_TEXT_ELEMENTS));
    let mut snap = Snapshot::take(&els);
    let mut q = ThemeQuality::default();
    let (mut passing, mut counted) = (0u32, 0u32);
    let mut low: Vec<(f64, usize, Rgba, Rgba)> = Vec::new();
    let mut visible = Vec::with_capacity(els.length() as usize);
    for k in 0..els.length() as usize {
        let Some((shown, contrast)) = snap.text(k) else {
            visible.push(false);
            continue;
        };
        visible.push(shown);
        if !shown {
            continue;
        }
        q.text_elements += 1;
        let Some((ratio, fg, bg, large, _)) = contrast else { continue };
        counted += 1;
        if ratio >= if large { 3.0 } else { 4.5 } {
            passing += 1;
        } else {
            low.push((ratio, k, fg, bg));
        }
    }
    q.aa_share = if counted == 0 { 1.0 } else { f64::from(passing) / f64::from(counted) };
    low.sort_by(|a, b| a.0.total_cmp(&b.0));
    q.worst = low
        .into_iter()
        .take(EXAMPLES)
        .filter_map(|(ratio, k, fg, bg)| {
            let selector = unique_selector(&element(&els, k)?);
            Some(LowContrast { selector, ratio: (ratio * 100.0).round() / 100.0, color: fg.to_hex(), background: bg.to_hex() })
        })
        .collect();
    if baseline {
        let rects = (0..els.length() as usize).map(|k| snap.rect(k)).collect();
        BASELINE.with(|b| *b.borrow_mut() = Some(Baseline { els, rects, visible }));
        return Ok(q);
    }
    BASELINE.with(|b| {
        let b = b.borrow();
        let Some(base) = b.as_ref() else { return };
        let now = &mut snap;
        for k in 0..base.els.length() as usize {
            let name = |list: &mut Vec<String>| {
                if list.len() < EXAMPLES {
                    if let Some(el) = element(&base.els, k) {
                        list.push(unique_selector(&el));
                    }
                }
            };
            if !base.visible.get(k).copied().unwrap_or(false) {
                if now.text(k).is_some_and(|(shown, _)| shown) {
                    q.shown_text += 1;
                    name(&mut q.shown);
                }
                continue;
            }
            let gone = match now.text(k) {
                None => true,
                Some((shown, contrast)) => !shown || contrast.is_some_and(|c| c.0 <= UNREADABLE),
            };
            if gone {
                q.hidden_text += 1;
                name(&mut q.hidden);
            } else if base.rects[k].iter().zip(now.rect(k).iter()).any(|(a, b)| (a - b).abs() > 1.0) {
                q.moved += 1;
                name(&mut q.moved_examples);
            }
        }
    });
    Ok(q)
}

/// Each text element under `root` (at most `max`) with its colour, the background behind it,
/// whether it is large text and the opacity it is painted at; elements with no box, or whose
/// background is unknowable, are left out. Text hidden only for now (`visibility: hidden`, as a
/// page held until a script answers) is kept: its colours are the ones it will show in.
pub(super) fn text_pairs(root: &JsValue, max: u32) -> Vec<(Element, Rgba, Rgba, bool, f64)> {
    pairs(&text_elements(root, max))
}

/// The same for the text under any of `roots`.
pub(super) fn text_pairs_in(roots: &js_sys::Array, max: u32) -> Vec<(Element, Rgba, Rgba, bool, f64)> {
    pairs(&text_elements_in(roots, max))
}

fn pairs(els: &js_sys::Array) -> Vec<(Element, Rgba, Rgba, bool, f64)> {
    let mut snap = Snapshot::take(els);
    (0..els.length() as usize)
        .filter_map(|k| match snap.text(k)? {
            (_, Some((_, fg, bg, large, opacity))) if snap.has_box(k) => Some((element(els, k)?, fg, bg, large, opacity)),
            _ => None,
        })
        .collect()
}
