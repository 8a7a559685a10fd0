// The dark layer (crates/content, feature "dark"): registered at document_start for dark sites,
// injected when the popup or the dark agent first needs it elsewhere. `dusk-engine` is the
// WebAssembly build, or the wasm2js one where the page's CSP refuses wasm (build.sh).
import { loaded, dark_message, dark_start, dark_memory_changed, dark_frame } from "dusk-engine";

// Refused: the worker loads the wasm2js build into every frame still without a layer, this one too.
if (!loaded) chrome.runtime.sendMessage({ type: "dark_load_frames" }).catch(() => {});
else start();

function start() {
  const answer = (message, id) => JSON.parse(dark_message(JSON.stringify(message), id));
  const dark = (message, sender, sendResponse) => {
    if (message.type !== "dark_status") return void sendResponse(answer(message, sender.id));
    // After the next frame (or 100 ms in a hidden tab): the worker waits on this before its storage work.
    let sent = false;
    const once = () => sent || ((sent = true), sendResponse(answer(message, sender.id)));
    requestAnimationFrame(() => setTimeout(once));
    setTimeout(once, 100);
    return true;
  };
  // A frame's initial about:blank hands its window on to the page replacing it: that page gets a
  // layer of its own, and this one's listeners go quiet.
  dark.doc = document;
  // Same-origin frames ask the top frame's layer to theme them (build.sh's banner): its engine is warm.
  dark.frame = (doc) => dark_frame(doc);
  (globalThis.duskLayers ??= {}).dark = dark;
  const current = () => globalThis.duskLayers.dark === dark;
  dark_start();
  // Idle: the tab that was switched directly must paint first; other tabs follow a moment later.
  chrome.storage.onChanged.addListener((changes, area) => area === "local" && current() && requestIdleCallback(() => dark_memory_changed(changes), { timeout: 100 }));
  // The popup keeps a port open while it shows, so its switch reaches the page in one hop.
  chrome.runtime.onConnect.addListener((port) => {
    if (window.top !== window || port.name !== "dark" || !current()) return;
    port.onMessage.addListener((message) => port.postMessage(answer(message, port.sender?.id)));
  });
}
