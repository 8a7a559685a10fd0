// What a colour mapping can't see on a page Dusk recolours: text painted translucent
// (nbconvert's `In [1]:` prompts at opacity 0.5) and a light raster strip behind text (doxygen's
// menu bar, `tab_b.png`). Both must reach AA as painted, and nothing else may change.
import assert from "node:assert/strict";
import { aaByPixels } from "../lib/aa_pixels.mjs";
import { imageStats } from "../lib/pixels.mjs";
import { isDark, resetMemory, setSite, until } from "./dark.mjs";

const corpus = (env, rel) => `${env.base}/corpus/apps/${rel}`;

async function darkened(env, rel) {
  await resetMemory(env);
  const url = corpus(env, rel);
  // Wide enough for doxygen's menu bar (shown from 768 px) and nbconvert's prompts.
  const page = await env.open("about:blank");
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(url, { waitUntil: "load" });
  const light = await page.evaluate(() => {
    const s = getComputedStyle(document.querySelector("#main-menu") ?? document.body);
    return { repeat: s.backgroundRepeat, size: s.backgroundSize, position: s.backgroundPosition };
  });
  await setSite(env, url, true);
  await until(() => isDark(page), "the page to turn dark");
  return { page, url, light };
}

/** Luminance of `c` ("rgb(…)" or "rgba(…)"), blended at `opacity` over `bg` ([r, g, b]). */
function painted(c, opacity, bg) {
  const [r, g, b, a = 1] = c.match(/[\d.]+/g).map(Number);
  const k = a * opacity;
  return [r, g, b].map((v, i) => v * k + bg[i] * (1 - k));
}
const lum = ([r, g, b]) => {
  const lin = (c) => { c /= 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
};
const ratio = (x, y) => (Math.max(lum(x), lum(y)) + 0.05) / (Math.min(lum(x), lum(y)) + 0.05);

export const tests = [
  ["nbconvert's prompts at opacity 0.5 are raised until they pass as painted, and only translucent text is", async (env) => {
    const { page } = await darkened(env, "notebook/shop.html");
    try {
      await until(() => page.evaluate(() => document.querySelectorAll(".jp-InputPrompt[data-dusk-aa]").length > 0), "the prompts raised");
      // The prompts that say something (a markdown cell's is empty).
      const prompts = await page.evaluate(() => [...document.querySelectorAll(".jp-InputPrompt, .jp-OutputPrompt")].filter((el) => el.textContent.trim()).map((el) => {
        let o = 1;
        for (let e = el; e; e = e.parentElement) o *= Number(getComputedStyle(e).opacity);
        let bg = "rgba(0, 0, 0, 0)";
        for (let e = el; e && /rgba\(.*, 0\)$/.test(bg); e = e.parentElement) bg = getComputedStyle(e).backgroundColor;
        return { color: getComputedStyle(el).color, opacity: o, bg, mark: el.getAttribute("data-dusk-aa") };
      }));
      assert.ok(prompts.length >= 3, `prompts: ${prompts.length}`);
      for (const p of prompts) {
        assert.ok(p.opacity < 1, "control: the prompt is painted translucent");
        const bg = p.bg.match(/[\d.]+/g).slice(0, 3).map(Number);
        const r = ratio(painted(p.color, p.opacity, bg), bg);
        assert.ok(r >= 4.5, `a prompt as painted: ${p.color} at ${p.opacity} on ${p.bg}: ${r.toFixed(2)}:1`);
      }
      // Every mark sits on text painted translucent: opaque text keeps the theme's colour.
      const opaqueMarked = await page.evaluate(() => [...document.querySelectorAll("[data-dusk-aa]")].filter((el) => {
        for (let e = el; e; e = e.parentElement) if (Number(getComputedStyle(e).opacity) < 1) return false;
        return true;
      }).length);
      assert.equal(opaqueMarked, 0, "only translucent text is raised");
      const aa = await aaByPixels(page, await env.extPage());
      assert.ok(aa.share >= 0.98, `AA as painted: ${aa.share.toFixed(3)} ${JSON.stringify(aa.failures.slice(0, 3))}`);
      // Switched off, no mark is left.
      await setSite(env, page.url(), false);
      await until(async () => !(await isDark(page)), "the page to turn light");
      assert.equal(await page.evaluate(() => document.querySelectorAll("[data-dusk-aa]").length), 0, "no raise mark is left");
    } finally { await resetMemory(env); }
  }],

  ["doxygen's light menu strip (tab_b.png) is redrawn dark at its own size, and its text meets AA", async (env) => {
    const { page, light } = await darkened(env, "doxygen/shop_8h.html");
    try {
      await until(() => page.evaluate(() => getComputedStyle(document.querySelector("#main-menu")).backgroundImage.includes("data:image/svg")), "the menu strip redrawn");
      await page.waitForTimeout(300);
      const now = await page.evaluate(() => {
        const s = getComputedStyle(document.querySelector("#main-menu"));
        return { repeat: s.backgroundRepeat, size: s.backgroundSize, position: s.backgroundPosition };
      });
      assert.deepEqual(now, light, "tiled and placed as the page draws it");
      const box = await page.evaluate(() => { const r = document.querySelector("#main-menu").getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }; });
      const bar = await imageStats(await env.extPage(), await page.screenshot({ clip: box }));
      assert.ok(bar.luminance < 0.06 && bar.bright < 0.05, `the menu bar is dark: luminance ${bar.luminance.toFixed(3)}, bright ${bar.bright.toFixed(3)}`);
      const aa = await aaByPixels(page, await env.extPage());
      assert.ok(aa.share >= 0.98, `AA as painted: ${aa.share.toFixed(3)} ${JSON.stringify(aa.failures.slice(0, 3))}`);
      // An image that isn't a light strip (the folder and document icons, 24×22) stays as drawn.
      const icons = await page.evaluate(() => [...document.styleSheets].flatMap((s) => { try { return [...s.cssRules]; } catch { return []; } })
        .filter((r) => r.style?.backgroundImage?.includes("folderopen.png")).length);
      const themed = await page.evaluate(() => document.adoptedStyleSheets.some((s) => [...s.cssRules].some((r) => r.cssText.includes("folderopen"))));
      assert.ok(icons > 0 && !themed, "the icons' rules are not redrawn");
    } finally { await resetMemory(env); }
  }],
];
