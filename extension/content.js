// Always on, in every frame, at document_start: answers ping and the DOM reads the chat and an
// agent start with (page_text, page_facts), and routes each other message to the layer that
// handles it (core's protocol/layer.rs). The layers are loaded on demand and register here. Only
// the top frame answers, and an other-origin frame an agent lists (the worker marks it first and
// injects this file there): the page layer reaches same-origin frames itself.
import { read, call } from "./unshadowed.js";
import { unseenText, shownText } from "./unseen_text.js";
import { pageBlocks } from "./page_blocks.js";

// Every DOM read below goes through `read` and `call`: a form's fields and a document's named
// elements can shadow its members (unshadowed.js).
if ((window.top === window || globalThis.duskFrameListed === document) && globalThis.duskRouted !== document) {
  globalThis.duskRouted = document;
  const layers = (globalThis.duskLayers ??= {});
  chrome.runtime.onMessage.addListener((message, sender, sendResponse) => {
    if (sender.id !== chrome.runtime.id) return false;
    const type = String(message?.type);
    // The chat's read needs no layer: the worker makes the text_snapshot from it (core page::text).
    // The port's listener after the answer: its first use costs the page a moment the read need not wait for.
    if (type === "page_text") return sendResponse(readText(message)), void listenForReads();
    return answer(type, message, sender, sendResponse);
  });
  // Every other message, apart from the read: a new tab compiles each function it runs, the read's alone.
  function answer(type, message, sender, sendResponse) {
    if (type === "ping") {
      sendResponse({ type: "pong", version: chrome.runtime.getManifest().version, url: location.href, doc: String(performance.timeOrigin), layers: Object.keys(layers) });
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
    // What scrolling brought into view or took out of it (core's after_action compares two reads).
    if (type === "screen_text") {
      try {
        const lines = readLines(Number(message.text_limit) || 4000, true);
        sendResponse({ type: "page_text", title: read(document, "title"), text: lines.lines, headings: [], hidden: lines.hidden });
      } catch (e) {
        sendResponse({ type: "error", message: `could not read the page's text: ${e.message}` });
      }
      return false;
    }
    if (type === "page_facts") {
      try {
        sendResponse(pageFacts(message));
      } catch (e) {
        sendResponse({ type: "error", message: `could not read the page: ${e.message}` });
      }
      return false;
    }
    // An action's step waits until the page stops changing (core's after_action sets the times),
    // counted from the action's end here when this frame did it; the wait tool's (`after_change`)
    // until the page has changed and then stopped.
    if (type === "wait_quiet") {
      const quiet = Number(message.quiet_ms) || 50, max = Number(message.max_ms) || 500, change = message.after_change === true;
      const w = (!change && acted) || watchChanges();
      if (w === acted) clearTimeout(w.stop), (acted = null);
      const check = () => {
        const now = performance.now(), still = now - w.last >= quiet && (!change || w.changed);
        if (!still && now - w.start < max) return void setTimeout(check, Math.min(w.changed ? quiet - (now - w.last) : Math.min(quiet, 25), max - (now - w.start)));
        w.watch.disconnect();
        sendResponse({ type: "quiet", waited_ms: now - w.start, settled: now - w.last >= quiet });
      };
      check();
      return true;
    }
    const layer = type.startsWith("dark_") ? "dark" : "page";
    if (!layers[layer]) return void sendResponse({ type: "layer_missing", layer });
    if (layer === "dark") return layers.dark(message, sender, sendResponse);
    // An action's page changes are watched from its end: its step's wait_quiet reads them.
    return layers.page(message, sender, (reply) => {
      if (reply?.type === "action") startActed();
      sendResponse(reply);
    });
  }

  // After its first read of a page the worker keeps a port to it for the next (a one-time message
  // sets up a channel each time); listened for from then on, so a page Dusk never reads pays nothing.
  // Only reads are answered on it.
  let listening = false;
  function listenForReads() {
    if (!listening) (listening = true), chrome.runtime.onConnect.addListener(readPort);
  }
  function readPort(port) {
    if (port.name === "read" && port.sender?.id === chrome.runtime.id) port.onMessage.addListener(answerOnPort);
  }
  // A port's listener is handed the port too.
  function answerOnPort(m, port) {
    port.postMessage({ id: m?.id, reply: String(m?.message?.type) === "page_text" ? readText(m.message) : { type: "error", message: "not a read" } });
  }
  function readText(message) {
    try {
      if (!message.blocks) return wholeText(message);
      const page = pageBlocks(Number(message.max_chars) || Infinity, String(message.headings));
      return message.as_text === true ? JSON.stringify(page) : page;
    } catch (e) {
      return { type: "error", message: `could not read the page's text: ${e.message}` };
    }
  }
  // The page's text in order with its headings (an agent's read_text): the chat's read compiles none of it.
  function wholeText(message) {
    const heads = [...call(document, "querySelectorAll", String(message.headings))], seen = unseenText();
    const [text, cut] = pageText(seen, Number(message.max_chars) || Infinity, heads);
    const headings = heads.map((h) => ({ tag: read(h, "tagName"), aria_level: call(h, "getAttribute", "aria-level"), text: read(h, "innerText") ?? "" }));
    return { type: "page_text", title: read(document, "title"), text, headings, hidden: seen.count, whole_chars: cut ? read(read(document, "body"), "innerText").length : undefined };
  }

  // DOM changes (nodes, attributes, text) from now on: when the last was, and whether any came.
  const watchChanges = () => {
    const w = { start: performance.now(), changed: false };
    w.last = w.start;
    w.watch = new MutationObserver(() => ((w.last = performance.now()), (w.changed = true)));
    w.watch.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    return w;
  };
  // The last action's watch, until its step's wait_quiet takes it (or no one does for 3 s).
  let acted = null;
  const startActed = () => {
    if (acted) clearTimeout(acted.stop), acted.watch.disconnect();
    const w = (acted = watchChanges());
    w.stop = setTimeout(() => (w.watch.disconnect(), acted === w && (acted = null)), 3000);
  };

  // An indexed loop: for-of over a NodeList of every element cost 2-4x as much.
  const shadowRoots = (root) => {
    const out = [], all = call(root, "querySelectorAll", "*");
    for (let i = 0, n = all.length; i < n; i++) { const s = read(all[i], "shadowRoot"); if (s) out.push(s); }
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
    const f = { tag: read(el, "localName") };
    for (const a of ["type", "role", "tabindex", "contenteditable"]) { const v = call(el, "getAttribute", a); if (v !== null) f[a] = v; }
    if (call(el, "hasAttribute", "href")) f.href = true;
    if (call(el, "hasAttribute", "onclick")) f.onclick = true;
    return f;
  };
  const tags = (d, ...names) => names.reduce((n, t) => n + call(d, "getElementsByTagName", t).length, 0);
  // Text as written, as the layer names elements: innerText would apply text-transform and drop hidden labels.
  const text = (el) => (el ? read(el, "textContent") : "") ?? "";
  // Text from the top (or only on screen), reading only boxes no taller than a few screens, so a
  // huge page costs its first screens; text no one can see is left out and counted.
  function readLines(limit, onScreen) {
    const tall = Math.max(innerHeight, 100) * 3, seen = unseenText();
    let lines = "";
    const gather = (el, depth) => {
      if (lines.length > limit) return;
      const r = call(el, "getBoundingClientRect");
      if (onScreen && (r.bottom <= 0 || r.top >= innerHeight || r.right <= 0 || r.left >= innerWidth)) return;
      if (r.height > tall && depth < 12 && read(el, "childElementCount") > 0) {
        for (let c = read(el, "firstElementChild"); c && lines.length <= limit; c = read(c, "nextElementSibling")) gather(c, depth + 1);
      } else if (r.width > 0 && r.height > 0 && call(el, "checkVisibility", { checkOpacity: true, checkVisibilityCSS: true })) {
        for (const line of shownText(seen, el).split("\n")) {
          const t = line.trim();
          if (t && lines.length <= limit) lines += t + "\n";
        }
      }
    };
    const body = read(document, "body");
    if (body && limit > 0) gather(body, 0);
    return { lines, hidden: seen.count };
  }
  // The body's text, box by box while it is longer than what is left of `max` characters: a
  // box holding only blocks is read block by block. Past `max` only the lines of the `heads`
  // after the last box read follow, so a snapshot keeps the page's outline and no more is judged.
  function pageText(seen, max, heads) {
    const blocks = /^(block|flex|grid|list-item|flow-root)$/, lines = [];
    let size = 0, last = null;
    const take = (el) => {
      if (size > max || !call(el, "checkVisibility", { checkVisibilityCSS: true })) return;
      const kids = read(el, "children"), mixed = [...read(el, "childNodes")].some((c) => c.nodeType === 3 && c.data.trim());
      if (kids.length && !mixed && size + read(el, "textContent").length > max && [...kids].every((k) => blocks.test(getComputedStyle(k).display) || !/\S/.test(read(k, "textContent")) || !call(k, "checkVisibility"))) {
        for (const k of kids) take(k);
        return;
      }
      const t = shownText(seen, el);
      lines.push(t);
      size += t.length;
      last = el;
    };
    const body = read(document, "body");
    if (body) take(body);
    const cut = size > max;
    if (cut) for (const h of heads) if (call(last, "compareDocumentPosition", h) & Node.DOCUMENT_POSITION_FOLLOWING && !call(last, "contains", h) && call(h, "checkVisibility", { checkVisibilityCSS: true })) lines.push(shownText(seen, h));
    return [lines.join("\n"), cut];
  }
  function pageFacts({ candidates, text_limit }) {
    // Every document and open shadow root, breadth-first, as the page layer walks them (walk.rs).
    const docs = [document], shadows = [], roots = [document];
    for (let i = 0; i < roots.length && roots.length < 512; i++) {
      for (const frame of call(roots[i], "querySelectorAll", "iframe")) {
        let d = null;
        try { d = frame.contentDocument; } catch {}
        if (d) roots.push(d), docs.push(d);
      }
      // Not handed to the layer: its first walk may be seconds away, and a root attached since adds no node.
      for (const s of shadowRoots(roots[i])) roots.push(s), shadows.push(s);
    }
    const { lines, hidden } = readLines(text_limit, false);
    // Focus, through open shadow roots and same-origin frames.
    let el = read(document, "activeElement");
    for (let k = 0; k < 32 && el; k++) {
      let inner = read(el, "shadowRoot")?.activeElement;
      try { inner ??= read(el, "localName") === "iframe" ? el.contentDocument && read(el.contentDocument, "activeElement") : null; } catch {}
      if (!inner) break;
      el = inner;
    }
    let focused = null;
    // Nothing focused is the body, whose whole text is not worth reading for nothing.
    const tag = el && read(el, "localName");
    if (el && tag !== "body" && tag !== "html") {
      const attr = (n) => call(el, "getAttribute", n), prev = read(el, "previousElementSibling"), id = read(el, "id");
      let byFor = null;
      try { byFor = id ? call(call(el, "getRootNode"), "querySelector", `label[for="${CSS.escape(id)}"]`) : null; } catch {}
      // A rendered element's text without what no one can see; a hidden one's as written.
      const seen = unseenText(), shown = (e) => (e && call(e, "checkVisibility", { checkVisibilityCSS: true }) ? shownText(seen, e) : text(e));
      focused = { tag, id: id ?? "", type: attr("type"), value: attr("value"), label: shown(byFor).trim() || shown(call(el, "closest", "label")).trim() || null,
        aria_label: attr("aria-label"), placeholder: attr("placeholder"), title: attr("title"), name: attr("name"), alt: attr("alt"), src: attr("src"),
        prev_label: prev && read(prev, "localName") === "label" && !call(prev, "hasAttribute", "for") ? shown(prev) : null, shown: shown(el).slice(0, 320) };
    }
    const de = read(document, "documentElement");
    return {
      type: "page_facts", url: location.href, title: read(document, "title"), layer: Boolean(layers.page), text: lines, hidden_text: hidden, focused,
      viewport: { width: innerWidth, height: innerHeight }, scroll: { x: scrollX, y: scrollY }, page: { width: de ? read(de, "scrollWidth") : 0, height: de ? read(de, "scrollHeight") : 0 },
      documents: docs.map((d) => ({
        links: read(d, "links").length, images: read(d, "images").length, forms: read(d, "forms").length, selects: tags(d, "select"), buttons: tags(d, "button", "summary"), textareas: tags(d, "textarea"),
        input_types: Array.from(call(d, "getElementsByTagName", "input"), (i) => i.getAttribute("type")),
        editables: [...call(d, "querySelectorAll", "[contenteditable]:not([contenteditable=false]):not(input,textarea)")].filter((e) => !call(e, "hasAttribute", "role")).length,
        roles: Array.from(call(d, "querySelectorAll", "[role]"), facts),
      })),
      shadow_roots: shadows.map((s) => ({ candidates: Array.from(s.querySelectorAll(candidates), facts), forms: s.querySelectorAll("form").length })),
    };
  }
}
