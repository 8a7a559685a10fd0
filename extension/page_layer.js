// The page layer (crates/content, feature "page"): injected by the worker on its first RPC to a tab.
import { handle_message } from "../target/pkg/content-page/dusk_content.js";

// Messages cross into wasm as JSON text: one copy instead of one call per field.
const page = (message, sender, sendResponse) => void sendResponse(JSON.parse(handle_message(JSON.stringify(message), sender.id)));
// Keyed to its document, like the dark layer (dark_layer.js says why).
page.doc = document;
(globalThis.duskLayers ??= {}).page = page;
