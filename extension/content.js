// Always on, in every frame, at document_start: answers ping and routes each message to the layer
// that handles it (core's protocol/layer.rs). The layers are loaded on demand and register here.
// Only the top frame answers: the page layer reaches same-origin frames itself.
if (window.top === window) {
  // The slowest DOM reads of the page layer's first RPC, done while the worker injects the layer
  // and this frame is idle (LayerHint in core). The layer takes the result unless the page changed
  // since (dom.rs); the shadow-root loop is the same as there.
  const hints = {
    find_shadow_roots: [{ childList: true, subtree: true }, () => {
      const roots = [], all = document.querySelectorAll("*");
      for (let i = 0, n = all.length; i < n; i++) { const s = all[i].shadowRoot; if (s) roots.push(s); }
      return roots;
    }],
    read_text: [{ childList: true, subtree: true, characterData: true }, () => document.body?.innerText],
  };
  const layers = (globalThis.duskLayers ??= {});
  chrome.runtime.onMessage.addListener((message, sender, sendResponse) => {
    if (sender.id !== chrome.runtime.id) return false;
    const type = String(message?.type);
    if (type === "ping") {
      sendResponse({ type: "pong", version: chrome.runtime.getManifest().version, url: location.href, doc: String(performance.timeOrigin), layers: Object.keys(layers) });
      return false;
    }
    if (Object.hasOwn(hints, type)) {
      sendResponse();
      if (layers.page) return false;
      const [watch, read] = hints[type];
      const ready = { type, doc: document, value: read(), changed: false };
      ready.seen = new MutationObserver(() => { ready.changed = true; ready.seen.disconnect(); });
      ready.seen.observe(document, watch);
      globalThis.duskReady = ready;
      return false;
    }
    const layer = type.startsWith("dark_") ? "dark" : "page";
    if (!layers[layer]) return void sendResponse({ type: "layer_missing", layer });
    return layers[layer](message, sender, sendResponse);
  });
}
