// Decodes screenshots in an extension page (canvas), so tests and the benchmark need no image library.

/** Runs the reader `name` in the extension page on the decoded `buffer`. */
async function withPixels(extPage, buffer, mime, name, arg) {
  // Every reader decodes the same way: decoder and readers are put in the page once.
  await extPage.evaluate(() => {
    if (globalThis.__duskPixels) return;
    const decode = async (b64, mime) => {
      const img = new Image();
      img.src = `data:${mime};base64,${b64}`;
      await img.decode();
      const ctx = new OffscreenCanvas(img.width, img.height).getContext("2d");
      ctx.drawImage(img, 0, 0);
      const data = ctx.getImageData(0, 0, img.width, img.height).data;
      const lin = new Float32Array(256).map((_, i) => { const c = i / 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; });
      const lum = (i) => 0.2126 * lin[data[i]] + 0.7152 * lin[data[i + 1]] + 0.0722 * lin[data[i + 2]];
      return { width: img.width, height: img.height, data, lum };
    };
    const readers = {
      stats({ data, lum, width, height }) {
        let sum = 0, bright = 0;
        for (let i = 0; i < data.length; i += 4) {
          const y = lum(i);
          sum += y;
          if (y > 0.5) bright++;
        }
        const n = data.length / 4;
        return { luminance: sum / n, bright: bright / n, width, height };
      },

      all({ data }) {
        return Array.from(data);
      },

      spot({ data, width, height }, { rgb: [r, g, b], band, tol }) {
        const top = Math.max(0, height - band);
        let sx = 0, sy = 0, n = 0;
        for (let i = top * width * 4; i < data.length; i += 4) {
          if (Math.abs(data[i] - r) < tol && Math.abs(data[i + 1] - g) < tol && Math.abs(data[i + 2] - b) < tol) {
            const p = i / 4;
            sx += p % width; sy += Math.floor(p / width); n++;
          }
        }
        return n > 20 ? { x: sx / n, y: sy / n } : null;
      },

      cells({ data, lum, width }, cell) {
        const cols = Math.ceil(width / cell);
        const by = new Map();
        for (let i = 0; i < data.length; i += 4) {
          const y = lum(i);
          const p = i / 4;
          const key = Math.floor(Math.floor(p / width) / cell) * cols + Math.floor((p % width) / cell);
          let e = by.get(key);
          if (!e) by.set(key, (e = { n: 0, lum: 0, r: 0, g: 0, b: 0 }));
          e.lum += y;
          if (y > 0.5) { e.n++; e.r += data[i]; e.g += data[i + 1]; e.b += data[i + 2]; }
        }
        return [...by].map(([key, e]) => ({
          x: (key % cols) * cell + cell / 2,
          y: Math.floor(key / cols) * cell + cell / 2,
          n: e.n,
          lum: e.lum,
          rgb: [e.r, e.g, e.b].map((v) => (e.n ? v / e.n : 0)),
        }));
      },
    };
    globalThis.__duskPixels = { decode, readers };
  });
  return extPage.evaluate(async ([b64, mime, name, arg]) => {
    const { decode, readers } = globalThis.__duskPixels;
    return readers[name](await decode(b64, mime), arg);
  }, [Buffer.from(buffer).toString("base64"), mime, name, arg]);
}

/** Mean relative luminance and share of bright pixels (luminance > 0.5) of a PNG/JPEG buffer. */
export async function imageStats(extPage, buffer, mime = "image/png") {
  return withPixels(extPage, buffer, mime, "stats");
}

/** Raw RGBA pixels of a PNG buffer, for exact comparisons. */
export async function rgba(extPage, buffer) {
  return withPixels(extPage, buffer, "image/png", "all");
}

/** The centre of the pixels within `tol` of `rgb` in the bottom `band` rows of a PNG, or null. */
export async function colourSpot(extPage, buffer, rgb, { band = 120, tol = 14 } = {}) {
  return withPixels(extPage, buffer, "image/png", "spot", { rgb, band, tol });
}

/** Per `cell`-px square of a PNG: bright pixels (luminance > 0.5, count and mean colour) and summed luminance; x/y the cell's centre. */
export async function brightCells(extPage, buffer, { cell = 16 } = {}) {
  return withPixels(extPage, buffer, "image/png", "cells", cell);
}
