// The page layer (crates/content, feature "page"): injected by the worker on its first RPC to a tab.
// `dusk-engine` is the WebAssembly build, or the wasm2js one where the page's CSP refuses wasm (build.sh).
import { loaded, handle_message } from "dusk-engine";

if (loaded) {
  // Messages cross into wasm as JSON text: one copy instead of one call per field.
  const page = (message, sender, sendResponse) => void sendResponse(JSON.parse(handle_message(JSON.stringify(message), sender.id)));
  // Keyed to its document, like the dark layer (dark_layer.js says why).
  page.doc = document;
  (globalThis.duskLayers ??= {}).page = page;
}
