// Text a person can't see, left out of what the always-on script reads (content.js). Reads go
// through `read` and `call`: a page can shadow a form's or a document's members.
// Functions of the module, each handed the read's record, not closures made per read: a new tab
// compiles each function it runs, and a closure's body is parsed again with the function around it.
import { read, call, getter, method } from "./unshadowed.js";

// Read for every text parent: the prototypes' own getters, one call each.
const parentOf = getter(Node, "parentElement"), docOf = getter(Node, "ownerDocument");
const visible = method(Element, "checkVisibility"), nameOf = getter(Element, "localName");
const CSS_SHOWN = { checkVisibilityCSS: true }, SHOWN_OPAQUE = { checkVisibilityCSS: true, opacityProperty: true };
const WHITE = [255, 255, 255, 1];
// What paints over the page behind text: an image or a picture.
const PICTURES = new Set(["img", "video", "canvas", "picture", "svg", "iframe", "embed", "object"]);

// Rendered text a person still can't see: no size, transparent, the colour of what is behind it,
// or clipped to nothing. `shownText(seen, el)` is el's innerText without it; `seen.count` the
// pieces left out. Each element's style is read once, and only for the text read (text_snapshot's budget).
export function unseenText(veils = []) {
  return { count: 0, veils, facts: new Map(), colours: new Map() };
}

