// Listeners are registered synchronously; wasm init is awaited per message, never at top level.
import init, { agent_settings_changed, debugger_detached, handle_message, handle_port_message, installed, on_command, on_menu, port_closed, resume_runs, set_init_ms, tab_changed } from "./wasm/dusk_worker.js";

const started = performance.now();
// The wasm memory is kept on globalThis for the long-session bench (tests/bench/long_sessions.mjs).
const ready = init({ module_or_path: "./wasm/dusk_worker_bg.wasm" }).then((wasm) => {
  globalThis.duskWasmMemory = wasm.memory;
  set_init_ms(performance.now() - started);
});
// Agent runs a dead worker left running go on; ports wait so a reconnecting panel sees them.
const resumed = ready.then(resume_runs).catch(() => {});

// execute_js without user scripts: serialised into the page's main world by chrome.scripting.
globalThis.duskEvalInPage = async (code) => {
  try { const v = await (0, eval)(code); return { ok: true, value: v === undefined ? null : JSON.parse(JSON.stringify(v) ?? "null") }; }
  catch (e) { return { ok: false, error: `${e.name}: ${e.message}` }; }
};

// dark_fetch_css: run in the asking frame, says whether its document links or imports `url`.
globalThis.duskSheetLinked = (url) => {
  const seen = new Set();
  const inSheets = (sheets) => [...sheets].some((s) => {
    if (!s || seen.has(s)) return false;
    seen.add(s);
    if (s.href === url) return true;
    try { return [...s.cssRules].some((r) => r.styleSheet && inSheets([r.styleSheet])); } catch { return false; }
  });
  const inRoot = (root) => [...root.querySelectorAll("link[rel~=stylesheet i]")].some((l) => l.href === url) || inSheets(root.styleSheets || []) || inSheets(root.adoptedStyleSheets || []);
  if (inRoot(document)) return true;
  return [...document.querySelectorAll("*")].some((el) => el.shadowRoot && inRoot(el.shadowRoot));
};

// Run in each frame of a tab: whether a content layer (page_layer.js, dark_layer.js) is "loaded",
// "missing", or "refused" (the page's CSP refused its WebAssembly build: engine/wasm.js).
globalThis.duskHasLayer = (layer) => globalThis.duskLayers?.[layer]?.doc === document ? "loaded" : globalThis.duskWasmRefused === document ? "refused" : "missing";

// Run in each frame of a tab (isolated world): its URL, and whether the frame above reaches into it
// (same origin) or an agent's listing must ask the frame itself.
globalThis.duskFrameInfo = () => {
  let reachable = window.top === window;
  try { reachable ||= Boolean(window.parent.document); } catch {}
  return { url: location.href, reachable };
};
// Run in an other-origin frame before content.js is injected there: this document is listed.
globalThis.duskMarkFrame = () => void (globalThis.duskFrameListed = document);

// Run in each frame of a tab (isolated world): the text the user selected there.
globalThis.duskSelection = () => String(globalThis.getSelection?.() ?? "");

chrome.runtime.onMessage.addListener((message, sender, sendResponse) => {
  ready.then(() => handle_message(message, sender)).then(sendResponse, (e) => sendResponse({ type: "error", message: String(e) }));
  return true;
});

chrome.runtime.onInstalled.addListener(({ reason }) => ready.then(() => installed(reason)));

// The side panel may only open inside the user's gesture, so before any await; the rest is Rust's.
// Kept on globalThis so tests can run the very handlers Chrome calls.
globalThis.duskOnCommand = (command, tab) => {
  if (command === "open-side-panel" && tab) chrome.sidePanel.open({ windowId: tab.windowId })?.catch?.(() => {});
  return ready.then(() => on_command(command, tab));
};
globalThis.duskOnMenu = (info, tab) => {
  if (info.menuItemId === "ask-dusk" && tab) chrome.sidePanel.open({ windowId: tab.windowId })?.catch?.(() => {});
  return ready.then(() => on_menu(String(info.menuItemId), info.selectionText, tab));
};
chrome.commands.onCommand.addListener(globalThis.duskOnCommand);
chrome.contextMenus.onClicked.addListener(globalThis.duskOnMenu);
chrome.tabs.onUpdated.addListener((tabId, change) => change.url && ready.then(() => tab_changed(tabId)));
chrome.debugger.onDetach.addListener((source, reason) => source.tabId && ready.then(() => debugger_detached(source.tabId, reason)));
chrome.storage.onChanged.addListener((changes, area) => area === "local" && changes.agent_settings && ready.then(() => agent_settings_changed(changes.agent_settings.newValue)));

chrome.runtime.onConnect.addListener((port) => {
  port.onMessage.addListener((message) => resumed.then(() => handle_port_message(port, message)));
  port.onDisconnect.addListener(() => ready.then(() => port_closed(port)));
});
