// Modern pages that ship their own dark design get it, not a recolouring: light-dark() colours,
// a palette of custom properties with a dark set, <picture> sources for the dark scheme.
// Canvas and video pixels stay exactly as the page drew them.
import assert from "node:assert/strict";
import { imageStats, rgba } from "../lib/pixels.mjs";
import { computed, isDark, resetMemory, setSite, until } from "./dark.mjs";

const page_ = (env, name) => `${env.base}/corpus/modern/${name}`;

async function switchedOn(env, name) {
  await resetMemory(env);
  const url = page_(env, name);
  const page = await env.open(url);
  await setSite(env, url, true);
  await until(() => isDark(page), "the page to turn dark");
  return { page, url };
}

/** Whole-pixel clip of an element's inside (its border left out). */
async function inside(page, sel) {
  const box = await page.locator(sel).boundingBox();
  return { x: Math.ceil(box.x) + 2, y: Math.ceil(box.y) + 2, width: Math.floor(box.width) - 4, height: Math.floor(box.height) - 4 };
}

export const tests = [
  ["a page written with light-dark() and color-scheme: light dark gets the site's own dark colours", async (env) => {
    const { page } = await switchedOn(env, "light-dark.html");
    try {
      assert.equal(await computed(page, "body", "background-color"), "rgb(16, 20, 24)", "the site's own dark background");
      assert.equal(await computed(page, "body", "color"), "rgb(227, 232, 239)", "the site's own light text");
      assert.equal(await computed(page, ".card", "background-color"), "rgb(27, 34, 44)", "the site's own dark card");
      assert.equal(await computed(page, "header a", "color"), "rgb(122, 184, 255)", "the site's own link blue");
      assert.equal(await computed(page, ".note", "color"), "rgb(242, 231, 179)");
      assert.match(await computed(page, "html", "color-scheme"), /dark/);
    } finally { await resetMemory(env); await page.close(); }
  }],

  ["a palette of custom properties with a dark set gets that set, and a <picture> shows its dark-scheme source", async (env) => {
    await resetMemory(env);
    const url = page_(env, "palette.html");
    const page = await env.open(url);
    const ext = await env.extPage();
    try {
      await page.waitForFunction(() => document.querySelector("#chart img").complete);
      const light = await imageStats(ext, await page.screenshot({ clip: await inside(page, "#chart img") }));
      assert.ok(light.luminance > 0.4, `control: the light chart shows first (${light.luminance})`);
      await setSite(env, url, true);
      await until(() => isDark(page), "the page to turn dark");
      assert.equal(await computed(page, "body", "background-color"), "rgb(17, 19, 24)", "the palette's own dark background");
      assert.equal(await computed(page, "body", "color"), "rgb(228, 230, 235)", "the palette's own text colour");
      assert.equal(await computed(page, ".trail", "background-color"), "rgb(28, 31, 38)");
      assert.equal(await computed(page, ".button", "color"), "rgb(11, 18, 32)", "dark text on the light accent, as the site designed");
      await until(async () => (await imageStats(ext, await page.screenshot({ clip: await inside(page, "#chart img") }))).luminance < 0.3, "the dark chart to show");
      await setSite(env, url, false);
      await until(async () => (await imageStats(ext, await page.screenshot({ clip: await inside(page, "#chart img") }))).luminance > 0.4, "the light chart to come back");
      // The source's density candidates come along: on a 2x screen the theme loads its 2x image.
      const cdp = await env.ctx.newCDPSession(page);
      await cdp.send("Emulation.setDeviceMetricsOverride", { width: 1280, height: 800, deviceScaleFactor: 2, mobile: false });
      try {
        assert.ok(!(await page.evaluate(() => performance.getEntriesByType("resource").some((e) => e.name.endsWith("chart-dark@2x.png")))), "control: not loaded at 1x");
        await setSite(env, url, true);
        await until(() => page.evaluate(() => performance.getEntriesByType("resource").some((e) => e.name.endsWith("chart-dark@2x.png"))), "the 2x candidate to load on a 2x screen");
      } finally { await cdp.send("Emulation.clearDeviceMetricsOverride"); await cdp.detach(); }
    } finally { await resetMemory(env); await page.close(); }
  }],

  ["canvas and video pixels are unchanged", async (env) => {
    await resetMemory(env);
    const url = page_(env, "media.html");
    const page = await env.open(url);
    const ext = await env.extPage();
    try {
      // One still frame of the clip, the same before and after.
      await page.evaluate(() => new Promise((done) => {
        const v = document.getElementById("clip");
        const seek = () => { v.addEventListener("seeked", () => requestAnimationFrame(() => requestAnimationFrame(done)), { once: true }); v.currentTime = 0.5; };
        if (v.readyState >= 1) seek(); else v.addEventListener("loadedmetadata", seek, { once: true });
      }));
      const shots = async () => ({
        canvas: await rgba(ext, await page.screenshot({ clip: await inside(page, "#target") })),
        video: await rgba(ext, await page.screenshot({ clip: await inside(page, "#clip") })),
      });
      await page.waitForTimeout(300);
      const before = await shots();
      const still = await shots();
      const changed = (a, b) => a.filter((v, i) => v !== b[i]).length;
      assert.equal(changed(still.video, before.video), 0, "control: the frame holds still");
      assert.ok((await imageStats(ext, await page.screenshot({ clip: await inside(page, "#clip") }))).luminance > 0.1, "control: the video shows its frame");
      await setSite(env, url, true);
      await until(() => isDark(page), "the page to turn dark");
      await page.waitForTimeout(100);
      const after = await shots();
      assert.ok(before.canvas.length > 1000 && before.video.length > 1000, "both were captured");
      assert.equal(changed(after.canvas, before.canvas), 0, "the canvas is pixel-identical");
      // Chromium's compositor itself shifts a video's pixels by one level when the page gives the
      // element another background colour (checked with the page's own CSS, no extension): so one
      // level is allowed there; any filter or recolouring would move them by far more.
      const worst = after.video.reduce((m, v, i) => Math.max(m, Math.abs(v - before.video[i])), 0);
      assert.ok(worst <= 1, `the video frame is unchanged (largest channel difference ${worst})`);
    } finally { await resetMemory(env); await page.close(); }
  }],
];
