// The chat's read of a page (content.js answers page_text with blocks through here). Reads go
// through `read` and `call`: a page can shadow a form's or a document's members.
import { read, call, getter, method } from "./unshadowed.js";
import { unseenText, shownText, styleOf } from "./unseen_text.js";

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

// One read's state, set by pageBlocks (a read runs to its end in one task). The measure's steps are
// functions of the module, not closures made per read: a new tab compiles each function it runs,
// and a closure's body is parsed again with the function around it.
let seen, boxes, blocks, leaves, nested, opened, fieldsAt, hiddenRoot, sx, sy, cap, taken;
const LEAF = 1500, FEW_NESTED = 16;

// The page as boxes and blocks of text, measured for the chat's reader (core page::reader
// decides what is main content): a box is descended into while it holds more than a paragraph
// or is a region; each block reports its text, its link text, where it sits and its font size.
// Text is read until about 1.25 × `max` characters; later blocks are measured only.
export function pageBlocks(max, headSel) {
  const body = read(document, "body"), de = read(document, "documentElement"), root = body ?? de;
  if (!root) return { type: "page_text", title: read(document, "title"), text: "", headings: [], hidden: 0 };
  // A page veiled until its scripts run (anti-flicker: opacity 0 or visibility hidden on html or body) is read as shown.
  const ds = de && getComputedStyle(de), bs = body && getComputedStyle(body);
  hiddenRoot = ds?.visibility === "hidden" || bs?.visibility === "hidden";
  seen = unseenText(ds?.opacity === "0" || bs?.opacity === "0" ? [de, body] : []);
  (boxes = []), (blocks = []), (leaves = new Map()), (nested = []), (opened = new Set()), (fieldsAt = new Map());
  (sx = scrollX), (sy = scrollY), (cap = max * 1.25 + 4000), (taken = 0);
  try {
    // Fields at or under each element, counted once up from every field: a query per block costs
    // more, and a selector query tries its every branch on each element of the page.
    for (const tag of FIELD_TAGS) {
      const fs = call(document, "getElementsByTagName", tag);
      for (let i = 0; i < fs.length; i++) {
        const f = fs[i];
        if (hasAttr(f, "disabled") || (tag === "input" && NOT_FILLED.has((attr(f, "type") ?? "").toLowerCase()))) continue;
        for (let e = f; e; e = parentOf(e)) fieldsAt.set(e, (fieldsAt.get(e) ?? 0) + 1);
      }
    }
    visit(root, undefined, styleOf(seen, root), false);
    // Headings inside a block: their level and text, for its sections. Only a block of one element
    // that holds elements can hold one. A few such blocks are each asked (a query tries every branch
    // of the list on each element it looks at: a few blocks' elements cost less than the page's
    // tag lists); more, one look at the page, each heading walked up to its block or to a box
    // (blocks hold no boxes: a heading is in one block at most).
    if (nested.length <= FEW_NESTED) {
      for (const one of nested) {
        const hs = call(one, "querySelectorAll", headSel);
        if (hs.length) nameHeads(leaves.get(one), hs);
      }
    } else headsFromPage(headSel);
    // A page that shows text never reads as empty: then it is read whole.
    let shows = false;
    for (let i = 0; i < blocks.length && !shows; i++) shows = Boolean(blocks[i].text?.trim());
    if (!shows) readWhole(root);
    return { type: "page_text", title: read(document, "title"), text: "", headings: [], hidden: seen.count, boxes, blocks };
  } finally {
    // The page's nodes are not held until the next read.
    seen = boxes = blocks = leaves = nested = opened = fieldsAt = null;
  }
}

