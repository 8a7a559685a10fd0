// Always on, in every frame, at document_start: answers ping and the DOM reads the chat and an
// agent start with (page_text, page_facts), and routes each other message to the layer that
// handles it (core's protocol/layer.rs). The layers are loaded on demand and register here. Only
// the top frame answers, and an other-origin frame an agent lists (the worker marks it first and
// injects this file there): the page layer reaches same-origin frames itself.
import { read, call } from "./unshadowed.js";
import { unseenText } from "./unseen_text.js";

// Every DOM read below goes through `read` and `call`: a form's fields and a document's named
// elements can shadow its members (unshadowed.js).
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
        if (message.blocks) return void sendResponse(pageBlocks(Number(message.max_chars) || Infinity, String(message.headings)));
        const heads = [...call(document, "querySelectorAll", String(message.headings))], seen = unseenText();
        const [text, cut] = pageText(seen, Number(message.max_chars) || Infinity, heads);
        const headings = heads.map((h) => ({ tag: read(h, "tagName"), aria_level: call(h, "getAttribute", "aria-level"), text: read(h, "innerText") ?? "" }));
        sendResponse({ type, title: read(document, "title"), text, headings, hidden: seen.count, whole_chars: cut ? read(read(document, "body"), "innerText").length : undefined });
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
  });

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
        for (const line of seen.text(el).split("\n")) {
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
      const t = seen.text(el);
      lines.push(t);
      size += t.length;
      last = el;
    };
    const body = read(document, "body");
    if (body) take(body);
    const cut = size > max;
    if (cut) for (const h of heads) if (call(last, "compareDocumentPosition", h) & Node.DOCUMENT_POSITION_FOLLOWING && !call(last, "contains", h) && call(h, "checkVisibility", { checkVisibilityCSS: true })) lines.push(seen.text(h));
    return [lines.join("\n"), cut];
  }
  // The page as boxes and blocks of text, measured for the chat's reader (core page::reader
  // decides what is main content): a box is descended into while it holds more than a paragraph
  // or is a region; each block reports its text, its link text, where it sits and its font size.
  // Text is read until about 1.25 × `max` characters; later blocks are measured only.
  function pageBlocks(max, headSel) {
    const root = read(document, "body") ?? read(document, "documentElement"), de = read(document, "documentElement");
    if (!root) return { type: "page_text", title: read(document, "title"), text: "", headings: [], hidden: 0 };
    // A page veiled until its scripts run (anti-flicker: opacity 0 or visibility hidden on html or body) is read as shown.
    const veils = [de, read(document, "body")].filter(Boolean).map((e) => getComputedStyle(e));
    const veiled = veils.some((s) => s.opacity === "0"), hiddenRoot = veils.some((s) => s.visibility === "hidden");
    const seen = unseenText(veiled ? [de, read(document, "body")] : []), boxes = [], blocks = [], leaves = new Map();
    const shown = hiddenRoot ? (e) => call(e, "checkVisibility") : (e) => call(e, "checkVisibility", { checkVisibilityCSS: true });
    const textOf = hiddenRoot ? (e) => seen.text(e) || read(e, "textContent").replace(/[ \t]+/g, " ") : (e) => seen.text(e);
    const sx = scrollX, sy = scrollY, cap = max * 1.25 + 4000, LEAF = 1500;
    const at = (e) => { const r = call(e, "getBoundingClientRect"); return [Math.round(r.left + sx), Math.round(r.top + sy), Math.round(r.width), Math.round(r.height)]; };
    const REGION = /^(main|article|nav|aside|header|footer|section|form|table|tbody|thead|tfoot|ul|ol|dl|menu|search|dialog)$/;
    const LEAFY = /^(p|h[1-6]|pre|li|tr|dt|dd|td|th|blockquote|figcaption|summary|button|label|a)$/;
    // Form fields a person fills in: a block holding one is a form, not prose.
    const FIELDS = "input:not([type=hidden],[type=submit],[type=button],[type=reset],[type=image],[disabled]),textarea:not([disabled]),select:not([disabled])";
    let taken = 0;
    // textContent's length (to `most`), and its trimmed length, counted without building it: a
    // page's inline scripts can hold 100 KB, copied again for every box around them.
    const texts = (e) => { const w = call(document, "createTreeWalker", e, NodeFilter.SHOW_TEXT), out = []; for (let t = w.nextNode(); t; t = w.nextNode()) out.push(t); return out; };
    const textLength = (e, most) => {
      const w = call(document, "createTreeWalker", e, NodeFilter.SHOW_TEXT);
      let n = 0;
      for (let t = w.nextNode(); t && n <= most; t = w.nextNode()) n += t.length;
      return n;
    };
    const trimmedLength = (e) => {
      if (read(e, "nodeType") === 3) return e.data.trim().length;
      const nodes = texts(e);
      let all = 0, lead = 0, trail = 0;
      for (const t of nodes) all += t.length;
      for (const t of nodes) { const d = t.data, w = d.length - d.trimStart().length; lead += w; if (w < d.length) break; }
      if (lead === all) return 0;
      for (let i = nodes.length - 1; i >= 0; i--) { const d = nodes[i].data, w = d.length - d.trimEnd().length; trail += w; if (w < d.length) break; }
      return all - lead - trail;
    };
    // An anchor without href is a target, not a link: `<a id=x/>` in HTML wraps the text after it.
    const isLink = (e) => read(e, "localName") === "a" && call(e, "hasAttribute", "href");
    const level = (e) => (/^h[1-6]$/.test(read(e, "localName")) ? +read(e, "localName")[1] : call(e, "getAttribute", "role") === "heading" ? +(call(e, "getAttribute", "aria-level") || 2) || 2 : 0);
    const leaf = (els, parent, style, inLink) => {
      const one = els.length === 1 && read(els[0], "nodeType") === 1 ? els[0] : null;
      let chars = 0, linkChars = 0, links = 0, fields = 0;
      const labels = [];
      for (const e of els) {
        chars += trimmedLength(e);
        if (read(e, "nodeType") !== 1) continue;
        fields += call(e, "querySelectorAll", FIELDS).length + (call(e, "matches", FIELDS) ? 1 : 0);
        const as = read(e, "localName") === "a" ? [e] : call(e, "getElementsByTagName", "a");
        for (let i = 0; i < as.length; i++) {
          if (!isLink(as[i])) continue;
          const t = as[i].textContent.trim();
          linkChars += t.length;
          links++;
          if (t && labels.length < 12) labels.push(t.replace(/\s+/g, " ").slice(0, 60));
        }
      }
      if (!chars) return;
      if (inLink) (linkChars = chars), (links = Math.max(links, 1));
      let text;
      // A heading is read past the cap too: the page block names what it leaves out.
      if (taken < cap || (one && level(one))) {
        text = els.map((e) => (read(e, "nodeType") === 3 ? e.data.replace(/\s+/g, " ") : textOf(e))).join(one ? "" : " ");
        if (one && read(one, "localName") === "tr") text = text.replace(/\t+/g, " | ");
        taken += text.length;
      }
      const r = one ? at(one) : boxes[parent].rect;
      if (one && !r[2] && !r[3]) return;
      if (one) leaves.set(one, blocks.length);
      blocks.push({ parent, text, chars, link_chars: linkChars, links, labels: links ? labels : [], heading: one ? level(one) : 0, heads: [], rect: r, font: parseFloat(style.fontSize) || 0, ...(fields && { fields }) });
    };
    const visit = (el, parent, style, inLink) => {
      const b = boxes.length, attr = (n) => call(el, "getAttribute", n) ?? undefined;
      boxes.push({ parent, tag: read(el, "localName"), role: attr("role"), name: `${attr("id") ?? ""} ${attr("class") ?? ""}`.trim().toLowerCase().slice(0, 120), label: attr("aria-label"), rect: at(el), fixed: style.position === "fixed" || style.position === "sticky" });
      inLink ||= isLink(el);
      let run = [];
      const flush = () => { if (run.length) leaf(run, b, style, inLink); run = []; };
      for (let k = read(el, "firstChild"); k; k = read(k, "nextSibling")) {
        if (read(k, "nodeType") === 3) { if (k.data.trim()) run.push(k); continue; }
        if (read(k, "nodeType") !== 1 || /^(script|style|template|noscript)$/.test(read(k, "localName")) || !shown(k)) continue;
        const ks = getComputedStyle(k);
        // An inline-block holding more than a paragraph is a box laid out inline (a page's whole column), not words.
        const column = ks.display.startsWith("inline-") && read(k, "firstElementChild") && textLength(k, LEAF) > LEAF;
        if (/^(inline|contents|ruby)/.test(ks.display) && read(k, "localName") !== "a" && !column) { run.push(k); continue; }
        flush();
        const deeper = read(k, "firstElementChild") && !LEAFY.test(read(k, "localName")) && level(k) === 0 && (REGION.test(read(k, "localName")) || call(k, "hasAttribute", "role") || textLength(k, LEAF) > LEAF);
        if (deeper) visit(k, b, ks, inLink);
        else leaf([k], b, ks, inLink || isLink(k));
      }
      flush();
    };
    visit(root, undefined, getComputedStyle(root), false);
    // Headings inside a block: their level and text, for its sections.
    for (const h of call(document, "querySelectorAll", headSel)) {
      for (let e = h; e && e !== root; e = read(e, "parentElement")) {
        const k = leaves.get(e);
        if (k === undefined) continue;
        if (e !== h) blocks[k].heads.push([level(h) || 2, read(h, "innerText") ?? ""]);
        break;
      }
    }
    // A page that shows text never reads as empty: then it is read whole.
    if (!blocks.some((b) => b.text?.trim()) && read(root, "innerText")?.trim()) blocks.splice(0, blocks.length, { parent: 0, text: read(root, "innerText"), chars: read(root, "innerText").length, rect: boxes[0].rect, font: 16 });
    return { type: "page_text", title: read(document, "title"), text: "", headings: [], hidden: seen.count, boxes, blocks };
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
      const seen = unseenText(), shown = (e) => (e && call(e, "checkVisibility", { checkVisibilityCSS: true }) ? seen.text(e) : text(e));
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
