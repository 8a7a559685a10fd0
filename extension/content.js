// Always on, in every frame, at document_start: answers ping and the DOM reads the chat and an
// agent start with (page_text, page_facts), and routes each other message to the layer that
// handles it (core's protocol/layer.rs). The layers are loaded on demand and register here. Only
// the top frame answers, and an other-origin frame an agent lists (the worker marks it first and
// injects this file there): the page layer reaches same-origin frames itself.
if ((window.top === window || globalThis.duskFrameListed === document) && globalThis.duskRouted !== document) {
  globalThis.duskRouted = document;
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
    // The page layer's first walk starts by finding every open shadow root, the slowest DOM read;
    // this frame does it while the worker injects the layer (LayerHint in core).
    if (type === "find_shadow_roots") {
      sendResponse();
      if (!layers.page) hand(shadowRoots(document));
      return false;
    }
    // An agent's first look needs no layer: core's page::summary counts and cuts these reads.
    if (type === "page_facts") {
      try {
        sendResponse(pageFacts(message));
      } catch (e) {
        sendResponse({ type: "error", message: `could not read the page: ${e.message}` });
      }
      return false;
    }
    // An action's step waits until the page stops changing (core's after_action sets the times).
    if (type === "wait_quiet") {
      const start = performance.now(), quiet = Number(message.quiet_ms) || 50, max = Number(message.max_ms) || 500;
      let last = start;
      const watch = new MutationObserver(() => (last = performance.now()));
      watch.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
      const check = () => {
        const now = performance.now();
        if (now - last < quiet && now - start < max) return void setTimeout(check, Math.min(quiet - (now - last), max - (now - start)));
        watch.disconnect();
        sendResponse({ type: "quiet", waited_ms: now - start, settled: now - last >= quiet });
      };
      setTimeout(check, quiet);
      return true;
    }
    const layer = type.startsWith("dark_") ? "dark" : "page";
    if (!layers[layer]) return void sendResponse({ type: "layer_missing", layer });
    return layers[layer](message, sender, sendResponse);
  });

  // An indexed loop: for-of over a NodeList of every element cost 2-4x as much.
  const shadowRoots = (root) => {
    const out = [], all = root.querySelectorAll("*");
    for (let i = 0, n = all.length; i < n; i++) { const s = all[i].shadowRoot; if (s) out.push(s); }
    return out;
  };
  // The page layer's first walk takes these unless a node was added or removed since (dom.rs).
  const hand = (roots) => {
    globalThis.duskReady?.seen?.disconnect();
    const ready = { type: "find_shadow_roots", doc: document, value: roots, changed: false };
    ready.seen = new MutationObserver(() => { ready.changed = true; ready.seen.disconnect(); });
    ready.seen.observe(document, { childList: true, subtree: true });
    globalThis.duskReady = ready;
  };
  // Only the attributes an element has: a page may have thousands of these.
  const facts = (el) => {
    const f = { tag: el.localName };
    for (const a of ["type", "role", "tabindex", "contenteditable"]) { const v = el.getAttribute(a); if (v !== null) f[a] = v; }
    if (el.hasAttribute("href")) f.href = true;
    if (el.hasAttribute("onclick")) f.onclick = true;
    return f;
  };
  const tags = (d, ...names) => names.reduce((n, t) => n + d.getElementsByTagName(t).length, 0);
  // Text as written, as the layer names elements: innerText would apply text-transform and drop hidden labels.
  const text = (el) => el?.textContent ?? "";
  function pageFacts({ candidates, text_limit }) {
    // Every document and open shadow root, breadth-first, as the page layer walks them (walk.rs).
    const docs = [document], shadows = [], roots = [document];
    for (let i = 0; i < roots.length && roots.length < 512; i++) {
      for (const frame of roots[i].querySelectorAll("iframe")) {
        let d = null;
        try { d = frame.contentDocument; } catch {}
        if (d) roots.push(d), docs.push(d);
      }
      // Not handed to the layer: its first walk may be seconds away, and a root attached since adds no node.
      for (const s of shadowRoots(roots[i])) roots.push(s), shadows.push(s);
    }
    // Text from the top, reading only boxes no taller than a few screens, so a huge page costs its first screens.
    const tall = Math.max(innerHeight, 100) * 3;
    let lines = "";
    const gather = (el, depth) => {
      if (lines.length > text_limit) return;
      const r = el.getBoundingClientRect();
      if (r.height > tall && depth < 12 && el.childElementCount > 0) {
        for (let c = el.firstElementChild; c && lines.length <= text_limit; c = c.nextElementSibling) gather(c, depth + 1);
      } else if (r.width > 0 && r.height > 0 && el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) {
        for (const line of (el.innerText ?? "").split("\n")) {
          const t = line.trim();
          if (t && lines.length <= text_limit) lines += t + "\n";
        }
      }
    };
    if (document.body && text_limit > 0) gather(document.body, 0);
    // Focus, through open shadow roots and same-origin frames.
    let el = document.activeElement;
    for (let k = 0; k < 32 && el; k++) {
      let inner = el.shadowRoot?.activeElement;
      try { inner ??= el.localName === "iframe" ? el.contentDocument?.activeElement : null; } catch {}
      if (!inner) break;
      el = inner;
    }
    let focused = null;
    // Nothing focused is the body, whose whole text is not worth reading for nothing.
    if (el && el.localName !== "body" && el.localName !== "html") {
      const attr = (n) => el.getAttribute(n), prev = el.previousElementSibling;
      let byFor = null;
      try { byFor = el.id ? el.getRootNode().querySelector(`label[for="${CSS.escape(el.id)}"]`) : null; } catch {}
      focused = { tag: el.localName, id: el.id ?? "", type: attr("type"), value: attr("value"), label: text(byFor).trim() || text(el.closest("label")).trim() || null,
        aria_label: attr("aria-label"), placeholder: attr("placeholder"), title: attr("title"), name: attr("name"), alt: attr("alt"), src: attr("src"),
        prev_label: prev?.localName === "label" && !prev.hasAttribute("for") ? text(prev) : null, shown: text(el).slice(0, 320) };
    }
    const de = document.documentElement;
    return {
      type: "page_facts", url: location.href, title: document.title, layer: Boolean(layers.page), text: lines, focused,
      viewport: { width: innerWidth, height: innerHeight }, scroll: { x: scrollX, y: scrollY }, page: { width: de?.scrollWidth ?? 0, height: de?.scrollHeight ?? 0 },
      documents: docs.map((d) => ({
        links: d.links.length, images: d.images.length, forms: d.forms.length, selects: tags(d, "select"), buttons: tags(d, "button", "summary"), textareas: tags(d, "textarea"),
        input_types: Array.from(d.getElementsByTagName("input"), (i) => i.getAttribute("type")),
        editables: [...d.querySelectorAll("[contenteditable]:not([contenteditable=false]):not(input,textarea)")].filter((e) => !e.hasAttribute("role")).length,
        roles: Array.from(d.querySelectorAll("[role]"), facts),
      })),
      shadow_roots: shadows.map((s) => ({ candidates: Array.from(s.querySelectorAll(candidates), facts), forms: s.querySelectorAll("form").length })),
    };
  }
}
