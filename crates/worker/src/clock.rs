//! Epoch milliseconds with sub-millisecond steps, for the runtime's timestamps and step timings.

use std::cell::Cell;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
}

thread_local! {
    static ORIGIN: Cell<Option<f64>> = const { Cell::new(None) };
}

pub fn now_ms() -> f64 {
    let origin = ORIGIN.with(|o| *o.get().get_or_insert_with(|| js_sys::Date::now() - performance_now()));
    ORIGIN.with(|o| o.set(Some(origin)));
    origin + performance_now()
}
