//! Auto-scroll only while the reader is at the bottom; otherwise a "Jump to latest" pill.

use crate::dom;
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::Element;

/// How close to the bottom still counts as "at the bottom", in CSS pixels.
const SLACK: i32 = 32;

#[derive(Clone)]
pub struct Follow {
    scroller: Element,
    jump: Element,
    pinned: Rc<Cell<bool>>,
    /// A follow is waiting for the next frame.
    queued: Rc<Cell<bool>>,
}

impl Follow {
    /// `scroller` is the log; the pill goes into `parent`, above the composer.
    pub fn new(scroller: &Element, parent: &Element, id: &str) -> Result<Follow, JsValue> {
        let jump = dom::append(parent, "button", "jump", "")?;
        jump.set_id(id);
        jump.set_attribute("type", "button")?;
        jump.set_attribute("hidden", "")?;
        crate::icons::append(&jump, crate::icons::Icon::Scroll)?;
        dom::append_i18n(&jump, "span", "", "jumpToLatest")?;
        let follow = Follow { scroller: scroller.clone(), jump, pinned: Rc::new(Cell::new(true)), queued: Rc::new(Cell::new(false)) };
        let me = follow.clone();
        dom::on(scroller, "scroll", move || {
            let at_bottom = me.at_bottom();
            me.pinned.set(at_bottom);
            if at_bottom {
                let _ = me.jump.set_attribute("hidden", "");
            }
        })?;
        let me = follow.clone();
        dom::on(&follow.jump, "click", move || {
            me.pinned.set(true);
            me.to_bottom();
        })?;
        Ok(follow)
    }

    fn at_bottom(&self) -> bool {
        self.scroller.scroll_height() - self.scroller.scroll_top() - self.scroller.client_height() <= SLACK
    }

    fn to_bottom(&self) {
        self.scroller.set_scroll_top(self.scroller.scroll_height());
        let _ = self.jump.set_attribute("hidden", "");
    }

    /// Content grew: follow it if the reader was at the bottom, else offer the pill. On the next
    /// frame, once for all the changes before it: reading the height at once laid the panel out
    /// for every streamed word, before the word reached the DOM's observers.
    pub fn changed(&self) {
        if self.queued.replace(true) {
            return;
        }
        let me = self.clone();
        let follow = Closure::once_into_js(move || {
            me.queued.set(false);
            if me.pinned.get() {
                me.to_bottom();
            } else if !me.at_bottom() {
                let _ = me.jump.remove_attribute("hidden");
            }
        });
        if let Some(w) = web_sys::window() {
            let _ = w.request_animation_frame(follow.unchecked_ref());
        }
    }

    /// A new conversation or run starts at its end.
    pub fn reset(&self) {
        self.pinned.set(true);
        self.to_bottom();
    }
}
