//! Same-origin frames of a page whose dark layer runs are themed by that layer, whose engine is
//! warm: a layer of their own started cold in every frame, which cost more than Dark Reader.
//! Their objects come from other realms, so nothing here relies on `instanceof`.

use super::collect::{self, Root};
use super::install::Installed;
use dusk_core::dark::Scope;
use dusk_core::protocol::dark::PagePhase;
use js_sys::Object;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::Document;

struct Frame {
    doc: Document,
    phase: PagePhase,
    installed: Option<Installed>,
    input: Vec<Scope>,
    dirty: bool,
    /// Handed over while loading, as the registered script does: the fallback CSS is in it.
    registered: bool,
}

thread_local! {
    static FRAMES: RefCell<Vec<Frame>> = const { RefCell::new(Vec::new()) };
}

fn with_frame<R>(i: usize, f: impl FnOnce(&mut Frame) -> R) -> Option<R> {
    FRAMES.with(|frames| frames.borrow_mut().get_mut(i).map(f))
}

fn count() -> usize {
    FRAMES.with(|f| f.borrow().len())
}

/// A same-origin frame's document asks to be themed from here; false: it runs a layer of its own.
pub fn adopt(doc: Document) -> bool {
    if !super::is_top() || super::with(|s| s.host.is_none()) {
        return false;
    }
    if FRAMES.with(|f| f.borrow().iter().any(|x| Object::is(&x.doc, &doc))) {
        return true;
    }
    listen(&doc);
    super::watch::observe(doc.as_ref());
    let registered = doc.ready_state() == "loading";
    FRAMES.with(|f| f.borrow_mut().push(Frame { doc, phase: PagePhase::Off, installed: None, input: Vec::new(), dirty: true, registered }));
    if super::with(|s| s.memory_loaded) {
        sync(super::wanted());
    }
    true
}

fn listen(doc: &Document) {
    let target = doc.clone();
    let ready = Closure::<dyn FnMut()>::new(move || on_ready(&target));
    let _ = doc.add_event_listener_with_callback("DOMContentLoaded", ready.as_ref().unchecked_ref());
    ready.forget();
    let target = doc.clone();
    let loaded = Closure::<dyn FnMut()>::new(move || mark(&target));
    let _ = doc.add_event_listener_with_callback_and_bool("load", loaded.as_ref().unchecked_ref(), true);
    loaded.forget();
}

fn index_of(doc: &Document) -> Option<usize> {
    FRAMES.with(|f| f.borrow().iter().position(|x| Object::is(&x.doc, doc)))
}

/// Frames whose document went away (navigated, removed) are forgotten.
fn prune() {
    FRAMES.with(|f| f.borrow_mut().retain(|x| x.doc.default_view().is_some()));
}

/// Brings every frame in line with the memory.
pub fn sync(wanted: bool) {
    prune();
    for i in 0..count() {
        match (wanted, with_frame(i, |f| f.phase)) {
            (true, Some(PagePhase::Off)) => switch_on(i),
            (false, Some(PagePhase::Off)) => release(i),
            (false, Some(_)) => switch_off(i),
            _ => {}
        }
    }
}

fn switch_on(i: usize) {
    let Some(doc) = with_frame(i, |f| f.doc.clone()) else { return };
    if doc.ready_state() == "loading" {
        // The fallback CSS covers the frame until its DOM is parsed; the theme goes on then, in
        // one style pass with the dark check (a frame is small: no need to theme it while it loads).
        with_frame(i, |f| f.phase = PagePhase::Pending);
    } else {
        decide(i);
    }
}

/// Once the frame's DOM is parsed: leave an already dark page alone, theme the rest.
fn decide(i: usize) {
    let Some((doc, registered)) = with_frame(i, |f| (f.doc.clone(), f.registered)) else { return };
    // A frame handed over while loading has the fallback CSS: claimed without reading styles.
    if registered {
        super::claim_in(&doc);
    } else {
        release(i);
    }
    with_frame(i, |f| f.installed.iter().for_each(|x| x.set_enabled(false)));
    let dark = super::page_is_dark_held(&doc);
    with_frame(i, |f| f.installed.iter().for_each(|x| x.set_enabled(true)));
    if dark {
        switch_off(i);
        with_frame(i, |f| f.phase = PagePhase::AlreadyDark);
        return;
    }
    with_frame(i, |f| {
        f.phase = PagePhase::Active;
        f.dirty = true;
    });
    let root = Root::Doc(doc);
    super::icons::mark(std::slice::from_ref(&root));
    // Before the frame's theme goes on, as in the top page: a big drawing is dark in its first frame.
    super::shapes::mark(&[root], false);
    batch(i);
}

