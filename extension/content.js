// Bundled by esbuild with the wasm2js build of crates/content; runs synchronously at document_start.
import { handle_message, dark_start, dark_memory_changed } from "../target/pkg/content/dusk_content.js";

// Only the top frame answers: it reaches same-origin frames itself, and a frame answering first would win the reply.
const isTop = window.top === window;

dark_start();
// Idle: the tab that was switched directly must paint first; other tabs follow a moment later.
chrome.storage.onChanged.addListener((changes, area) => area === "local" && requestIdleCallback(() => dark_memory_changed(changes), { timeout: 100 }));
chrome.runtime.onMessage.addListener((message, sender, sendResponse) => {
  if (!isTop) return false;
  // Messages cross into wasm as JSON text: one copy instead of one call per field.
  const answer = () => sendResponse(JSON.parse(handle_message(JSON.stringify(message), sender.id)));
  if (message?.type !== "dark_status") return void answer();
  // After the next frame (or 100 ms in a hidden tab): the worker waits on this before its storage work.
  let sent = false;
  const once = () => sent || (sent = true, answer());
  requestAnimationFrame(() => setTimeout(once));
  setTimeout(once, 100);
  return true;
});
// The popup keeps a port open while it shows, so its switch reaches the page in one hop.
chrome.runtime.onConnect.addListener((port) => {
  if (!isTop || port.name !== "dark") return;
  port.onMessage.addListener((message) => port.postMessage(JSON.parse(handle_message(JSON.stringify(message), port.sender?.id))));
});
