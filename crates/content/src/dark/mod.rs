//! Dark mode in the page: reads the site's memory, applies core's theme to every style scope,
//! follows DOM changes, and removes itself without a trace when switched off.

mod apply;
mod batch;
mod collect;
mod events;
mod fallback;
mod foreign;
mod frames;
mod grow;
mod hold;
mod icons;
mod images;
mod inline;
mod install;
mod marks;
mod memory;
mod own;
mod parsing;
mod prepare;
mod quality;
mod refine;
mod requests;
mod shapes;
mod sheet_growth;
mod translucent;
mod watch;

use apply::*;
pub(crate) use batch::run_batch;
pub(crate) use events::*;
use fallback::*;
use marks::shapes_resized;
pub use memory::memory_changed;
use memory::top_host;
use prepare::*;
pub use refine::*;
pub use requests::*;

use collect::{Root, SheetCache};
use dusk_core::dark::adjust::{Adjust, Adjustments, GLOBAL_KEY as ADJUST_KEY, SITES_KEY as ADJUST_SITES_KEY};
use dusk_core::dark::detect::is_already_dark;
use dusk_core::dark::own::verdict_waits;
use dusk_core::dark::site::{Memory, AUTO_KEY, SITES_KEY};
use dusk_core::dark_agent::versions::theme_key;
use dusk_core::protocol::dark::{DarkContentRequest, DarkContentResponse, PageDarkStatus, PagePhase};
use install::Installed;
use js_sys::Array;
use std::cell::RefCell;
use wasm_bindgen::{JsCast, JsValue};

/// Set on <html> once Dusk has taken over; it switches the pre-paint fallback CSS off.
const CLAIM_ATTR: &str = "data-dusk";

#[derive(Default)]
struct State {
    host: Option<String>,
    memory: Memory,
    /// The stored memory has been read; until then the fallback must stay, whatever the DOM does.
    memory_loaded: bool,
    phase: PagePhase,
    roots: Vec<Root>,
    installed: Vec<Installed>,
    cache: SheetCache,
    last_input: Vec<dusk_core::dark::Scope>,
    last_build_ms: f64,
    last_collect_ms: f64,
    /// A theme built ahead of time (when the popup opened) and the page's dark verdict then.
    prepared: Option<Prepared>,
    /// The next theme change happens on a painted page: hold transitions off for it.
    freeze_next: bool,
    /// Whether the pre-paint fallback CSS is known to be off for this document.
    fallback_settled: bool,
    /// Started while the document was loading: only then can the registered fallback CSS be in it.
    started_loading: bool,
    /// The document this layer started in: a frame's initial about:blank hands its window (and
    /// this layer's listeners) on to the page that replaces it, which gets a layer of its own.
    doc: Option<web_sys::Document>,
    /// The site's refinement (Quick/Thorough), layered after the instant theme in the document.
    refine: String,
    /// The brightness, contrast, sepia and grayscale the theme is built with (stored, or the popup's preview).
    adjust: Adjust,
    /// A `dark_switch` that arrived before the stored memory was read.
    switched_early: Option<bool>,
    /// The switch is being rehearsed (nothing paints): frames are left alone.
    rehearsing: bool,
    /// The site's own dark design is shown (its dark-scheme conditions on in place): the
    /// document's CSS then only raises text under AA.
    own: Option<String>,
    /// The page changed since its text was last measured for the own design.
    own_dirty: bool,
    /// The selectors of the document's rules that may paint text translucent (core's
    /// `translucent::selectors` of `last_input`); None until asked after a new input.
    translucent: Option<Vec<String>>,
    /// A background image was decoded since the last build: the theme is built again.
    images_arrived: bool,
    /// A sheet's @import arrived after the sheet was read: the next batch reads the scopes whole.
    imports_arrived: bool,
    /// The verdict waits for linked sheets still loading; the batch their load runs judges.
    judge_waits: bool,
    /// The custom properties' roles of the theme built last (None: the next batch builds it all).
    roles: Option<dusk_core::dark::theme::Roles>,
    /// Each scope's sheets as that build (or the last growth) saw them (`sheet_growth::marks`).
    marks: Vec<Vec<dusk_core::dark::growth::SheetMark>>,
}

#[derive(Clone)]
struct Prepared {
    shadow_roots: Vec<web_sys::ShadowRoot>,
    input: Vec<dusk_core::dark::Scope>,
    css: Vec<String>,
    /// The document's CSS for the switching frame: transitions off, big selects held at their width.
    freeze: String,
    /// Sheets already holding `css`, parsed but not adopted, so a switch-on only adopts them.
    sheets: Vec<Installed>,
    already_dark: bool,
    /// The page shows its own dark design under the dark scheme, with this text to raise.
    own: Option<own::Measured>,
    /// The document's translucent selectors, and the text under them the theme leaves below AA.
    translucent: (Vec<String>, Vec<(web_sys::Element, String)>),
    roles: dusk_core::dark::theme::Roles,
}