fn switch_off(i: usize) {
    let Some(doc) = with_frame(i, |f| {
        if let Some(x) = f.installed.take() {
            x.remove();
        }
        f.input.clear();
        f.phase = PagePhase::Off;
        f.doc.clone()
    }) else {
        return;
    };
    super::icons::unmark(&[Root::Doc(doc.clone())]);
    super::inline::clear(&Root::Doc(doc.clone()));
    super::shapes::unmark_root(&Root::Doc(doc));
    release(i);
}

/// The registered fallback CSS came with the frame's document: claiming it switches it off.
fn release(i: usize) {
    let Some(doc) = with_frame(i, |f| f.doc.clone()) else { return };
    if super::fallback_present(&doc) {
        super::claim_in(&doc);
    }
}

/// Recollects the frame and re-applies its theme if what styles it changed.
fn batch(i: usize) {
    let Some((doc, phase, own)) = with_frame(i, |f| (f.doc.clone(), f.phase, f.installed.as_ref().map(|x| x.sheet.clone()))) else { return };
    with_frame(i, |f| f.dirty = false);
    if !matches!(phase, PagePhase::Pending | PagePhase::Active) {
        return;
    }
    let root = Root::Doc(doc.clone());
    let own: Vec<_> = own.into_iter().chain(super::shapes::sheets()).collect();
    let input = vec![super::with(|s| collect::scope(&root, &mut s.cache, &own))];
    let unchanged = with_frame(i, |f| f.installed.is_some() && f.input == input).unwrap_or(true);
    if unchanged {
        // Elements added since carry values the theme knows.
        super::inline::refresh(&root);
        return;
    }
    let (css, roles) = super::with(|s| super::build_roles(&input, &s.refine, s.adjust));
    let Some(window) = doc.default_view() else { return };
    with_frame(i, |f| {
        if f.installed.is_none() {
            f.installed = Installed::in_realm(root.clone(), &window);
        }
        if let (Some(x), Some(css)) = (f.installed.as_mut(), css.first()) {
            x.set(css);
            super::inline::put(&root, roles.markers.first().map_or(&[][..], Vec::as_slice));
        }
        f.input = input;
    });
}

/// Frames whose documents changed since the last batch.
/// Whether a frame had changed (its drawings are measured after the batch then).
pub fn run_dirty() -> bool {
    prune();
    let mut any = false;
    for i in 0..count() {
        if with_frame(i, |f| f.dirty).unwrap_or(false) {
            batch(i);
            any = true;
        }
    }
    any
}

/// Icons and big drawings added to themed frames since the last pass are measured and painted.
pub fn mark_drawings() {
    prune();
    for i in 0..count() {
        let Some((doc, themed)) =
            with_frame(i, |f| (f.phase == PagePhase::Active).then(|| (f.doc.clone(), f.installed.as_ref().is_some_and(|x| x.is_on())))).flatten()
        else {
            continue;
        };
        let root = Root::Doc(doc);
        super::icons::mark(std::slice::from_ref(&root));
        super::shapes::mark(&[root], themed);
    }
}

/// Every frame's theme is rebuilt on the next batch (a new refinement, a sheet that arrived).
pub fn restyle_all() {
    FRAMES.with(|f| {
        f.borrow_mut().iter_mut().for_each(|x| {
            x.input.clear();
            x.dirty = true;
        })
    });
}

/// The observer was disconnected (the top page switched off): keep watching the frames.
pub fn reobserve() {
    FRAMES.with(|f| f.borrow().iter().for_each(|x| super::watch::observe(x.doc.as_ref())));
}

fn mark(doc: &Document) {
    if let Some(i) = index_of(doc) {
        with_frame(i, |f| f.dirty = true);
        super::watch::schedule();
    }
}

fn on_ready(doc: &Document) {
    let Some(i) = index_of(doc) else { return };
    match with_frame(i, |f| f.phase) {
        Some(PagePhase::Pending) => decide(i),
        Some(PagePhase::Off) if super::with(|s| s.memory_loaded) => release(i),
        _ => {}
    }
}

/// A mutation record from a frame's document marks that frame; true when it was one.
pub fn touched(record: &web_sys::MutationRecord) -> bool {
    let Some(target) = record.target() else { return false };
    let doc = match target.owner_document() {
        Some(d) => d,
        None => target.unchecked_into::<Document>(),
    };
    match index_of(&doc) {
        Some(i) => {
            with_frame(i, |f| f.dirty = true);
            true
        }
        None => false,
    }
}

/// The top frame of a dark page asks the worker for the dark layer in its other frames:
/// cross-origin ones don't match the site's registration, though they follow its choice.
pub(super) fn load_others() {
    if !super::is_top() || !super::wanted() || super::document().is_none_or(|d| d.query_selector("iframe, frame").ok().flatten().is_none()) {
        return;
    }
    let message = dusk_chrome::message::to_js(&dusk_core::protocol::dark::DarkRequest::DarkLoadFrames);
    wasm_bindgen_futures::spawn_local(async move {
        let _ = dusk_chrome::runtime::send_message(&message).await;
    });
}
