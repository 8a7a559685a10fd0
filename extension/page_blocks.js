// The chat's read of a page (content.js answers page_text with blocks through here). Reads go
// through `read` and `call`: a page can shadow a form's or a document's members.
import { read, call, getter, method } from "./unshadowed.js";
import { unseenText } from "./unseen_text.js";

// Read for every node of the page: the prototypes' own getters and methods, one call each.
const nodeTypeOf = getter(Node, "nodeType"), nameOf = getter(Element, "localName"), firstOf = getter(Node, "firstChild"), nextOf = getter(Node, "nextSibling");
const firstElementOf = getter(Element, "firstElementChild"), textContentOf = getter(Node, "textContent"), attr = method(Element, "getAttribute"), hasAttr = method(Element, "hasAttribute");
const rectOf = method(Element, "getBoundingClientRect"), visible = method(Element, "checkVisibility"), tagsIn = method(Element, "getElementsByTagName"), parentOf = getter(Node, "parentElement");
const CSS_SHOWN = { checkVisibilityCSS: true };
// Tag names as sets, not regular expressions: a new tab's first read compiles each expression it runs.
const REGION = new Set(["main", "article", "nav", "aside", "header", "footer", "section", "form", "table", "tbody", "thead", "tfoot", "ul", "ol", "dl", "menu", "search", "dialog"]);
const HEADING = new Map(["h1", "h2", "h3", "h4", "h5", "h6"].map((h, i) => [h, i + 1]));
const LEAFY = new Set(["p", ...HEADING.keys(), "pre", "li", "tr", "dt", "dd", "td", "th", "blockquote", "figcaption", "summary", "button", "label", "a"]);
// Form fields a person fills in (an input not of these types, enabled): a block holding one is a form, not prose.
const FIELD_TAGS = ["input", "textarea", "select"], NOT_FILLED = new Set(["hidden", "submit", "button", "reset", "image"]);
const UNREAD = new Set(["script", "style", "template", "noscript"]);
const fixedAt = (position) => position === "fixed" || position === "sticky";
const inline = (display) => display.startsWith("inline") || display.startsWith("contents") || display.startsWith("ruby");

