// Measures, inside a page, what a reader sees: text contrast per WCAG 2.1 against the effective
// background (ancestor backgrounds composited), plus a snapshot of every element's colours.
// Each export is a self-contained function for page.evaluate().

/** Share of visible text characters meeting AA (4.5:1, or 3:1 for large text), and the failures. */
export function aaReport() {
  const parse = (s) => {
    const m = s && s.match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number);
    return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 };
  };
  const over = (top, below) => ({
    r: top.r * top.a + below.r * (1 - top.a), g: top.g * top.a + below.g * (1 - top.a), b: top.b * top.a + below.b * (1 - top.a), a: 1,
  });
  const lin = (c) => { c /= 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  const lum = (c) => 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const styles = new Map();
  const style = (el) => { let s = styles.get(el); if (!s) { s = getComputedStyle(el); styles.set(el, s); } return s; };
  const rootScheme = style(document.documentElement).colorScheme || "";
  const canvas = rootScheme.includes("dark") && !rootScheme.includes("light") ? { r: 18, g: 18, b: 18, a: 1 } : { r: 255, g: 255, b: 255, a: 1 };
  const bgCache = new Map();
  const background = (el) => {
    if (!el) return canvas;
    if (bgCache.has(el)) return bgCache.get(el);
    const own = parse(style(el).backgroundColor);
    const parent = el.parentElement || (el.getRootNode() instanceof ShadowRoot ? el.getRootNode().host : null);
    const result = own && own.a >= 0.999 ? own : own && own.a > 0 ? over(own, background(parent)) : background(parent);
    bgCache.set(el, result);
    return result;
  };
  let total = 0, pass = 0;
  const failures = [];
  const visit = (root) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (n.nodeType === 1) { if (n.shadowRoot) visit(n.shadowRoot); continue; }
      const text = n.data.trim();
      const el = n.parentElement;
      if (!text || !el || ["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "TITLE"].includes(el.tagName)) continue;
      const s = style(el);
      if (s.visibility !== "visible" || Number(s.opacity) === 0) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
      if (!rects.length) continue;
      const fg0 = parse(s.color);
      if (!fg0 || fg0.a === 0) continue;
      const bg = background(el);
      const fg = fg0.a < 1 ? over(fg0, bg) : fg0;
      const size = parseFloat(s.fontSize), weight = Number(s.fontWeight) || 400;
      const large = size >= 24 || (size >= 18.66 && weight >= 700);
      const r = ratio(fg, bg);
      const ok = r >= (large ? 3 : 4.5);
      total += text.length;
      if (ok) pass += text.length;
      else if (failures.length < 8) failures.push({ text: text.slice(0, 40), ratio: Math.round(r * 100) / 100, color: s.color, bg: `rgb(${bg.r | 0}, ${bg.g | 0}, ${bg.b | 0})`, tag: el.tagName, cls: el.className });
    }
  };
  visit(document.documentElement);
  return { share: total ? pass / total : 1, chars: total, failures };
}

/** Every element's colour-related computed values, to prove a page is restored exactly. */
export function colourSnapshot() {
  const props = ["color", "background-color", "background-image", "border-top-color", "fill", "color-scheme", "box-shadow"];
  const out = [];
  const visit = (root) => {
    for (const el of root.querySelectorAll("*")) {
      const s = getComputedStyle(el);
      out.push(el.tagName + ":" + props.map((p) => s.getPropertyValue(p)).join("|"));
      if (el.shadowRoot) visit(el.shadowRoot);
    }
  };
  visit(document);
  return out;
}

/** Every element's box, to prove theming moves nothing. */
export function layoutSnapshot() {
  return [...document.querySelectorAll("body *")].map((el) => {
    const r = el.getBoundingClientRect();
    return [Math.round(r.x * 10), Math.round(r.y * 10), Math.round(r.width * 10), Math.round(r.height * 10)].join(",");
  });
}

/** The colour behind `selector` (its own and its ancestors' backgrounds composited), as "r,g,b". */
export function backgroundBehind(selector) {
  const find = (root) => root.querySelector(selector) ?? [...root.querySelectorAll("*")].map((e) => e.shadowRoot && find(e.shadowRoot)).find(Boolean);
  let el = find(document);
  const layers = [];
  while (el) {
    const m = getComputedStyle(el).backgroundColor.match(/[\d.]+/g)?.map(Number) ?? [0, 0, 0, 0];
    layers.push({ r: m[0], g: m[1], b: m[2], a: m.length > 3 ? m[3] : 1 });
    el = el.parentElement || (el.getRootNode() instanceof ShadowRoot ? el.getRootNode().host : null);
  }
  const scheme = getComputedStyle(document.documentElement).colorScheme;
  let c = scheme.includes("dark") && !scheme.includes("light") ? { r: 18, g: 18, b: 18 } : { r: 255, g: 255, b: 255 };
  for (const l of layers.reverse()) c = { r: l.r * l.a + c.r * (1 - l.a), g: l.g * l.a + c.g * (1 - l.a), b: l.b * l.a + c.b * (1 - l.a) };
  return `rgb(${Math.round(c.r)}, ${Math.round(c.g)}, ${Math.round(c.b)})`;
}
