// Always on, in every frame, at document_start: answers ping and routes each message to the layer
// that handles it (core's protocol/layer.rs). The layers are loaded on demand and register here.
// Only the top frame answers: the page layer reaches same-origin frames itself.
if (window.top === window) {
  // Run while the worker injects the page layer: the layer's first walk takes these roots, unless
  // the DOM changed since (dom.rs). Same loop as there.
  const findShadowRoots = () => {
    const roots = [], all = document.querySelectorAll("*");
    for (let i = 0, n = all.length; i < n; i++) { const s = all[i].shadowRoot; if (s) roots.push(s); }
    const found = { doc: document, roots, changed: false };
    found.seen = new MutationObserver(() => { found.changed = true; found.seen.disconnect(); });
    found.seen.observe(document, { childList: true, subtree: true });
    globalThis.duskShadowRoots = found;
  };
  const layers = (globalThis.duskLayers ??= {});
  chrome.runtime.onMessage.addListener((message, sender, sendResponse) => {
    if (sender.id !== chrome.runtime.id) return false;
    const type = String(message?.type);
    if (type === "ping") {
      sendResponse({ type: "pong", version: chrome.runtime.getManifest().version, url: location.href, doc: String(performance.timeOrigin), layers: Object.keys(layers) });
      return false;
    }
    if (type === "find_shadow_roots") {
      sendResponse();
      if (!layers.page) findShadowRoots();
      return false;
    }
    const layer = type.startsWith("dark_") ? "dark" : "page";
    if (!layers[layer]) return void sendResponse({ type: "layer_missing", layer });
    return layers[layer](message, sender, sendResponse);
  });
}