// Each element's computed style and what is found of it, in one record: one lookup per question.
// This window's getComputedStyle reads an element of any document; asking each element's own
// window would cost two reads per element, and a page's text parents number in thousands.
function factsOf(seen, e) {
  let f = seen.facts.get(e);
  if (!f) seen.facts.set(e, (f = { style: getComputedStyle(e), behind: undefined, plain: undefined, tiny: undefined, faded: undefined, judged: undefined }));
  return f;
}
/** Each element's computed style, shared with the measure around it (page_blocks.js). */
export function styleOf(seen, e) {
  return factsOf(seen, e).style;
}
function up(e) {
  return parentOf(e) || call(e, "getRootNode").host || null;
}
// A page uses a few colours thousands of times: each is parsed once.
function rgb(seen, c) {
  let v = seen.colours.get(c);
  if (v === undefined) {
    const m = /^rgba?\(([\d.]+),? ([\d.]+),? ([\d.]+)(?:,? \/?\s*([\d.]+))?/.exec(c);
    seen.colours.set(c, (v = m ? [+m[1], +m[2], +m[3], m[4] === undefined ? 1 : +m[4]] : null));
  }
  return v;
}
// The colour painted behind e: the nearest opaque background; null when an image or unknown.
function pageColour(seen) {
  return styleOf(seen, read(document, "documentElement")).colorScheme.includes("dark") ? null : WHITE;
}
function back(seen, e) {
  if (!e) return pageColour(seen);
  const f = factsOf(seen, e);
  if (f.behind === undefined) { const c = rgb(seen, f.style.backgroundColor); f.behind = f.style.backgroundImage !== "none" ? null : c && c[3] > 0.9 ? c : back(seen, up(e)); }
  return f.behind;
}
// The same with images left aside: `back` is this colour or null, so text far from it is far
// from what `back` says too, and the images need reading only for text near it.
function plain(seen, e, f) {
  if (!e) return pageColour(seen);
  f ??= factsOf(seen, e);
  if (f.plain === undefined) { const c = rgb(seen, f.style.backgroundColor); f.plain = c && c[3] > 0.9 ? c : plain(seen, up(e)); }
  return f.plain;
}
// What is painted right under p's text on screen: true for an image or a picture, else a
// colour; null off screen or unknown (then its ancestors' background decides).
function under(seen, p) {
  const r = call(p, "getBoundingClientRect"), d = read(p, "ownerDocument"), v = read(d, "defaultView"), x = r.left + r.width / 2, y = r.top + r.height / 2;
  if (!(r.width > 0 && x >= 0 && y >= 0 && x < v.innerWidth && y < v.innerHeight)) return null;
  // What is below p or the first of its descendants in the stack.
  const stack = call(d, "elementsFromPoint", x, y);
  let i = 0;
  while (i < stack.length && stack[i] !== p && !call(p, "contains", stack[i])) i++;
  for (let k = i + 1; k < stack.length; k++) {
    const e = stack[k];
    if (call(p, "contains", e)) continue;
    const s = styleOf(seen, e), c = rgb(seen, s.backgroundColor);
    if (PICTURES.has(read(e, "localName")) || s.backgroundImage !== "none") return true;
    if (c && c[3] > 0.9) return c;
  }
  return null;
}
// Clipped to nothing: a placed box of a pixel or less that clips or hides its overflow, on p or
// just above it (how "visually hidden" text is written). Its position first: a style read costs
// less than the two layout reads, and few boxes are placed.
function tiny(seen, e, f) {
  if (!e) return false;
  f ??= factsOf(seen, e);
  if (f.tiny === undefined) {
    const s = f.style, at = s.position;
    f.tiny = (at === "absolute" || at === "fixed") && nameOf(e) !== "body" && nameOf(e) !== "html" && !(read(e, "offsetWidth") > 1 && read(e, "offsetHeight") > 1) &&
      (s.overflow !== "visible" || s.clip !== "auto" || s.clipPath !== "none");
  }
  return f.tiny;
}
// Opacity 0 on e or an ancestor.
function transparent(seen, e) {
  if (!e) return false;
  const f = factsOf(seen, e);
  if (f.faded === undefined) f.faded = (f.style.opacity === "0" && !seen.veils.includes(e)) || transparent(seen, up(e));
  return f.faded;
}
function near(c, b) {
  return Math.abs(c[0] - b[0]) + Math.abs(c[1] - b[1]) + Math.abs(c[2] - b[2]) < 30;
}
// Unseen though rendered and not transparent: no size, no colour against its background, clipped.
// p's record is handed down: a text parent's questions cost one lookup.
function paintedUnseen(seen, p, f) {
  const s = f.style;
  if (parseFloat(s.fontSize) < 1) return true;
  const c = rgb(seen, s.color);
  if (!c) return false;
  if (c[3] < 0.1) return !(s.webkitBackgroundClip === "text" || s.backgroundClip === "text");
  const flat = plain(seen, p, f), b = flat && near(c, flat) && back(seen, p);
  // Text the colour of its background is unseen unless something else shows under it.
  if (b && near(c, b)) { const u = under(seen, p); if (u === null || (u !== true && near(c, u))) return true; }
  return tiny(seen, p, f) || tiny(seen, up(p));
}
// Rendered (innerText holds it) and unseen; judged once per parent. Without a veil, one native
// call answers "rendered, and no opacity 0 on it or above": then only its paint is judged; else
// it is left out when rendered (transparent), not when it isn't (innerText lacks it).
function leftOut(seen, p) {
  const f = factsOf(seen, p);
  if (f.judged === undefined) {
    f.judged = seen.veils.length
      ? (transparent(seen, p) || paintedUnseen(seen, p, f)) && visible(p, CSS_SHOWN)
      : visible(p, SHOWN_OPAQUE) ? paintedUnseen(seen, p, f) : visible(p, CSS_SHOWN);
  }
  return f.judged;
}
/** el's innerText without the text no one can see; each piece left out counts in `seen.count`. */
export function shownText(seen, el) {
  let t = (el ? read(el, "innerText") : "") ?? "";
  if (!t) return t;
  const walk = call(docOf(el), "createTreeWalker", el, NodeFilter.SHOW_TEXT);
  let cut = [], at = 0, low = null, last = null, gone = false;
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const data = n.data;
    if (!/\S/.test(data)) continue;
    // Text nodes next to each other mostly share a parent: its verdict is looked up once for them.
    const p = n.parentElement;
    if (p !== last) (last = p), (gone = p !== null && leftOut(seen, p));
    if (!gone) continue;
    const d = data.trim().replace(/\s+/g, " ");
    const i = (low ??= t.toLowerCase()).indexOf(d.toLowerCase(), at);
    if (i < 0) continue;
    cut.push([i, i + d.length]);
    at = i + d.length;
    seen.count++;
  }
  for (let k = cut.length - 1; k >= 0; k--) t = t.slice(0, cut[k][0]) + t.slice(cut[k][1]);
  return t;
}
