// WCAG AA share measured on what is painted: each line of text's background is the commonest
// pixel colour under it in a screenshot (so images, gradients, overlays and opacity all count),
// its foreground the computed text colour faded by every ancestor's opacity. The whole page is
// covered, one viewport at a time.

/** In the page: text boxes fully inside the viewport that are really visible, not yet seen. */
export function visibleTextBoxes(seenKey) {
  const seen = (window[seenKey] ??= new Set());
  const ids = (window.__aaIds ??= new WeakMap());
  let nextId = (window.__aaNext ??= 0);
  const parse = (s) => {
    const m = s && s.match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const parentOf = (el) => el.parentElement || (el.getRootNode() instanceof ShadowRoot ? el.getRootNode().host : null);
  const opacities = new Map();
  const opacity = (el) => {
    if (!el) return 1;
    if (!opacities.has(el)) opacities.set(el, Number(getComputedStyle(el).opacity) * opacity(parentOf(el)));
    return opacities.get(el);
  };
  const vw = innerWidth, vh = innerHeight;
  const out = [];
  const visit = (root) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (n.nodeType === 1) { if (n.shadowRoot) visit(n.shadowRoot); continue; }
      const text = n.data.replace(/\s+/g, "");
      const el = n.parentElement;
      if (!text || !el || ["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "TITLE", "OPTION"].includes(el.tagName)) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      const rects = [...range.getClientRects()].filter((r) => r.width >= 1 && r.height >= 1);
      const width = rects.reduce((a, r) => a + r.width, 0);
      if (!ids.has(n)) ids.set(n, nextId++);
      rects.forEach((r, i) => {
        const key = `${ids.get(n)}:${i}`;
        if (seen.has(key) || r.top < 0 || r.bottom > vh || r.left < 0 || r.right > vw) return;
        const s = getComputedStyle(el);
        if (s.visibility !== "visible") return;
        // Clipped away or covered by something else: not visible text.
        const hit = (el.getRootNode().elementFromPoint ?? document.elementFromPoint).call(el.getRootNode(), r.left + r.width / 2, r.top + r.height / 2);
        if (!hit || !(el.contains(hit) || hit.contains(el))) return;
        const fill = s.webkitTextFillColor && s.webkitTextFillColor !== s.color ? s.webkitTextFillColor : s.color;
        const fg = parse(fill);
        if (!fg || fg[3] === 0) return;
        seen.add(key);
        const size = parseFloat(s.fontSize), weight = Number(s.fontWeight) || 400;
        out.push({
          x: r.left, y: r.top, w: r.width, h: r.height,
          chars: text.length * (r.width / width),
          fg, alpha: fg[3] * opacity(el),
          large: size >= 24 || (size >= 18.66 && weight >= 700),
          text: n.data.trim().slice(0, 30), tag: el.tagName, cls: String(el.className).slice(0, 40),
        });
      });
    }
  };
  visit(document.documentElement);
  window.__aaNext = nextId;
  return out;
}

/** In an extension page: scores boxes against a screenshot (base64 PNG at CSS-pixel scale). */
export async function scoreBoxes([b64, boxes]) {
  const img = new Image();
  img.src = `data:image/png;base64,${b64}`;
  await img.decode();
  const c = new OffscreenCanvas(img.width, img.height);
  const g = c.getContext("2d", { willReadFrequently: true });
  g.drawImage(img, 0, 0);
  const lin = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const lum = (p) => 0.2126 * lin(p[0]) + 0.7152 * lin(p[1]) + 0.0722 * lin(p[2]);
  const results = [];
  for (const b of boxes) {
    const x = Math.max(0, Math.floor(b.x)), y = Math.max(0, Math.floor(b.y));
    const w = Math.min(img.width - x, Math.ceil(b.w)), h = Math.min(img.height - y, Math.ceil(b.h));
    if (w < 1 || h < 1) continue;
    const d = g.getImageData(x, y, w, h).data;
    const counts = new Map();
    let best = 0, bg = 0;
    for (let i = 0; i < d.length; i += 4) {
      const k = (d[i] << 16) | (d[i + 1] << 8) | d[i + 2];
      const n = (counts.get(k) ?? 0) + 1;
      counts.set(k, n);
      if (n > best) { best = n; bg = k; }
    }
    const bgc = [bg >> 16, (bg >> 8) & 255, bg & 255];
    const fg = b.fg.slice(0, 3).map((v, i) => v * b.alpha + bgc[i] * (1 - b.alpha));
    const [hi, lo] = [lum(fg), lum(bgc)].sort((p, q) => q - p);
    const ratio = (hi + 0.05) / (lo + 0.05);
    results.push({ chars: b.chars, ok: ratio >= (b.large ? 3 : 4.5), ratio, bg: `rgb(${bgc.join(",")})`, fg: `rgb(${fg.map(Math.round).join(",")})`, text: b.text, tag: b.tag, cls: b.cls });
  }
  return results;
}

/** Share of the page's visible characters meeting AA, scrolling through it a viewport at a time. */
export async function aaByPixels(page, extPage, { maxScreens = 60 } = {}) {
  const seenKey = `__aaSeen${Date.now()}`;
  const { height, vh } = await page.evaluate(() => ({ height: document.documentElement.scrollHeight, vh: innerHeight }));
  let total = 0, pass = 0;
  const failures = [];
  const step = Math.max(200, Math.floor(vh * 0.75));
  for (let y = 0, screens = 0; screens < maxScreens; y += step, screens++) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const boxes = await page.evaluate(visibleTextBoxes, seenKey);
    if (boxes.length) {
      const shot = await page.screenshot({ scale: "css" });
      for (const r of await extPage.evaluate(scoreBoxes, [shot.toString("base64"), boxes])) {
        total += r.chars;
        if (r.ok) pass += r.chars;
        else failures.push(r);
      }
    }
    if (y + vh >= height) break;
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  failures.sort((a, b) => b.chars - a.chars);
  return { share: total ? pass / total : 1, chars: Math.round(total), failures: failures.slice(0, 8).map((f) => ({ ...f, chars: Math.round(f.chars), ratio: Math.round(f.ratio * 100) / 100 })) };
}
