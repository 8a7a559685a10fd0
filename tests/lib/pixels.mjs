// Decodes screenshots in an extension page (canvas), so tests and the benchmark need no image library.

/** Mean relative luminance and share of bright pixels (luminance > 0.5) of a PNG/JPEG buffer. */
export async function imageStats(extPage, buffer, mime = "image/png") {
  return extPage.evaluate(async ([b64, mime]) => {
    const img = new Image();
    img.src = `data:${mime};base64,${b64}`;
    await img.decode();
    const c = new OffscreenCanvas(img.width, img.height);
    const g = c.getContext("2d");
    g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, img.width, img.height).data;
    const lut = new Float32Array(256).map((_, i) => { const c = i / 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; });
    let sum = 0, bright = 0;
    const n = d.length / 4;
    for (let i = 0; i < d.length; i += 4) {
      const y = 0.2126 * lut[d[i]] + 0.7152 * lut[d[i + 1]] + 0.0722 * lut[d[i + 2]];
      sum += y;
      if (y > 0.5) bright++;
    }
    return { luminance: sum / n, bright: bright / n, width: img.width, height: img.height };
  }, [Buffer.from(buffer).toString("base64"), mime]);
}

/** Raw RGBA pixels of a PNG buffer, for exact comparisons. */
export async function rgba(extPage, buffer) {
  return extPage.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = new OffscreenCanvas(img.width, img.height);
    const g = c.getContext("2d");
    g.drawImage(img, 0, 0);
    return Array.from(g.getImageData(0, 0, img.width, img.height).data);
  }, Buffer.from(buffer).toString("base64"));
}

/** The centre of the pixels within `tol` of `rgb` in the bottom `band` rows of a PNG, or null. */
export async function colourSpot(extPage, buffer, rgb, { band = 120, tol = 14 } = {}) {
  return extPage.evaluate(async ([b64, [r, g, b], band, tol]) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = new OffscreenCanvas(img.width, img.height);
    const ctx = c.getContext("2d");
    ctx.drawImage(img, 0, 0);
    const top = Math.max(0, img.height - band);
    const d = ctx.getImageData(0, top, img.width, img.height - top).data;
    let sx = 0, sy = 0, n = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (Math.abs(d[i] - r) < tol && Math.abs(d[i + 1] - g) < tol && Math.abs(d[i + 2] - b) < tol) {
        const p = i / 4;
        sx += p % img.width; sy += top + Math.floor(p / img.width); n++;
      }
    }
    return n > 20 ? { x: sx / n, y: sy / n } : null;
  }, [Buffer.from(buffer).toString("base64"), rgb, band, tol]);
}

/** Per `cell`-px square of a PNG: bright pixels (luminance > 0.5, count and mean colour) and summed luminance; x/y the cell's centre. */
export async function brightCells(extPage, buffer, { cell = 16 } = {}) {
  return extPage.evaluate(async ([b64, cell]) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = new OffscreenCanvas(img.width, img.height);
    const g = c.getContext("2d");
    g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, img.width, img.height).data;
    const lut = new Float32Array(256).map((_, i) => { const c = i / 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; });
    const cols = Math.ceil(img.width / cell);
    const cells = new Map();
    for (let i = 0; i < d.length; i += 4) {
      const y = 0.2126 * lut[d[i]] + 0.7152 * lut[d[i + 1]] + 0.0722 * lut[d[i + 2]];
      const p = i / 4;
      const key = Math.floor(Math.floor(p / img.width) / cell) * cols + Math.floor((p % img.width) / cell);
      let e = cells.get(key);
      if (!e) cells.set(key, (e = { n: 0, lum: 0, r: 0, g: 0, b: 0 }));
      e.lum += y;
      if (y > 0.5) { e.n++; e.r += d[i]; e.g += d[i + 1]; e.b += d[i + 2]; }
    }
    return [...cells].map(([key, e]) => ({
      x: (key % cols) * cell + cell / 2,
      y: Math.floor(key / cols) * cell + cell / 2,
      n: e.n,
      lum: e.lum,
      rgb: [e.r, e.g, e.b].map((v) => (e.n ? v / e.n : 0)),
    }));
  }, [Buffer.from(buffer).toString("base64"), cell]);
}
