// Big SVG drawings in dark mode: a masthead logo 1,200 px wide, filled by class rules, paint
// attributes and an inline style, stays a dark disc with a legible glyph; an icon beside it
// follows the text colour; a drawing that resizes across the icon size is painted again.
import assert from "node:assert/strict";
import { computed, fixture, isDark, luminance, resetMemory, setSite, until } from "./dark.mjs";
import { framesDuring } from "../lib/frames.mjs";
import { imageStats } from "../lib/pixels.mjs";

const contrast = (a, b) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};

async function logoIsDarkAndLegible(page) {
  const seen = {};
  for (const id of ["disc", "glyph", "disc2", "glyph2"]) seen[id] = await computed(page, `#${id}`, "fill");
  seen.ring = await computed(page, "#ring", "stroke");
  for (const disc of ["disc", "disc2"]) {
    assert.ok(luminance(seen[disc]) < 0.05, `#${disc} is dark: ${JSON.stringify(seen)}`);
    const [r, , b] = seen[disc].match(/\d+/g).map(Number);
    assert.ok(b > r, `#${disc} keeps its navy: ${seen[disc]}`);
  }
  assert.ok(contrast(seen.glyph, seen.disc) >= 3, `class-rule glyph on its disc: ${JSON.stringify(seen)}`);
  assert.ok(contrast(seen.glyph2, seen.disc2) >= 3, `inline-style glyph on an attribute disc: ${JSON.stringify(seen)}`);
  assert.ok(contrast(seen.ring, seen.disc2) >= 3, `attribute stroke on its disc: ${JSON.stringify(seen)}`);
  return seen;
}

/** Mean luminance of the logo's painted pixels, from a screenshot. */
const logoPixels = (page) => page.evaluate(async () => {
  const box = document.getElementById("logo").getBoundingClientRect();
  return { w: box.width, h: box.height };
});

/** logo.html switched on, once its disc has gone dark. */
async function darkLogo(env) {
  const url = fixture(env, "logo.html");
  const page = await env.open(url);
  await setSite(env, url, true);
  // The page's own navy already reads as dark: the theme is what says the switch landed.
  await until(() => isDark(page), "the page to turn dark");
  await until(async () => luminance(await computed(page, "#disc", "fill")) < 0.05, "the disc to be dark");
  return { url, page };
}

