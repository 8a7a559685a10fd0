//! The theme build's peak heap on CSS files given as arguments: what a layer's wasm memory keeps for good.
mod theme_input;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

struct Counting;
static NOW: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let n = NOW.fetch_add(l.size(), Relaxed) + l.size();
        PEAK.fetch_max(n, Relaxed);
        System.alloc(l)
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        NOW.fetch_sub(l.size(), Relaxed);
        System.dealloc(p, l)
    }
}
#[global_allocator]
static A: Counting = Counting;

fn main() {
    let scope = theme_input::scope_from_args();
    let before = NOW.load(Relaxed);
    PEAK.store(before, Relaxed);
    let out = dusk_core::dark::build(std::slice::from_ref(&scope));
    let mb = |b: usize| b as f64 / 1048576.0;
    println!(
        "input {:.2} MB, output {:.2} MB, peak {:.2} MB above the input, live after {:.2}",
        mb(before),
        mb(out[0].len()),
        mb(PEAK.load(Relaxed) - before),
        mb(NOW.load(Relaxed) - before)
    );
}
