//! The dark agent's guard, measured where the user looks: each visible text element's contrast on
//! its composited background, and, against a recorded baseline, text that vanished and boxes
//! that moved. Reads only, so measuring never changes what it measures.

use crate::dom::{tag, window};
use crate::selector::unique_selector;
use dusk_core::page::color::{contrast_ratio, Rgba};
use dusk_core::protocol::css::{LowContrast, ThemeQuality};
use std::cell::RefCell;
use wasm_bindgen::JsValue;
use web_sys::{CssStyleDeclaration, Document, Element, Window};

/// Caps the work on huge pages.
const MAX_TEXT_ELEMENTS: usize = 3000;
/// Text at or below this ratio to its background can't be read at all.
const UNREADABLE: f64 = 1.5;
/// How many examples each list names.
const EXAMPLES: usize = 5;

struct Sample {
    el: Element,
    /// Document coordinates: left, top, width, height.
    rect: [f64; 4],
    visible: bool,
}

thread_local! {
    static BASELINE: RefCell<Vec<Sample>> = const { RefCell::new(Vec::new()) };
}

fn own_text(el: &Element) -> bool {
    let children = el.child_nodes();
    (0..children.length().min(64)).filter_map(|i| children.item(i)).any(|n| {
        n.node_type() == web_sys::Node::TEXT_NODE && n.text_content().is_some_and(|t| !t.trim().is_empty())
    })
}

fn text_elements(doc: &Document) -> Vec<Element> {
    let mut out = Vec::new();
    let mut stack: Vec<Element> = doc.body().map(|b| b.into()).into_iter().collect();
    while let Some(el) = stack.pop() {
        if out.len() >= MAX_TEXT_ELEMENTS {
            break;
        }
        if matches!(tag(&el).as_str(), "script" | "style" | "noscript" | "template" | "svg" | "dusk-overlay") {
            continue;
        }
        if own_text(&el) {
            out.push(el.clone());
        }
        let children = el.children();
        for i in (0..children.length()).rev() {
            if let Some(c) = children.item(i) {
                stack.push(c);
            }
        }
    }
    out
}

struct Reader {
    win: Window,
    scroll: (f64, f64),
    /// Composited background per element, so ancestors are read once.
    backgrounds: js_sys::Map,
}

impl Reader {
    fn style(&self, el: &Element) -> Option<CssStyleDeclaration> {
        self.win.get_computed_style(el).ok().flatten()
    }

    fn rect(&self, el: &Element) -> [f64; 4] {
        let r = el.get_bounding_client_rect();
        [r.left() + self.scroll.0, r.top() + self.scroll.1, r.width(), r.height()]
    }

    /// The colour behind `el`'s text; None where a background image makes it unknowable.
    fn background(&self, el: &Element) -> Option<Rgba> {
        let cached = self.backgrounds.get(el);
        if !cached.is_undefined() {
            return cached.as_string().and_then(|s| Rgba::parse(&s));
        }
        let style = self.style(el)?;
        let own = Rgba::parse(&style.get_property_value("background-color").unwrap_or_default()).unwrap_or(Rgba { r: 0.0, g: 0.0, b: 0.0, a: 0.0 });
        let image = style.get_property_value("background-image").unwrap_or_default();
        let result = if image != "none" && !image.is_empty() && own.a < 1.0 {
            None
        } else if own.a >= 1.0 {
            Some(own)
        } else {
            let below = match el.parent_element() {
                Some(p) => self.background(&p),
                // The canvas is white unless the root's colour says otherwise.
                None => Some(Rgba { r: 1.0, g: 1.0, b: 1.0, a: 1.0 }),
            };
            below.map(|b| own.over(&b))
        };
        self.backgrounds.set(el, &result.map_or(JsValue::NULL, |c| JsValue::from_str(&c.to_hex())));
        result
    }
}

fn visible(style: &CssStyleDeclaration, rect: &[f64; 4]) -> bool {
    let p = |n: &str| style.get_property_value(n).unwrap_or_default();
    rect[2] > 0.0 && rect[3] > 0.0 && p("visibility") != "hidden" && p("opacity") != "0"
}

fn large(style: &CssStyleDeclaration) -> bool {
    let size: f64 = style.get_property_value("font-size").unwrap_or_default().trim_end_matches("px").parse().unwrap_or(16.0);
    let weight: f64 = style.get_property_value("font-weight").unwrap_or_default().parse().unwrap_or(400.0);
    size >= 24.0 || (size >= 18.66 && weight >= 700.0)
}

/// Contrast of `el`'s text, or None if it can't be known (background image).
fn ratio(reader: &Reader, el: &Element, style: &CssStyleDeclaration) -> Option<(f64, Rgba, Rgba)> {
    let bg = reader.background(el)?;
    let fg = Rgba::parse(&style.get_property_value("color").ok()?)?;
    let fg = if fg.a < 1.0 { fg.over(&bg) } else { fg };
    Some((contrast_ratio(&fg, &bg), fg, bg))
}

pub fn measure(doc: &Document, baseline: bool) -> Result<ThemeQuality, String> {
    let win = window()?;
    let scroll = (win.scroll_x().unwrap_or(0.0), win.scroll_y().unwrap_or(0.0));
    let reader = Reader { win, scroll, backgrounds: js_sys::Map::new() };
    let mut q = ThemeQuality::default();
    let (mut passing, mut counted) = (0u32, 0u32);
    let mut low: Vec<(f64, LowContrast)> = Vec::new();
    let mut samples = Vec::new();
    for el in text_elements(doc) {
        let Some(style) = reader.style(&el) else { continue };
        let rect = reader.rect(&el);
        let shown = visible(&style, &rect);
        if baseline {
            samples.push(Sample { el: el.clone(), rect, visible: shown });
        }
        if !shown {
            continue;
        }
        q.text_elements += 1;
        let Some((r, fg, bg)) = ratio(&reader, &el, &style) else { continue };
        counted += 1;
        if r >= if large(&style) { 3.0 } else { 4.5 } {
            passing += 1;
        } else {
            low.push((r, LowContrast { selector: unique_selector(&el), ratio: (r * 100.0).round() / 100.0, color: fg.to_hex(), background: bg.to_hex() }));
        }
    }
    q.aa_share = if counted == 0 { 1.0 } else { f64::from(passing) / f64::from(counted) };
    low.sort_by(|a, b| a.0.total_cmp(&b.0));
    q.worst = low.into_iter().take(EXAMPLES).map(|(_, l)| l).collect();
    if baseline {
        BASELINE.with(|b| *b.borrow_mut() = samples);
        return Ok(q);
    }
    BASELINE.with(|b| {
        for s in b.borrow().iter().filter(|s| s.visible) {
            let style = if s.el.is_connected() { reader.style(&s.el) } else { None };
            let now = reader.rect(&s.el);
            let gone = match &style {
                None => true,
                Some(st) => !visible(st, &now) || ratio(&reader, &s.el, st).is_some_and(|(r, ..)| r <= UNREADABLE),
            };
            if gone {
                q.hidden_text += 1;
                if q.hidden.len() < EXAMPLES {
                    q.hidden.push(unique_selector(&s.el));
                }
                continue;
            }
            if s.rect.iter().zip(now.iter()).any(|(a, b)| (a - b).abs() > 1.0) {
                q.moved += 1;
                if q.moved_examples.len() < EXAMPLES {
                    q.moved_examples.push(unique_selector(&s.el));
                }
            }
        }
    });
    Ok(q)
}
