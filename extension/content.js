// Always on, in every frame, at document_start: answers ping and page_text, and routes each other
// message to the layer that handles it (core's protocol/layer.rs). The layers are loaded on demand
// and register here. Only the top frame answers: the page layer reaches same-origin frames itself.
if (window.top === window) {
  const layers = (globalThis.duskLayers ??= {});
  chrome.runtime.onMessage.addListener((message, sender, sendResponse) => {
    if (sender.id !== chrome.runtime.id) return false;
    const type = String(message?.type);
    if (type === "ping") {
      sendResponse({ type: "pong", version: chrome.runtime.getManifest().version, url: location.href, doc: String(performance.timeOrigin), layers: Object.keys(layers) });
      return false;
    }
    // The chat's read needs no layer: the worker makes the text_snapshot from it (core page::text).
    if (type === "page_text") {
      try {
        const headings = [...document.querySelectorAll(String(message.headings))].map((h) => ({ tag: h.tagName, aria_level: h.getAttribute("aria-level"), text: h.innerText ?? "" }));
        sendResponse({ type, title: document.title, text: document.body?.innerText ?? "", headings });
      } catch (e) {
        sendResponse({ type: "error", message: `could not read the page's text: ${e.message}` });
      }
      return false;
    }
    // The page layer's first RPC starts by finding every open shadow root, the slowest DOM read;
    // this frame does it while the worker injects the layer (LayerHint in core), and the layer
    // takes it unless the page changed since (dom.rs, with the same loop).
    if (type === "find_shadow_roots") {
      sendResponse();
      if (layers.page) return false;
      const roots = [], all = document.querySelectorAll("*");
      for (let i = 0, n = all.length; i < n; i++) { const s = all[i].shadowRoot; if (s) roots.push(s); }
      const ready = { type, doc: document, value: roots, changed: false };
      ready.seen = new MutationObserver(() => { ready.changed = true; ready.seen.disconnect(); });
      ready.seen.observe(document, { childList: true, subtree: true });
      globalThis.duskReady = ready;
      return false;
    }
    const layer = type.startsWith("dark_") ? "dark" : "page";
    if (!layers[layer]) return void sendResponse({ type: "layer_missing", layer });
    return layers[layer](message, sender, sendResponse);
  });
}
