//! Native controls a page hides and draws anew, and the element a person sees and uses instead:
//! a custom drop-down over a hidden `<select>` (jQuery selectric, Select2, Choices.js), and the
//! button, label or drop zone that opens a hidden or see-through file input. A listing shows the
//! face once, in the control's place; what only serves the face (its inner parts, the hidden
//! control) is left out.

use crate::dom::{as_tag, is_disabled, is_visible, local_rect};
use crate::text::text_of;
use crate::walk::{Root, RootNode};
use dusk_core::page::elements::clean_text;
use dusk_core::protocol::page::ElementInfo;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlSelectElement};

#[wasm_bindgen(inline_js = "import { read, call } from 'dusk-unshadowed';
const norm = (s) => (s || '').replace(/\\s+/g, ' ').trim();
const sized = (el) => { const r = call(el, 'getBoundingClientRect'); return r.width > 4 && r.height > 4; };
const shown = (el) => sized(el) && call(el, 'checkVisibility', { checkOpacity: true, checkVisibilityCSS: true });
// Hidden from sight: not rendered, transparent, a pixel or two, or inside a box of a pixel or two that clips.
function hidden(el) {
  if (!shown(el)) return true;
  for (let a = read(el, 'parentElement'), k = 0; a && k < 2; a = read(a, 'parentElement'), k++) {
    const r = call(a, 'getBoundingClientRect');
    if ((r.width <= 2 || r.height <= 2) && getComputedStyle(a).overflow !== 'visible') return true;
  }
  return false;
}
const selectedText = (sel) => { const o = HTMLSelectElement.prototype.item.call(sel, Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'selectedIndex').get.call(sel)); return o ? norm(read(o, 'textContent')) : ''; };
const FOCUSABLE = (el) => { const r = call(el, 'getAttribute', 'role'); return r === 'combobox' || r === 'listbox' || r === 'button' || (call(el, 'getAttribute', 'tabindex') !== null && call(el, 'getAttribute', 'tabindex') !== '-1'); };
// The element that shows a hidden select's chosen option near it (the outermost one), or its
// nearest focusable ancestor that the widget draws as the control.
export function select_face(sel) {
  if (!hidden(sel)) return undefined;
  const want = selectedText(sel);
  if (!want) return undefined;
  for (let a = read(sel, 'parentElement'), k = 0; a && k < 3; a = read(a, 'parentElement'), k++) {
    let n = 0;
    for (const d of call(a, 'querySelectorAll', '*')) {
      if (++n > 300) break;
      if (d === sel || call(d, 'contains', sel) || call(sel, 'contains', d)) continue;
      const t = norm(read(d, 'textContent'));
      if (!t.startsWith(want) || t.length > want.length + 3 || !shown(d)) continue;
      // Up to the widget's own box, never past where it shows more than the option (a dialog around it).
      for (let p = d, j = 0; p && j < 3 && read(p, 'localName') !== 'body' && norm(read(p, 'innerText')).length <= want.length + 3; p = read(p, 'parentElement'), j++) if (FOCUSABLE(p)) return p;
      return d;
    }
  }
  return undefined;
}
// The element a person uses to open a file input that is not itself in sight: the input itself
// when it lies see-through over its face, a label of it, else a button or a box with words around it.
export function file_face(input) {
  if (shown(input)) return undefined;
  if (sized(input) && call(input, 'checkVisibility', { checkVisibilityCSS: true }) && read(input, 'parentElement') && shown(read(input, 'parentElement'))) return input;
  for (const l of read(input, 'labels') || []) if (shown(l)) return l;
  for (let a = read(input, 'parentElement'), k = 0; a && k < 3 && read(a, 'localName') !== 'body'; a = read(a, 'parentElement'), k++) {
    if (call(a, 'querySelectorAll', 'input[type=file]').length > 1) break;
    const b = call(a, 'querySelector', 'button,[role=button],label');
    if (b && shown(b)) return b;
    const t = norm(read(a, 'textContent')).length;
    if (t >= 2 && t <= 80 && shown(a)) return a;
  }
  return undefined;
}
// Every face in `root`: [face, control, kind] with kind 0 a select, 1 a file input, 2 a see-through file input.
export function faces(root) {
  const out = [];
  for (const c of call(root, 'querySelectorAll', 'select,input[type=file]')) {
    if (read(c, 'localName') === 'select') { const f = select_face(c); if (f) out.push([f, c, 0]); continue; }
    const f = file_face(c);
    if (f) out.push([f, c, f === c ? 2 : 1]);
  }
  return out;
}
// The hidden select a face stands for: one near it whose face it is.
export function select_behind(face) {
  for (let a = face, k = 0; a && k < 4; a = read(a, 'parentElement'), k++) {
    for (const s of call(a, 'querySelectorAll', 'select')) if (select_face(s) === face) return s;
  }
  return undefined;
}
// The file input a listed face opens: its label's control, the one inside it or near it.
export function file_behind(el) {
  const c = read(el, 'localName') === 'label' ? read(el, 'control') : null;
  if (c && read(c, 'localName') === 'input' && (call(c, 'getAttribute', 'type') || '').toLowerCase() === 'file') return c;
  for (let a = el, k = 0; a && k < 4 && read(a, 'localName') !== 'body'; a = read(a, 'parentElement'), k++) {
    const all = call(a, 'querySelectorAll', 'input[type=file]');
    if (all.length === 1) return all[0];
    if (all.length > 1) return undefined;
  }
  return undefined;
}
// The option a face opened that reads `text`, in sight, outside the hidden select (the last: a list opens after what it covers).
export function shown_option(sel, face, text) {
  const want = norm(text);
  let best;
  for (const d of call(document, 'querySelectorAll', '[role=option],li,[data-value],[data-index]')) {
    if (call(sel, 'contains', d) || d === face || norm(read(d, 'textContent')) !== want || !shown(d)) continue;
    best = d;
  }
  return best;
}
// Per candidate: its face's place in `raw`, -2 when it serves a face (the hidden control, a part
// of the face), else -1. The lookups are built once per list.
const marks = new WeakMap();
export function mark(raw, el) {
  let m = marks.get(raw);
  if (!m) {
    const serving = raw.filter((e) => e[2] !== 2);
    m = { at: new Map(raw.map((e, i) => [e[0], i])), controls: new Set(serving.map((e) => e[1])), holders: serving.map((e) => e[0]) };
    marks.set(raw, m);
  }
  const i = m.at.get(el);
  if (i !== undefined) return i;
  if (m.controls.has(el)) return -2;
  for (const f of m.holders) if (call(f, 'contains', el)) return -2;
  return -1;
}")]
extern "C" {
    fn faces(root: &JsValue) -> js_sys::Array;
    fn mark(raw: &js_sys::Array, el: &Element) -> i32;
    fn select_behind(face: &Element) -> Option<Element>;
    fn file_behind(el: &Element) -> Option<Element>;
    fn shown_option(sel: &Element, face: &Element, text: &str) -> Option<Element>;
}

