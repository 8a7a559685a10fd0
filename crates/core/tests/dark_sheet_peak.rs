//! A big sheet is read one top-level rule at a time by every pass over the page's CSS: the dark
//! layer's WebAssembly memory never shrinks, so a pass that held a 1.4 MB sheet parsed whole
//! (several times its text) left the tab that much bigger for good.
use dusk_core::dark::theme::{build_added, build_with_roles};
use dusk_core::dark::{css, freeze, own, translucent, Scope, Sheet};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

struct Counting;
static NOW: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        PEAK.fetch_max(NOW.fetch_add(l.size(), Relaxed) + l.size(), Relaxed);
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        NOW.fetch_sub(l.size(), Relaxed);
        unsafe { System.dealloc(p, l) }
    }
}

#[global_allocator]
static A: Counting = Counting;

/// The most bytes `f` held at once beyond what was live before it, and its result.
fn peak<T>(f: impl FnOnce() -> T) -> (usize, T) {
    let before = NOW.load(Relaxed);
    PEAK.store(before, Relaxed);
    let out = f();
    (PEAK.load(Relaxed) - before, out)
}

/// A bootstrap-like sheet: thousands of rules, a few that transition or dim, and a dark block.
fn big_sheet() -> String {
    let mut css = String::from(".fade { opacity: 0.5; transition: opacity 0.15s linear; }\n");
    for i in 0..6000 {
        css.push_str(&format!(
            ".card-{i} > .body, .btn-{i}:hover {{ color: rgb(33, 37, {}); background-color: rgb(255, 255, 255); padding: 0.75rem 1.25rem; border: 1px solid rgba(0, 0, 0, 0.125); }}\n",
            i % 255
        ));
        if i % 500 == 0 {
            css.push_str(&format!("@media (min-width: {}px) {{ .col-{i} {{ flex: 0 0 50%; max-width: 50%; }} }}\n", 500 + i));
        }
    }
    css.push_str("@media (prefers-color-scheme: dark) { .logo { color: rgb(250, 250, 250); } }\n");
    css
}

// One test: the allocator's counters are the process's, and tests run on threads of their own.
#[test]
fn passes_over_a_big_sheet_never_hold_it_parsed_whole() {
    let text = big_sheet();
    let size = text.len();
    let scope = Scope { sheets: vec![Sheet { css: text.as_str().into(), media: String::new() }], ..Default::default() };

    // The control: the sheet parsed whole takes more than its own size.
    let (whole, rules) = peak(|| css::parse_sheet(&text));
    assert!(rules.len() > 6000 && whole > size, "parsed whole: {whole} bytes for a {size}-byte sheet");
    drop(rules);

    let (used, selectors) = peak(|| translucent::selectors(&scope));
    assert_eq!(selectors, [".fade"]);
    assert!(used < size / 20, "translucent selectors held {used} bytes for a {size}-byte sheet");

    let (used, frozen) = peak(|| freeze::freeze_css(&scope));
    assert_eq!(frozen, ".fade{transition:none!important}\n");
    assert!(used < size / 20, "the freezing sheet held {used} bytes for a {size}-byte sheet");

    let (used, darkens) = peak(|| own::may_darken(std::slice::from_ref(&scope)));
    assert!(darkens);
    assert!(used < size / 20, "the dark-scheme check held {used} bytes for a {size}-byte sheet");

    // A whole new sheet the page adds later is built as the full build would write it.
    let (_, roles) = build_with_roles(&[Scope::default()]);
    let (used, added) = peak(|| build_added(&roles, &scope, &|_| false));
    let added = added.expect("no custom property");
    let written: usize = added.rules.iter().map(|r| r.len()).sum();
    assert!(added.rules.iter().any(|r| r.starts_with(".card-7 > .body, .btn-7:hover{color:")), "{:?}", &added.rules[..3]);
    assert!(used < 3 * written + size / 10, "the added sheet's build held {used} bytes for {written} written from a {size}-byte sheet");
}