thread_local! {
    static STATE: RefCell<State> = RefCell::new(State::default());
}

fn with<R>(f: impl FnOnce(&mut State) -> R) -> R {
    STATE.with(|s| f(&mut s.borrow_mut()))
}

fn document() -> Option<web_sys::Document> {
    web_sys::window()?.document()
}

/// Called synchronously at document_start.
#[inline(never)]
pub fn start() {
    let host = top_host();
    let loading = document().is_some_and(|d| d.ready_state() == "loading");
    with(|s| {
        s.host = host.clone();
        s.started_loading = loading;
        s.doc = document();
    });
    if host.is_none() {
        return;
    }
    watch::repaint_with(inline::repainter());
    watch::listen_document_events();
    wasm_bindgen_futures::spawn_local(async {
        // One round trip: every frame of a dark site makes it before it can theme.
        let theme = with(|s| s.host.clone()).map(|h| theme_key(&h)).unwrap_or_default();
        let stored = dusk_chrome::storage::local_get_many(&[SITES_KEY, AUTO_KEY, &theme, ADJUST_KEY, ADJUST_SITES_KEY]).await.unwrap_or(JsValue::UNDEFINED);
        let get = |key: &str| js_sys::Reflect::get(&stored, &key.into()).ok().filter(|v| !v.is_undefined());
        let (sites, auto, refine) = (get(SITES_KEY), get(AUTO_KEY), get(&theme).and_then(|v| v.as_string()));
        let json = |v: Option<JsValue>| v.and_then(memory::stored_json);
        with(|s| {
            s.memory = Memory::from_stored(json(sites), json(auto));
            // Read with the memory, so the first theme this page paints is already adjusted.
            s.memory.adjust = Adjustments::from_stored(json(get(ADJUST_KEY)), json(get(ADJUST_SITES_KEY)));
            s.adjust = s.host.as_deref().map(|h| s.memory.adjust_for(h)).unwrap_or_default();
            // A switch that reached the page before its memory did is the newer choice.
            if let (Some(on), Some(host)) = (s.switched_early.take(), s.host.clone()) {
                s.memory.set(&host, on);
            }
            s.memory_loaded = true;
            s.refine = refine.unwrap_or_default();
        });
        sync();
        frames::load_others();
    });
}

/// A same-origin frame's document, themed from this (top) layer; false: it runs its own.
pub fn adopt_frame(doc: web_sys::Document) -> bool {
    frames::adopt(doc)
}

fn is_top() -> bool {
    web_sys::window().is_some_and(|w| w.top().ok().flatten().is_some_and(|t| js_sys::Object::is(&t, &w)))
}

/// Dark mode is on for the top page's site.
fn wanted() -> bool {
    with(|s| s.host.as_deref().is_some_and(|h| s.memory.is_on(h)))
}

/// Brings the page in line with the memory.
#[inline(never)]
fn sync() {
    let (wanted, phase) = (wanted(), with(|s| s.phase));
    match (wanted, phase) {
        (true, PagePhase::Off) => switch_on(),
        (false, PagePhase::Off) => release_fallback(),
        (false, _) => switch_off(),
        (true, _) => {}
    }
    if !with(|s| s.rehearsing) {
        frames::sync(wanted);
    }
}

#[inline(never)]
fn switch_on() {
    let loading = document().is_some_and(|d| d.ready_state() == "loading");
    with(|s| s.freeze_next = !loading);
    if loading {
        // The fallback CSS covers the first paint; the real theme follows as sheets arrive.
        with(|s| s.phase = PagePhase::Pending);
        add_root(Root::Doc(match document() {
            Some(d) => d,
            None => return,
        }));
        run_batch();
    } else {
        with(|s| s.phase = PagePhase::Pending);
        if let Some(d) = document() {
            add_root(Root::Doc(d));
        }
        decide();
    }
}

#[inline(never)]
fn switch_off() {
    if let Some(css) = with(|s| (s.phase == PagePhase::Active).then(|| freeze_css(&s.last_input))) {
        freeze(&css);
    }
    watch::disconnect();
    parsing::stop();
    frames::reobserve();
    icons::unmark(&with(|s| s.roots.clone()));
    shapes::unmark(&with(|s| s.roots.clone()));
    own::switch_off();
    translucent::remove();
    own::unmark(&with(|s| s.roots.clone()));
    with(|s| s.roots.iter().for_each(inline::clear));
    with(|s| {
        for i in s.installed.drain(..) {
            i.remove();
        }
        s.roots.clear();
        s.last_input.clear();
        s.own = None;
        s.roles = None;
        s.marks.clear();
        grow::Pending::take();
        s.phase = PagePhase::Off;
    });
    release_fallback();
}

