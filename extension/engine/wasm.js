// A layer's engine as WebAssembly, compiled from the bundled bytes on the spot: V8 compiles wasm
// lazily, so this costs about a millisecond where the same engine as wasm2js JS costs tens.
import * as glue from "dusk-glue";
import bytes from "dusk-wasm";

export * from "dusk-glue";
export let loaded = false;
try {
  // "g": the glue's module name in the wasm's imports (crates/content/short_imports.mjs).
  const { exports } = new WebAssembly.Instance(new WebAssembly.Module(bytes), { g: glue });
  glue.__wbg_set_wasm(exports);
  loaded = true;
} catch {
  // A page CSP without 'wasm-unsafe-eval' refuses WebAssembly even to content scripts: the worker
  // then loads the layer's wasm2js build (content_rpc.rs), straight away in this document.
  globalThis.duskWasmRefused = document;
}