export const tests = [
  ["a logo 1,200 px wide stays a dark disc with a legible glyph (class rules, attributes, inline style); a 24 px icon follows the text colour", async (env) => {
    await resetMemory(env);
    const url = fixture(env, "logo.html");
    const page = await env.open(url);
    try {
      assert.ok((await logoPixels(page)).w >= 1200, "the logo spans 1,200 px");
      await setSite(env, url, true);
      await until(() => isDark(page), "the page to turn dark");
      await until(async () => luminance(await computed(page, "#disc", "fill")) < 0.05, "the disc to be dark");
      await logoIsDarkAndLegible(page);
      // The icon's default fill follows the text colour, as before.
      const text = await computed(page, "#menu", "color");
      assert.ok(luminance(text) > 0.4, `text is light: ${text}`);
      assert.equal(await computed(page, "#iconpath", "fill"), text, "the icon is drawn in the text colour");
      // What a reader sees: the disc's middle-left and the glyph's middle, in pixels.
      const shot = await page.screenshot({ clip: { x: 16, y: 0, width: 600, height: 600 }, fullPage: true });
      const ext = await env.extPage();
      const px = await ext.evaluate(async (b64) => {
        const img = await createImageBitmap(await (await fetch(`data:image/png;base64,${b64}`)).blob());
        const c = new OffscreenCanvas(img.width, img.height);
        const g = c.getContext("2d");
        g.drawImage(img, 0, 0);
        const at = (x, y) => `rgb(${[...g.getImageData(x, y, 1, 1).data.slice(0, 3)].join(", ")})`;
        return { disc: at(40, 300), glyph: at(250, 300) };
      }, shot.toString("base64"));
      const logoTop = await page.evaluate(() => document.getElementById("logo").getBoundingClientRect().top + scrollY);
      assert.ok(logoTop < 60, `the logo starts near the top (${logoTop})`);
      assert.ok(luminance(px.disc) < 0.05, `the disc's pixels are dark: ${JSON.stringify(px)}`);
      assert.ok(contrast(px.glyph, px.disc) >= 3, `the glyph's pixels stand out: ${JSON.stringify(px)}`);
      await setSite(env, url, false);
      await until(async () => !(await isDark(page)), "light again");
      assert.equal(await computed(page, "#disc", "fill"), "rgb(5, 41, 98)", "the page's own navy is back");
      assert.equal(await page.evaluate(() => document.querySelectorAll("[data-dusk-fill], [data-dusk-stroke]").length), 0, "no marks left behind");
      assert.equal(await page.evaluate(() => document.adoptedStyleSheets.length), 0, "no sheet left behind");
    } finally { await resetMemory(env); await page.close(); }
  }],

  ["a reload of a dark site with a big white-on-navy logo paints no bright frame before the logo is measured", async (env) => {
    const { page } = await darkLogo(env);
    try {
      await page.bringToFront();
      const ext = await env.extPage();
      const frames = await framesDuring(env.ctx, page, () => page.reload(), 400);
      assert.ok(frames.length > 0, "frames were recorded");
      const lums = [];
      for (const f of frames) lums.push((await imageStats(ext, f)).luminance);
      console.log(`     ${frames.length} frames, luminance ${lums.map((l) => l.toFixed(3)).join(" ")}`);
      assert.ok(lums.every((l) => l < 0.1), `a bright frame while reloading: ${lums.map((l) => l.toFixed(3))}`);
    } finally { await resetMemory(env); await page.close(); }
  }],

  ["the site's sepia reaches a big drawing too, its glyph still legible", async (env) => {
    const { url, page } = await darkLogo(env);
    try {
      const before = await computed(page, "#glyph", "fill");
      // As the popup's sliders store a site's own setting: through the worker.
      const reply = await env.sendToWorker({ type: "dark_set_adjust", tab_id: await env.tabIdFor(url), site: true, adjust: { brightness: 100, contrast: 100, sepia: 100, grayscale: 0 } });
      assert.equal(reply.type, "dark_state", JSON.stringify(reply));
      await until(async () => { const [r, , b] = (await computed(page, "#glyph", "fill")).match(/\d+/g).map(Number); return r > b + 2; }, "sepia to warm the glyph");
      const after = await computed(page, "#glyph", "fill");
      assert.notEqual(after, before);
      const disc = await computed(page, "#disc", "fill");
      assert.ok(luminance(disc) < 0.05, `the disc stays dark: ${disc}`);
      assert.ok(contrast(after, disc) >= 3, `the glyph stands out on it: ${after} on ${disc}`);
    } finally {
      await (await env.extPage()).evaluate(() => chrome.storage.local.remove(["dark_adjust", "dark_adjust_sites"]));
      await resetMemory(env); await page.close();
    }
  }],

  ["a logo in a same-origin frame goes dark with a legible glyph, drawings added later too, and nothing is left when switched off", async (env) => {
    const url = fixture(env, "logo-frame.html");
    const page = await env.open(url);
    try {
      const frame = await (await page.waitForSelector("#frame")).contentFrame();
      await frame.waitForSelector("#logo");
      await setSite(env, url, true);
      // The frame's own navy already reads as dark: wait for its theme, then for the marks.
      await until(() => isDark(frame), "the frame to turn dark");
      await until(async () => luminance(await computed(frame, "#disc", "fill")) < 0.05, "the framed disc to be dark");
      await logoIsDarkAndLegible(frame);
      await until(async () => luminance(await computed(frame, "#iconpath", "fill")) > 0.3, "the framed icon to follow the light text");
      // A drawing the frame adds later is measured and painted too.
      await frame.evaluate(() => document.body.insertAdjacentHTML("beforeend", '<svg class="logo" style="width: 900px; height: 300px" viewBox="0 0 90 30"><rect class="disc" id="late" width="90" height="30"/></svg>'));
      await until(async () => luminance(await computed(frame, "#late", "fill")) < 0.05, "the late drawing to be dark");
      await setSite(env, url, false);
      await until(async () => (await computed(frame, "#disc", "fill")) === "rgb(5, 41, 98)", "the frame's own navy back");
      assert.equal(await frame.evaluate(() => document.querySelectorAll("[data-dusk-fill], [data-dusk-stroke], [data-dusk-icon], [data-dusk-large]").length), 0, "no marks left in the frame");
      assert.equal(await frame.evaluate(() => document.adoptedStyleSheets.length), 0, "no sheet left in the frame");
    } finally { await resetMemory(env); await page.close(); }
  }],

  ["a drawing that grows past icon size goes dark, and back at icon size follows the text colour again", async (env) => {
    await resetMemory(env);
    const url = fixture(env, "logo.html");
    const page = await env.open(url);
    const fill = (id) => computed(page, `#${id}`, "fill");
    try {
      await setSite(env, url, true);
      // The page's own navy already reads as dark, so wait for the theme itself, then its marks.
      await until(() => isDark(page), "the page to turn dark");
      await until(async () => luminance(await fill("disc")) < 0.05, "the big disc to be dark");
      await until(async () => luminance(await fill("fdisc")) > 0.3, "a 40 px drawing is an icon: light like text");
      // A class change resizes it: no attribute the page's mutations are watched for.
      await page.evaluate(() => { document.getElementById("holder").className = "wide"; });
      await until(async () => luminance(await fill("fdisc")) < 0.05, "the grown drawing's disc to be dark");
      assert.ok(contrast(await fill("fglyph"), await fill("fdisc")) >= 3, "its glyph stays legible");
      await page.evaluate(() => { document.getElementById("holder").className = ""; });
      await until(async () => luminance(await fill("fdisc")) > 0.3, "the shrunk drawing to be drawn like an icon again");
      assert.equal(await page.evaluate(() => document.querySelectorAll("#fluid [data-dusk-fill]").length), 0, "its marks are off");
      await logoIsDarkAndLegible(page);
    } finally { await resetMemory(env); await page.close(); }
  }],
];