// The page as boxes and blocks of text, measured for the chat's reader (core page::reader
// decides what is main content): a box is descended into while it holds more than a paragraph
// or is a region; each block reports its text, its link text, where it sits and its font size.
// Text is read until about 1.25 × `max` characters; later blocks are measured only.
export function pageBlocks(max, headSel) {
  const root = read(document, "body") ?? read(document, "documentElement"), de = read(document, "documentElement");
  if (!root) return { type: "page_text", title: read(document, "title"), text: "", headings: [], hidden: 0 };
  // A page veiled until its scripts run (anti-flicker: opacity 0 or visibility hidden on html or body) is read as shown.
  const veils = [de, read(document, "body")].filter(Boolean).map((e) => getComputedStyle(e));
  const veiled = veils.some((s) => s.opacity === "0"), hiddenRoot = veils.some((s) => s.visibility === "hidden");
  const seen = unseenText(veiled ? [de, read(document, "body")] : []), boxes = [], blocks = [], leaves = new Map(), opened = new Set();
  const shown = hiddenRoot ? (e) => visible(e) : (e) => visible(e, CSS_SHOWN);
  const textOf = hiddenRoot ? (e) => seen.text(e) || read(e, "textContent").replace(/[ \t]+/g, " ") : (e) => seen.text(e);
  const sx = scrollX, sy = scrollY, cap = max * 1.25 + 4000, LEAF = 1500;
  const at = (e) => { const r = rectOf(e); return [Math.round(r.left + sx), Math.round(r.top + sy), Math.round(r.width), Math.round(r.height)]; };
  let taken = 0;
  // Fields at or under each element, counted once up from every field: a query per block costs
  // more, and a selector query tries its every branch on each element of the page.
  const fieldsAt = new Map();
  for (const tag of FIELD_TAGS) {
    const fs = call(document, "getElementsByTagName", tag);
    for (let i = 0; i < fs.length; i++) {
      const f = fs[i];
      if (hasAttr(f, "disabled") || (tag === "input" && NOT_FILLED.has((attr(f, "type") ?? "").toLowerCase()))) continue;
      for (let e = f; e; e = parentOf(e)) fieldsAt.set(e, (fieldsAt.get(e) ?? 0) + 1);
    }
  }
  // textContent's length (to `most`), counted without building it: a page's inline scripts can
  // hold 100 KB, copied again for every box around them.
  const textLength = (e, most) => {
    const w = call(document, "createTreeWalker", e, NodeFilter.SHOW_TEXT);
    let n = 0;
    for (let t = w.nextNode(); t && n <= most; t = w.nextNode()) n += t.length;
    return n;
  };
  // Text as written, trimmed: one native copy, where walking a block's text nodes costs more.
  const trimmedLength = (e) => (nodeTypeOf(e) === 3 ? e.data : textContentOf(e)).trim().length;
  // An anchor without href is a target, not a link: `<a id=x/>` in HTML wraps the text after it.
  const isLink = (e) => nameOf(e) === "a" && hasAttr(e, "href");
  const level = (e) => HEADING.get(nameOf(e)) ?? (attr(e, "role") === "heading" ? +(attr(e, "aria-level") || 2) || 2 : 0);
  const leaf = (els, parent, style, inLink) => {
    const one = els.length === 1 && nodeTypeOf(els[0]) === 1 ? els[0] : null;
    let chars = 0, linkChars = 0, links = 0, fields = 0;
    const labels = [];
    for (const e of els) {
      chars += trimmedLength(e);
      if (nodeTypeOf(e) !== 1) continue;
      fields += fieldsAt.get(e) ?? 0;
      const as = nameOf(e) === "a" ? [e] : tagsIn(e, "a");
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
      text = els.map((e) => (nodeTypeOf(e) === 3 ? e.data.replace(/\s+/g, " ") : textOf(e))).join(one ? "" : " ");
      if (one && nameOf(one) === "tr") text = text.replace(/\t+/g, " | ");
      taken += text.length;
    }
    const r = one ? at(one) : boxes[parent].rect;
    if (one && !r[2] && !r[3]) return;
    if (one) leaves.set(one, blocks.length);
    // Fields at their default are left out (core reads them as 0 or empty): a smaller message to decode.
    const block = { parent, text, chars, rect: r, font: parseFloat(style.fontSize) || 0 }, heading = one ? level(one) : 0;
    if (links) (block.link_chars = linkChars), (block.links = links);
    if (links && labels.length) block.labels = labels;
    if (heading) block.heading = heading;
    if (fields) block.fields = fields;
    blocks.push(block);
  };
  const visit = (el, parent, style, inLink) => {
    const b = boxes.length, own = (n) => attr(el, n) ?? undefined;
    opened.add(el);
    boxes.push({ parent, tag: nameOf(el), role: own("role"), name: `${own("id") ?? ""} ${own("class") ?? ""}`.trim().toLowerCase().slice(0, 120), label: own("aria-label"), rect: at(el), fixed: fixedAt(style.position) || undefined });
    inLink ||= isLink(el);
    let run = [];
    const flush = () => { if (run.length) leaf(run, b, style, inLink); run = []; };
    for (let k = firstOf(el); k; k = nextOf(k)) {
      const type = nodeTypeOf(k);
      if (type === 3) { if (/\S/.test(k.data)) run.push(k); continue; }
      if (type !== 1) continue;
      const name = nameOf(k);
      if (UNREAD.has(name) || !shown(k)) continue;
      const ks = seen.style(k), display = ks.display;
      // An inline-block holding more than a paragraph is a box laid out inline (a page's whole column), not words.
      const column = display.startsWith("inline-") && firstElementOf(k) && textLength(k, LEAF) > LEAF;
      if (inline(display) && name !== "a" && !column) { run.push(k); continue; }
      flush();
      const deeper = firstElementOf(k) && !LEAFY.has(name) && level(k) === 0 && (REGION.has(name) || hasAttr(k, "role") || textLength(k, LEAF) > LEAF);
      if (deeper) visit(k, b, ks, inLink);
      else leaf([k], b, ks, inLink || isLink(k));
    }
    flush();
  };
  visit(root, undefined, seen.style(root), false);
  // Headings inside a block: their level and text, for its sections. One query of the page, each
  // heading walked up to its block or to a box (blocks hold no boxes: a heading is in one block at most).
  if (leaves.size) {
    const [heads, ordered] = headings(headSel), inside = new Map();
    for (const h of heads)
      for (let e = parentOf(h); e && !opened.has(e); e = parentOf(e)) {
        const k = leaves.get(e);
        if (k !== undefined) { inside.has(k) ? inside.get(k).push(h) : inside.set(k, [h]); break; }
      }
    for (const [k, hs] of inside) {
      if (!ordered && hs.length > 1) hs.sort((a, b) => (call(a, "compareDocumentPosition", b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
      blocks[k].heads = hs.map((h) => [level(h) || 2, read(h, "innerText") ?? ""]);
    }
  }
  // A page that shows text never reads as empty: then it is read whole.
  if (!blocks.some((b) => b.text?.trim()) && read(root, "innerText")?.trim()) blocks.splice(0, blocks.length, { parent: 0, text: read(root, "innerText"), chars: read(root, "innerText").length, rect: boxes[0].rect, font: 16 });
  return { type: "page_text", title: read(document, "title"), text: "", headings: [], hidden: seen.count, boxes, blocks };
}

// The elements `sel` selects, and whether they are in document order. A selector list is tried
// branch by branch on every element of the page; its bare tag names are the browser's kept lists
// instead, and the rest one query.
function headings(sel) {
  const parts = sel.split(",").map((p) => p.trim()), tags = parts.filter(tagName), rest = parts.filter((p) => !tagName(p));
  // A comma inside quotes or parentheses is not a branch: such a list is asked as it is.
  if (!tags.length || ['"', "'", "(", ")", "\\"].some((c) => sel.includes(c))) return [call(document, "querySelectorAll", sel), true];
  const found = new Set();
  for (const t of tags) { const hs = call(document, "getElementsByTagName", t); for (let i = 0; i < hs.length; i++) found.add(hs[i]); }
  if (rest.length) for (const h of call(document, "querySelectorAll", rest.join(","))) found.add(h);
  return [found, tags.length === 1 && !rest.length];
}
// A bare tag name: a letter, then letters and digits.
function tagName(p) {
  const letter = (c) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  for (let i = 0; i < p.length; i++) { const c = p.charCodeAt(i); if (!letter(c) && !(i && c >= 48 && c <= 57)) return false; }
  return p.length > 0;
}