/// Once the DOM is parsed: leave a page that is already dark alone, theme the rest.
#[inline(never)]
fn decide() {
    recheck_fallback();
    release_fallback();
    let Some(document) = document() else { return };
    // Judged before a linked sheet is in, a site's own dark design reads as light (its dark rules
    // aren't there yet); till window load the verdict waits, themed meanwhile.
    let waits = with(|s| s.prepared.is_none()) && verdict_waits(&document.ready_state(), own::sheets_loading(&document));
    with(|s| s.judge_waits = waits);
    if waits {
        return run_batch();
    }
    let known = with(|s| s.prepared.as_ref().map(|p| p.shadow_roots.clone()));
    for root in known.unwrap_or_else(|| collect::shadow_roots_in(&Root::Doc(document.clone()))) {
        add_root(Root::Shadow(root));
    }
    let (roots, rehearsing) = with(|s| (s.roots.clone(), s.rehearsing));
    let (dark, own) = match with(|s| s.prepared.as_ref().map(|p| (p.already_dark, p.own.clone()))) {
        // A rehearsal changes nothing in the page: the site's conditions stay as written.
        Some(verdict) if rehearsing => verdict,
        Some((verdict, own)) => {
            if own.is_some() {
                own::switch_on(&roots, &known_unreadable);
            }
            (verdict, own)
        }
        None => {
            with(|s| s.installed.iter().for_each(|i| i.set_enabled(false)));
            // The site's own dark rules are switched on in place first, as the browser's dark scheme would.
            let own = own::judge(&document, &roots, &known_unreadable);
            let dark = own.is_some() || page_is_dark_held(&document);
            with(|s| s.installed.iter().for_each(|i| i.set_enabled(true)));
            (dark, own)
        }
    };
    if let Some(raised) = own {
        let css = if rehearsing { String::new() } else { own::mark(&document, &raised) };
        with(|s| {
            s.phase = PagePhase::Active;
            s.own = Some(css);
        });
        run_batch();
        return;
    }
    if dark {
        switch_off();
        with(|s| s.phase = PagePhase::AlreadyDark);
        return;
    }
    with(|s| s.phase = PagePhase::Active);
    icons::mark(&with(|s| s.roots.clone()));
    // Elements parsed since the last batch carry their inline colours' markers: shapes read their own paint through them.
    with(|s| s.roots.iter().for_each(inline::refresh));
    // Before the theme goes on, so a big drawing is dark in the very frame the page turns dark.
    shapes::mark(&with(|s| s.roots.clone()), theme_on());
    run_batch();
}

/// A sheet the cache already found cross-origin: asking it for its rules again would only throw.
fn known_unreadable(sheet: &web_sys::CssStyleSheet) -> bool {
    with(|s| s.cache.is_unreadable(sheet))
}

#[inline(never)]
fn page_is_dark(document: &web_sys::Document) -> bool {
    let Some(window) = document.default_view() else { return false };
    let read = |el: Option<web_sys::Element>, prop: &str| {
        el.and_then(|e| window.get_computed_style(&e).ok().flatten()).and_then(|st| st.get_property_value(prop).ok()).unwrap_or_default()
    };
    let html = document.document_element();
    let body = document.body().map(|b| b.unchecked_into::<web_sys::Element>());
    is_already_dark(&read(html, "background-color"), &read(body.clone(), "background-color"), &read(body, "color"))
}

/// Hides the body's contents from styling while the page's own colours are read with our sheets
/// off: only html and body restyle, and the rest of the document restyles once, when the theme is back.
const HOLD_BODY_CSS: &str = "body { content-visibility: hidden !important; }";

/// `page_is_dark` with our sheets off, read without restyling every element twice.
#[inline(never)]
fn page_is_dark_held(document: &web_sys::Document) -> bool {
    let hold = document.default_view().and_then(|w| Installed::in_realm(Root::Doc(document.clone()), &w)).map(|mut h| {
        h.set(HOLD_BODY_CSS);
        h
    });
    let dark = page_is_dark(document);
    if let Some(h) = hold {
        h.remove();
    }
    dark
}

#[inline(never)]
fn add_root(root: Root) {
    let known = with(|s| s.roots.iter().any(|r| js_sys::Object::is(r.js(), root.js())));
    if known {
        return;
    }
    parsing::observe(root.js());
    with(|s| {
        s.roots.push(root.clone());
        let ready = s.prepared.as_mut().and_then(|p| {
            let i = p.sheets.iter().position(|i| js_sys::Object::is(i.root.js(), root.js()))?;
            Some(p.sheets.remove(i))
        });
        s.installed.extend(ready.or_else(|| Installed::new(root)));
    });
}

fn now() -> f64 {
    thread_local! {
        // Looked up once: a batch reads the clock a few times.
        static CLOCK: Option<web_sys::Performance> = web_sys::window().and_then(|w| w.performance());
    }
    CLOCK.with(|c| c.as_ref().map_or(0.0, |p| p.now()))
}