function readWhole(root) {
  const text = read(root, "innerText");
  if (text?.trim()) blocks.splice(0, blocks.length, { parent: 0, text, chars: text.length, rect: boxes[0].rect, font: 16 });
}
function at(e) {
  const r = rectOf(e);
  return [Math.round(r.left + sx), Math.round(r.top + sy), Math.round(r.width), Math.round(r.height)];
}
// textContent's length (to `most`), counted without building it: a page's inline scripts can
// hold 100 KB, copied again for every box around them.
function textLength(e, most) {
  const w = call(document, "createTreeWalker", e, NodeFilter.SHOW_TEXT);
  let n = 0;
  for (let t = w.nextNode(); t && n <= most; t = w.nextNode()) n += t.length;
  return n;
}
// An anchor without href is a target, not a link: `<a id=x/>` in HTML wraps the text after it.
function isLink(e) {
  return nameOf(e) === "a" && hasAttr(e, "href");
}
function level(e) {
  return HEADING.get(nameOf(e)) ?? (attr(e, "role") === "heading" ? +(attr(e, "aria-level") || 2) || 2 : 0);
}
function textOf(e) {
  const t = shownText(seen, e);
  return hiddenRoot ? t || read(e, "textContent").replace(/[ \t]+/g, " ") : t;
}
function leaf(els, parent, style, inLink) {
  const one = els.length === 1 && nodeTypeOf(els[0]) === 1 ? els[0] : null;
  let chars = 0, linkChars = 0, links = 0, fields = 0;
  const labels = [];
  for (let j = 0; j < els.length; j++) {
    const e = els[j];
    // Text as written, trimmed: one native copy, where walking a block's text nodes costs more.
    chars += (nodeTypeOf(e) === 3 ? e.data : textContentOf(e)).trim().length;
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
    text = "";
    for (let j = 0; j < els.length; j++) {
      const e = els[j];
      if (j) text += " ";
      text += nodeTypeOf(e) === 3 ? e.data.replace(/\s+/g, " ") : textOf(e);
    }
    if (one && nameOf(one) === "tr") text = text.replace(/\t+/g, " | ");
    taken += text.length;
  }
  const r = one ? at(one) : boxes[parent].rect;
  if (one && !r[2] && !r[3]) return;
  if (one) {
    leaves.set(one, blocks.length);
    if (firstElementOf(one)) nested.push(one);
  }
  // Fields at their default are left out (core reads them as 0 or empty): a smaller message to decode.
  const block = { parent, text, chars, rect: r, font: parseFloat(style.fontSize) || 0 }, heading = one ? level(one) : 0;
  if (links) (block.link_chars = linkChars), (block.links = links);
  if (links && labels.length) block.labels = labels;
  if (heading) block.heading = heading;
  if (fields) block.fields = fields;
  blocks.push(block);
}
function visit(el, parent, style, inLink) {
  const b = boxes.length, id = attr(el, "id"), cls = attr(el, "class"), position = style.position;
  opened.add(el);
  boxes.push({ parent, tag: nameOf(el), role: attr(el, "role") ?? undefined, name: `${id ?? ""} ${cls ?? ""}`.trim().toLowerCase().slice(0, 120), label: attr(el, "aria-label") ?? undefined, rect: at(el), fixed: position === "fixed" || position === "sticky" || undefined });
  inLink ||= isLink(el);
  let run = [];
  for (let k = firstOf(el); k; k = nextOf(k)) {
    const type = nodeTypeOf(k);
    if (type === 3) { if (/\S/.test(k.data)) run.push(k); continue; }
    if (type !== 1) continue;
    const name = nameOf(k);
    if (UNREAD.has(name) || !(hiddenRoot ? visible(k) : visible(k, CSS_SHOWN))) continue;
    const ks = styleOf(seen, k), display = ks.display;
    // An inline-block holding more than a paragraph is a box laid out inline (a page's whole column), not words.
    const column = display.startsWith("inline-") && firstElementOf(k) && textLength(k, LEAF) > LEAF;
    const inline = display.startsWith("inline") || display.startsWith("contents") || display.startsWith("ruby");
    if (inline && name !== "a" && !column) { run.push(k); continue; }
    if (run.length) leaf(run, b, style, inLink), (run = []);
    const deeper = firstElementOf(k) && !LEAFY.has(name) && level(k) === 0 && (REGION.has(name) || hasAttr(k, "role") || textLength(k, LEAF) > LEAF);
    if (deeper) visit(k, b, ks, inLink);
    else leaf([k], b, ks, inLink || isLink(k));
  }
  if (run.length) leaf(run, b, style, inLink);
}
function headsFromPage(headSel) {
  const heads = headings(headSel), inside = new Map();
  for (const h of heads)
    for (let e = parentOf(h); e && !opened.has(e); e = parentOf(e)) {
      const k = leaves.get(e);
      if (k !== undefined) { inside.has(k) ? inside.get(k).push(h) : inside.set(k, [h]); break; }
    }
  for (const [k, hs] of inside) {
    if (!headsInOrder && hs.length > 1) hs.sort(byDocumentOrder);
    nameHeads(k, hs);
  }
}
// The block's headings, each its level and text.
function nameHeads(k, hs) {
  const named = [];
  for (const h of hs) named.push([level(h) || 2, read(h, "innerText") ?? ""]);
  blocks[k].heads = named;
}
function byDocumentOrder(a, b) {
  return call(a, "compareDocumentPosition", b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1;
}

// The elements `sel` selects; `headsInOrder` says whether in document order. A selector list is
// tried branch by branch on every element of the page; its bare tag names are the browser's kept
// lists instead, and the rest one query.
let headsInOrder = true;
function headings(sel) {
  // A comma inside quotes or parentheses is not a branch: such a list is asked as it is.
  const whole = sel.includes('"') || sel.includes("'") || sel.includes("(") || sel.includes(")") || sel.includes("\\");
  const found = new Set(), rest = [];
  let tags = 0;
  if (!whole)
    for (const part of sel.split(",")) {
      const p = part.trim();
      if (!tagName(p)) { rest.push(p); continue; }
      tags++;
      const hs = call(document, "getElementsByTagName", p);
      for (let i = 0; i < hs.length; i++) found.add(hs[i]);
    }
  if (!tags) return (headsInOrder = true), call(document, "querySelectorAll", sel);
  if (rest.length) for (const h of call(document, "querySelectorAll", rest.join(","))) found.add(h);
  headsInOrder = tags === 1 && !rest.length;
  return found;
}
// A bare tag name: a letter, then letters and digits.
function tagName(p) {
  for (let i = 0; i < p.length; i++) {
    const c = p.charCodeAt(i), letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
    if (!letter && !(i && c >= 48 && c <= 57)) return false;
  }
  return p.length > 0;
}
