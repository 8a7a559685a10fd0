//! get_color_palette: colours of the elements visible in the viewport, grouped by role and
//! weighted by painted area. One computed-style read per element, no writes, so no layout thrash.

use crate::dom::{tag, window};
use dusk_core::page::number::parse_number;
use dusk_core::page::palette::{is_accent, PaletteBuilder, Role};
use dusk_core::protocol::page::{Palette, Rect};
use web_sys::{Document, Element};

/// Caps the work on huge pages; the viewport rarely shows more.
const MAX_SAMPLED: u32 = 4000;

fn own_text_len(el: &Element) -> usize {
    let children = el.child_nodes();
    let mut len = 0;
    for i in 0..children.length().min(64) {
        if let Some(node) = children.item(i) {
            if node.node_type() == web_sys::Node::TEXT_NODE {
                len += node.text_content().map_or(0, |t| t.trim().len());
            }
        }
    }
    len
}

/// Walks the tree depth-first, skipping subtrees whose box lies outside the viewport and, in long
/// runs of siblings below it, the rest of the run: what is off screen isn't visible.
struct Sampler<'a> {
    win: &'a web_sys::Window,
    viewport: Rect,
    builder: PaletteBuilder,
    sampled: u32,
}

/// After this many consecutive siblings below the viewport, the rest are taken to be below too.
const BELOW_RUN: u32 = 20;

impl Sampler<'_> {
    fn visit(&mut self, el: &Element) {
        if self.sampled >= MAX_SAMPLED {
            return;
        }
        let t = tag(el);
        if matches!(t.as_str(), "script" | "style" | "dusk-overlay" | "head" | "meta" | "link" | "template" | "noscript") {
            return;
        }
        let r = el.get_bounding_client_rect();
        let rect = Rect { x: r.left(), y: r.top(), width: r.width(), height: r.height() };
        let area = rect.intersect(&self.viewport).area();
        let empty_box = rect.width <= 0.0 || rect.height <= 0.0;
        if area <= 0.0 && !empty_box {
            return;
        }
        if area > 0.0 {
            self.sample(el, &t, &rect, area);
        }
        let mut below = 0;
        let mut child = el.first_element_child();
        while let Some(c) = child {
            if self.sampled >= MAX_SAMPLED {
                return;
            }
            let top = c.get_bounding_client_rect().top();
            if top > self.viewport.height {
                below += 1;
                if below >= BELOW_RUN {
                    return;
                }
            } else {
                below = 0;
                self.visit(&c);
            }
            child = c.next_element_sibling();
        }
    }

    fn sample(&mut self, el: &Element, t: &str, rect: &Rect, area: f64) {
        let Some(style) = self.win.get_computed_style(el).ok().flatten() else { return };
        let p = |name: &str| style.get_property_value(name).unwrap_or_default();
        if p("visibility") == "hidden" || p("opacity") == "0" {
            return;
        }
        self.sampled += 1;
        let b = &mut self.builder;
        b.element_sampled();
        let bg = p("background-color");
        let interactive = matches!(t, "a" | "button") || el.has_attribute("role");
        if is_accent(&bg) && (interactive || area < self.viewport.area() * 0.05) {
            b.add(Role::Accent, &bg, area);
        } else {
            b.add(Role::Background, &bg, area);
        }
        let text_len = own_text_len(el);
        if text_len > 0 {
            let color = p("color");
            let weight = (text_len as f64) * 100.0;
            if t == "a" && is_accent(&color) {
                b.add(Role::Accent, &color, weight);
            } else {
                b.add(Role::Text, &color, weight);
            }
        }
        let width = parse_number(p("border-top-width").trim_end_matches("px")).unwrap_or(0.0);
        if width > 0.0 && p("border-top-style") != "none" {
            b.add(Role::Border, &p("border-top-color"), (rect.width + rect.height) * 2.0 * width);
        }
    }
}

#[inline(never)]
pub fn get_palette(doc: &Document) -> Result<Palette, String> {
    let win = window()?;
    let num = |v: Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue>| v.ok().and_then(|v| v.as_f64()).unwrap_or(0.0);
    let viewport = Rect { x: 0.0, y: 0.0, width: num(win.inner_width()), height: num(win.inner_height()) };
    let mut sampler = Sampler { win: &win, viewport, builder: PaletteBuilder::default(), sampled: 0 };
    if let Some(root) = doc.document_element() {
        sampler.visit(&root);
    }
    Ok(sampler.builder.finish())
}
