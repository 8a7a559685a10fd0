// The page layer (crates/content, feature "page"): injected by the worker on its first RPC to a tab.
// `dusk-engine` is the WebAssembly build, or the wasm2js one where the page's CSP refuses wasm (build.sh).
import { loaded, handle_message } from "dusk-engine";

if (loaded) {
  const layers = (globalThis.duskLayers ??= {});
  // Messages cross into wasm as JSON text: one copy instead of one call per field.
  const page = (message, sender, sendResponse) => {
    let reply;
    try {
      reply = handle_message(JSON.stringify(message), sender.id);
    } catch (e) {
      // A trap, or an exception thrown through the engine, can leave its memory torn: this layer
      // steps aside and the worker loads a fresh one (core's protocol/crash.rs words the error).
      if (layers.page === page) delete layers.page;
      return void sendResponse({ type: "layer_crashed", layer: "page", error: String(e?.message || e) });
    }
    sendResponse(JSON.parse(reply));
  };
  // Keyed to its document, like the dark layer (dark_layer.js says why).
  page.doc = document;
  layers.page = page;
}
