// Bundled by esbuild with the wasm2js build of crates/content; runs synchronously at document_start.
import { handle_message } from "../target/pkg/content/dusk_content.js";

chrome.runtime.onMessage.addListener((message, sender, sendResponse) => {
  sendResponse(handle_message(message, sender.id));
});
