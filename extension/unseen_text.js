// Text a person can't see, left out of what the always-on script reads (content.js). Reads go
// through `read` and `call`: a page can shadow a form's or a document's members.
import { read, call, getter, method } from "./unshadowed.js";

// Read for every text parent: the prototypes' own getters, one call each.
const parentOf = getter(Node, "parentElement"), docOf = getter(Node, "ownerDocument");
const visible = method(Element, "checkVisibility"), nameOf = getter(Element, "localName");
const CSS_SHOWN = { checkVisibilityCSS: true }, SHOWN_OPAQUE = { checkVisibilityCSS: true, opacityProperty: true };

// Rendered text a person still can't see: no size, transparent, the colour of what is behind it,
// or clipped to nothing. `text(el)` is el's innerText without it; `count` the pieces left out.
// Each element's style is read once, and only for the text read (text_snapshot's budget).
export function unseenText(veils = []) {
  const facts = new Map(), colours = new Map(), out = { count: 0 };
  // Each element's computed style and what is found of it, in one record: one lookup per question.
  // This window's getComputedStyle reads an element of any document; asking each element's own
  // window would cost two reads per element, and a page's text parents number in thousands.
  const factsOf = (e) => {
    let f = facts.get(e);
    if (!f) facts.set(e, (f = { style: getComputedStyle(e), behind: undefined, plain: undefined, tiny: undefined, faded: undefined, judged: undefined }));
    return f;
  };
  const style = (e) => factsOf(e).style;
  const up = (e) => parentOf(e) || call(e, "getRootNode").host || null;
  const parse = (c) => { const m = /^rgba?\(([\d.]+),? ([\d.]+),? ([\d.]+)(?:,? \/?\s*([\d.]+))?/.exec(c); return m ? [+m[1], +m[2], +m[3], m[4] === undefined ? 1 : +m[4]] : null; };
  // A page uses a few colours thousands of times: each is parsed once.
  const rgb = (c) => { let v = colours.get(c); if (v === undefined) colours.set(c, (v = parse(c))); return v; };
  // The colour painted behind e: the nearest opaque background; null when an image or unknown.
  const page = () => (/dark/.test(style(read(document, "documentElement")).colorScheme) ? null : [255, 255, 255, 1]);
  const back = (e) => {
    if (!e) return page();
    const f = factsOf(e);
    if (f.behind === undefined) { const c = rgb(f.style.backgroundColor); f.behind = f.style.backgroundImage !== "none" ? null : c && c[3] > 0.9 ? c : back(up(e)); }
    return f.behind;
  };
  // The same with images left aside: `back` is this colour or null, so text far from it is far
  // from what `back` says too, and the images need reading only for text near it.
  const plain = (e, f = e && factsOf(e)) => {
    if (!e) return page();
    if (f.plain === undefined) { const c = rgb(f.style.backgroundColor); f.plain = c && c[3] > 0.9 ? c : plain(up(e)); }
    return f.plain;
  };
  // What is painted right under p's text on screen: true for an image or a picture, else a
  // colour; null off screen or unknown (then its ancestors' background decides).
  const under = (p) => {
    const r = call(p, "getBoundingClientRect"), d = read(p, "ownerDocument"), v = read(d, "defaultView"), x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (!(r.width > 0 && x >= 0 && y >= 0 && x < v.innerWidth && y < v.innerHeight)) return null;
    const stack = call(d, "elementsFromPoint", x, y), inside = (e) => call(p, "contains", e);
    for (const e of stack.slice(stack.findIndex((e) => e === p || inside(e)) + 1 || stack.length)) {
      if (inside(e)) continue;
      const s = style(e), c = rgb(s.backgroundColor);
      if (/^(img|video|canvas|picture|svg|iframe|embed|object)$/.test(read(e, "localName")) || s.backgroundImage !== "none") return true;
      if (c && c[3] > 0.9) return c;
    }
    return null;
  };
  // Clipped to nothing: a placed box of a pixel or less that clips or hides its overflow, on p or
  // just above it (how "visually hidden" text is written). Its position first: a style read costs
  // less than the two layout reads, and few boxes are placed.
  const tiny = (e, f = e && factsOf(e)) => {
    if (!e) return false;
    if (f.tiny === undefined) {
      const s = f.style, at = s.position;
      f.tiny = (at === "absolute" || at === "fixed") && !/^(body|html)$/.test(nameOf(e)) && !(read(e, "offsetWidth") > 1 && read(e, "offsetHeight") > 1) &&
        (s.overflow !== "visible" || s.clip !== "auto" || s.clipPath !== "none");
    }
    return f.tiny;
  };
  // Opacity 0 on e or an ancestor.
  const transparent = (e) => {
    if (!e) return false;
    const f = factsOf(e);
    if (f.faded === undefined) f.faded = (f.style.opacity === "0" && !veils.includes(e)) || transparent(up(e));
    return f.faded;
  };
  const near = (c, b) => Math.abs(c[0] - b[0]) + Math.abs(c[1] - b[1]) + Math.abs(c[2] - b[2]) < 30;
  // Unseen though rendered and not transparent: no size, no colour against its background, clipped.
  // p's record is handed down: a text parent's questions cost one lookup.
  const paintedUnseen = (p, f) => {
    const s = f.style;
    if (parseFloat(s.fontSize) < 1) return true;
    const c = rgb(s.color);
    if (!c) return false;
    if (c[3] < 0.1) return !(s.webkitBackgroundClip === "text" || s.backgroundClip === "text");
    const flat = plain(p, f), b = flat && near(c, flat) && back(p);
    // Text the colour of its background is unseen unless something else shows under it.
    if (b && near(c, b)) { const u = under(p); if (u === null || (u !== true && near(c, u))) return true; }
    return tiny(p, f) || tiny(up(p));
  };
  // Rendered (innerText holds it) and unseen; judged once per parent. Without a veil, one native
  // call answers "rendered, and no opacity 0 on it or above": then only its paint is judged; else
  // it is left out when rendered (transparent), not when it isn't (innerText lacks it).
  const judge = veils.length
    ? (p, f) => (transparent(p) || paintedUnseen(p, f)) && visible(p, CSS_SHOWN)
    : (p, f) => (visible(p, SHOWN_OPAQUE) ? paintedUnseen(p, f) : visible(p, CSS_SHOWN));
  const leftOut = (p) => {
    const f = factsOf(p);
    if (f.judged === undefined) f.judged = judge(p, f);
    return f.judged;
  };
  out.text = (el) => {
    let t = (el ? read(el, "innerText") : "") ?? "";
    if (!t) return t;
    const walk = call(docOf(el), "createTreeWalker", el, NodeFilter.SHOW_TEXT);
    let cut = [], at = 0, low = null, last = null, gone = false;
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const data = n.data;
      if (!/\S/.test(data)) continue;
      // Text nodes next to each other mostly share a parent: its verdict is looked up once for them.
      const p = n.parentElement;
      if (p !== last) (last = p), (gone = p !== null && leftOut(p));
      if (!gone) continue;
      const d = data.trim().replace(/\s+/g, " ");
      const i = (low ??= t.toLowerCase()).indexOf(d.toLowerCase(), at);
      if (i < 0) continue;
      cut.push([i, i + d.length]);
      at = i + d.length;
      out.count++;
    }
    for (let k = cut.length - 1; k >= 0; k--) t = t.slice(0, cut[k][0]) + t.slice(cut[k][1]);
    return t;
  };
  // Each element's computed style, shared with the measure around it (page_blocks.js).
  out.style = style;
  return out;
}
