// Listeners are registered synchronously; wasm init is awaited per message, never at top level.
import init, { handle_message, set_init_ms } from "./wasm/dusk_worker.js";

const started = performance.now();
const ready = init({ module_or_path: "./wasm/dusk_worker_bg.wasm" }).then(() => set_init_ms(performance.now() - started));

chrome.runtime.onMessage.addListener((message, _sender, sendResponse) => {
  ready.then(() => handle_message(message)).then(sendResponse, (e) => sendResponse({ type: "error", message: String(e) }));
  return true;
});