/// What a face stands for.
#[derive(Clone)]
pub enum Face {
    /// A custom drop-down drawn over this hidden select.
    Select(Element),
    /// A button, label or box that opens a hidden file input.
    File,
    /// A file input that lies see-through over the element that shows it (its parent).
    SeeThrough(Element),
}

/// The faces of one root, in the order found, and the controls they stand for.
pub struct Faces {
    pub list: Vec<(Element, Face)>,
    raw: js_sys::Array,
}

impl Faces {
    pub fn of(root: &Root) -> Faces {
        let node: JsValue = match &root.node {
            RootNode::Doc(d) => d.clone().into(),
            RootNode::Shadow(s) => s.clone().into(),
        };
        let raw = faces(&node);
        let list = raw
            .iter()
            .filter_map(|entry| {
                let e: js_sys::Array = entry.dyn_into().ok()?;
                let face: Element = e.get(0).unchecked_into();
                let control: Element = e.get(1).unchecked_into();
                let face_of = match e.get(2).as_f64()? as u8 {
                    0 => Face::Select(control),
                    1 => Face::File,
                    _ => Face::SeeThrough(face.parent_element()?),
                };
                Some((face, face_of))
            })
            .collect();
        Faces { list, raw }
    }

    /// The faces, for the candidate net: each is listed even with no handler of its own.
    pub fn elements(&self) -> js_sys::Array {
        self.list.iter().map(|(f, _)| JsValue::from(f.clone())).collect()
    }

    /// What `el` is to the faces: a face (and what it stands for), a part serving one, or neither.
    pub fn mark(&self, el: &Element) -> Mark<'_> {
        if self.list.is_empty() {
            return Mark::None;
        }
        match mark(&self.raw, el) {
            -2 => Mark::Serves,
            i if i >= 0 => self.list.get(i as usize).map_or(Mark::None, |(_, f)| Mark::Face(f)),
            _ => Mark::None,
        }
    }
}

pub enum Mark<'a> {
    None,
    Face(&'a Face),
    /// Left out of the listing: a control a face stands for, or a part of a face.
    Serves,
}

/// The hidden select a listed face stands for.
pub fn select_of_face(face: &Element) -> Option<Element> {
    select_behind(face)
}

/// The file input a listed element opens: itself, its label's control, or the one inside or near it.
pub fn file_input_of(el: &Element) -> Option<Element> {
    file_behind(el)
}

/// The option element in sight that reads `text`, once the face opened its list.
pub fn option_in_sight(select: &Element, face: &Element, text: &str) -> Option<Element> {
    shown_option(select, face, text)
}

/// Characters of a face's name a listing shows, as for any element.
const NAME_CHARS: usize = 50;

/// Lists a face as the control it stands for: a custom drop-down as a `combobox` named as its
/// select is, with the chosen option as its value; a file picker's button as `type=file`; a
/// see-through file input as seen through the element under it, named by that element's text.
pub fn dress(e: &mut ElementInfo, face: &Face, on_screen: f64) {
    match face {
        Face::Select(select) => {
            let name = crate::names::element_name(select, "select", NAME_CHARS);
            if !name.text.is_empty() {
                e.text = name.text;
            }
            (e.guess, e.icon, e.text_chars, e.input_type, e.checked, e.value_chars) = (false, None, None, None, None, None);
            e.role = Some("combobox".into());
            e.value = as_tag::<HtmlSelectElement>(select, "select")
                .and_then(|s| s.selected_options().item(0))
                .and_then(|o| o.text_content())
                .map(|t| clean_text(&t, 100));
            e.enabled = !is_disabled(select);
        }
        Face::File => e.input_type = Some("file".into()),
        Face::SeeThrough(shown) => {
            // What a person reads is the text it lies over, not the input's field name.
            let over = text_of(shown, NAME_CHARS);
            if !over.is_empty() {
                e.text = over;
            }
            e.visible = on_screen > 0.0 && is_visible(shown, &local_rect(shown));
        }
    }
}
