// Two builds of crates/worker: the dark-mode one (dark mode, the popup, the toolbar, shortcuts,
// the context menu) starts with the worker; the whole one only when an event needs the agents,
// and from then on takes every event. Listeners are registered synchronously; wasm init is
// awaited per event, never at top level.
import initDark, * as dark from "./wasm/dusk_worker_dark.js";
import initWhole, * as whole from "./wasm/dusk_worker.js";

const started = performance.now();
const small = initDark({ module_or_path: "./wasm/dusk_worker_dark_bg.wasm" }).then(() => dark.set_init_ms(performance.now() - started));
// Runs a dead worker left running go on in the whole build; with none, their boundaries are lifted
// first, so no new run's can be.
const checked = small.then(() => dark.runs_to_resume()).catch(() => false);
let agents = null;
// The whole build, started once; it resolves after resuming runs, so a reconnecting panel sees them.
function withAgents() {
  agents ??= checked.then(() => {
    const since = performance.now();
    return initWhole({ module_or_path: "./wasm/dusk_worker_bg.wasm" }).then((wasm) => {
      // The wasm memory is kept on globalThis for the long-session bench (tests/bench/long_sessions.mjs).
      globalThis.duskWasmMemory = wasm.memory;
      whole.set_init_ms(performance.now() - since);
    });
  }).then(() => whole.resume_runs().catch(() => {})).then(() => whole);
  return agents;
}
checked.then((resume) => resume && withAgents());
// The build that takes an event now: the whole one once it was started (after the runs check).
const current = () => checked.then(() => agents ?? dark);

// The dark-mode build answers `undefined` to what is not its own. Nothing is answered before the
// runs check: a run left running is seen only by the whole build, which resumes it.
async function answer(message, sender) {
  await checked;
  if (!agents) {
    const reply = await dark.handle_message(message, sender);
    if (reply !== undefined) return reply;
  }
  return (await withAgents()).handle_message(message, sender);
}

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
  answer(message, sender).then(sendResponse, (e) => sendResponse({ type: "error", message: String(e) }));
  return true;
});

chrome.runtime.onInstalled.addListener(({ reason }) => current().then((m) => m.installed(reason)));

// The side panel may only open inside the user's gesture, so before any await; the rest is Rust's.
// Kept on globalThis so tests can run the very handlers Chrome calls.
globalThis.duskOnCommand = (command, tab) => {
  if (command === "open-side-panel" && tab) chrome.sidePanel.open({ windowId: tab.windowId })?.catch?.(() => {});
  return current().then((m) => m.on_command(command, tab));
};
globalThis.duskOnMenu = (info, tab) => {
  if (info.menuItemId === "ask-dusk" && tab) chrome.sidePanel.open({ windowId: tab.windowId })?.catch?.(() => {});
  return current().then((m) => m.on_menu(String(info.menuItemId), info.selectionText, tab));
};
chrome.commands.onCommand.addListener(globalThis.duskOnCommand);
chrome.contextMenus.onClicked.addListener(globalThis.duskOnMenu);
chrome.tabs.onUpdated.addListener((tabId, change) => change.url && current().then((m) => m.tab_changed(tabId)));
// Only the whole build attaches the debugger, and it reads the agent settings when it starts.
chrome.debugger.onDetach.addListener((source, reason) => source.tabId && agents?.then((m) => m.debugger_detached(source.tabId, reason)));
chrome.debugger.onEvent.addListener((source, method, params) => source.tabId && method.startsWith("Page.javascriptDialog") && agents?.then((m) => m.debugger_event(source.tabId, method, params)));
chrome.storage.onChanged.addListener((changes, area) => area === "local" && changes.agent_settings && agents?.then((m) => m.agent_settings_changed(changes.agent_settings.newValue)));

chrome.runtime.onConnect.addListener((port) => {
  port.onMessage.addListener((message) => withAgents().then((m) => m.handle_port_message(port, message)));
  port.onDisconnect.addListener(() => agents?.then((m) => m.port_closed(port)));
});
