// Brightness, contrast, sepia and grayscale: the popup's sliders preview live and store the
// site's own, options set every site's default and a site's own beats it, text keeps AA at every
// setting on corpus pages, a reload paints no light frame and its first themed frame is already
// adjusted, and a backup carries them.
import assert from "node:assert/strict";
import { writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { framesDuring } from "../lib/frames.mjs";
import { imageStats } from "../lib/pixels.mjs";
import { aaReport, backgroundBehind } from "../lib/wcag.mjs";
import { fixture, isDark, luminance, openAdjust, resetMemory, setSite, state, until } from "./dark.mjs";

const HOST = "127.0.0.1";
const bg = (page) => page.evaluate(backgroundBehind, "body");
const stored = async (env) => (await env.extPage()).evaluate(() => chrome.storage.local.get(["dark_adjust", "dark_adjust_sites"]));

async function reset(env) {
  await resetMemory(env);
  const ext = await env.extPage();
  await ext.evaluate(() => chrome.storage.local.remove(["dark_adjust", "dark_adjust_sites"]));
}

/** Stores the site's own adjustment (null forgets it) through the worker, as the popup does. */
async function setAdjust(env, url, adjust, site = true) {
  const reply = await env.sendToWorker({ type: "dark_set_adjust", tab_id: await env.tabIdFor(url), site, adjust });
  assert.equal(reply.type, "dark_state", JSON.stringify(reply));
  return reply;
}

/** The bottom-left pixel of a PNG frame (the page's background on basic.html), as CSS rgb(). */
const corner = (ext, png) => ext.evaluate(async (b64) => {
  const img = new Image();
  img.src = `data:image/png;base64,${b64}`;
  await img.decode();
  const g = new OffscreenCanvas(img.width, img.height).getContext("2d");
  g.drawImage(img, 0, 0);
  const [r, gr, b] = g.getImageData(0, img.height - 1, 1, 1).data;
  return `rgb(${r}, ${gr}, ${b})`;
}, Buffer.from(png).toString("base64"));

const full = (a) => ({ brightness: 100, contrast: 100, sepia: 0, grayscale: 0, ...a });

/** `page`, dark, with its popup opened for its tab. */
async function darkWithPopup(env, url) {
  const page = await env.open(url);
  await setSite(env, url, true);
  await until(() => isDark(page), "dark");
  const popup = await env.open(env.extUrl(`popup.html?tab=${await env.tabIdFor(url)}`));
  await openAdjust(popup);
  await page.bringToFront();
  return { page, popup };
}

async function press(page, selector, key, times) {
  await page.locator(selector).focus();
  for (let i = 0; i < times; i++) await page.keyboard.press(key);
}

export const tests = [
  ["the popup's sliders are labelled, preview on the page while moving and store the site's own on release", async (env) => {
    await reset(env);
    const url = fixture(env, "basic.html");
    const { page, popup } = await darkWithPopup(env, url);
    try {
      const labels = await popup.evaluate(() => [...document.querySelectorAll("#dark-adjust input[type=range]")].map((i) => [i.labels[0]?.textContent, i.min, i.max, i.value]));
      assert.deepEqual(labels, [["Brightness", "50", "150", "100"], ["Contrast", "50", "150", "100"], ["Sepia", "0", "100", "0"], ["Grayscale", "0", "100", "0"]]);
      assert.match(await popup.locator("#dark-adjust-scope").textContent(), /Same as every site/);
      const before = luminance(await bg(page));
      // Moving (input only): the page follows at once, nothing is stored yet.
      await popup.evaluate(() => {
        const s = document.querySelector("#dark-adjust-brightness");
        s.value = "150";
        s.dispatchEvent(new Event("input", { bubbles: true }));
      });
      await until(async () => luminance(await bg(page)) > before * 1.5, "the preview to brighten the page");
      assert.equal(await popup.locator("#dark-adjust-brightness-value").textContent(), "+50", "the slider reads its difference from the default");
      assert.deepEqual(await stored(env), {}, "a preview stores nothing");
      // The keyboard (input and change): stored as the site's own.
      await press(popup, "#dark-adjust-sepia", "ArrowRight", 8);
      await until(async () => (await stored(env)).dark_adjust_sites?.[HOST]?.sepia === 40, "the site's own to be stored");
      assert.deepEqual((await stored(env)).dark_adjust_sites[HOST], full({ brightness: 150, sepia: 40 }));
      await until(async () => { const [r, , b] = (await bg(page)).match(/\d+/g).map(Number); return r > b + 2; }, "sepia to warm the page");
      assert.match(await popup.locator("#dark-adjust-scope").textContent(), /its own adjustment/);
      assert.equal(await popup.locator("#dark-adjust-sepia").getAttribute("aria-valuetext"), "+40");
      // Reset: the site follows the default again, on the page too.
      await popup.locator("#dark-adjust-reset").click();
      await until(async () => Math.abs(luminance(await bg(page)) - before) < 1e-4, "the page back on the default");
      // The page follows at once; the stored choice is forgotten on the worker's own turn.
      await until(async () => (await stored(env)).dark_adjust_sites?.[HOST] === undefined, "the site's own to be forgotten");
      assert.equal(await popup.locator("#dark-adjust-brightness").inputValue(), "100");
    } finally { await popup.close(); await reset(env); }
  }],

  ["options set every site's default; a site's own adjustment beats it", async (env) => {
    await reset(env);
    const a = fixture(env, "basic.html");
    const b = a.replace("127.0.0.1", "localhost");
    const pa = await env.open(a);
    const pb = await env.open(b);
    try {
      await setSite(env, a, true);
      await setSite(env, b, true);
      await until(async () => (await isDark(pa)) && (await isDark(pb)), "both sites dark");
      const base = luminance(await bg(pa));
      const options = await env.open(env.extUrl("options.html"));
      await press(options, "#dark-adjust-default-brightness", "ArrowRight", 8);
      await until(async () => (await stored(env)).dark_adjust?.brightness === 140, "the default to be stored");
      await until(async () => luminance(await bg(pa)) > base * 1.3 && luminance(await bg(pb)) > base * 1.3, "both sites to follow the default");
      // Each key press stores a step (105 … 140): the other site is read once it has taken the last.
      let global = -1;
      let steady = 0;
      await until(async () => {
        const l = luminance(await bg(pb));
        steady = Math.abs(l - global) < 1e-6 ? steady + 1 : 0;
        global = l;
        return steady >= 5;
      }, "the other site to settle on the default");
      await options.close();

      const popup = await env.open(env.extUrl(`popup.html?tab=${await env.tabIdFor(a)}`));
      await openAdjust(popup);
      assert.equal(await popup.locator("#dark-adjust-brightness").inputValue(), "140", "the popup starts from the default");
      await press(popup, "#dark-adjust-brightness", "ArrowLeft", 16);
      await until(async () => (await stored(env)).dark_adjust_sites?.[HOST]?.brightness === 60, "the site's own to be stored");
      await until(async () => luminance(await bg(pa)) < base, "the site's own darkens it below the default");
      const other = luminance(await bg(pb));
      assert.ok(Math.abs(other - global) < 1e-4, `the other site keeps the default: ${other} against ${global}`);
      const s = await state(env, a);
      assert.deepEqual([s.adjust.brightness, s.adjust_own, s.adjust_global.brightness], [60, true, 140]);
      await pa.reload();
      await until(() => isDark(pa), "dark after reload");
      assert.ok(luminance(await bg(pa)) < base, "the site's own survives a reload");
      await popup.close();
    } finally { await reset(env); }
  }],

  ["no setting takes a corpus page's text below AA", async (env) => {
    await reset(env);
    const settings = [{}, { brightness: 50, contrast: 50 }, { brightness: 150, contrast: 50 }, { brightness: 150, contrast: 150, sepia: 100 }, { brightness: 50, contrast: 150, grayscale: 100 }, { contrast: 50, sepia: 100, grayscale: 100 }];
    const seen = [];
    try {
      for (const p of ["python-docs/python3.11-doc/html/tutorial/introduction.html", "node-docs/nodejs/api/fs.html"]) {
        const url = `${env.base}/corpus/${p}`;
        const page = await env.open(url);
        await setSite(env, url, true);
        let plain;
        const row = [];
        for (const s of settings) {
          await setAdjust(env, url, full(s));
          await page.reload();
          await until(() => isDark(page), "dark");
          await page.waitForTimeout(300);
          const colours = await page.evaluate(() => getComputedStyle(document.body).color + " on " + getComputedStyle(document.documentElement).backgroundColor);
          const aa = await page.evaluate(aaReport);
          plain ??= { aa, colours };
          if (s !== settings[0]) assert.notEqual(colours, plain.colours, `${JSON.stringify(s)} changes the theme`);
          row.push(aa.share.toFixed(3));
          assert.ok(aa.share >= plain.aa.share - 1e-9, `${p} at ${JSON.stringify(s)}: AA ${aa.share} < ${plain.aa.share} ${JSON.stringify(aa.failures.slice(0, 3))}`);
        }
        assert.equal(plain.aa.share, 1, `${p}: AA at the defaults`);
        seen.push(`${p.split("/").pop()}: ${row.join(" ")}`);
        await page.close();
      }
      console.log(`     AA share per setting: ${seen.join(" | ")}`);
    } finally { await reset(env); }
  }],

  ["an adjusted site reloads with no light frame, and its first themed frame is already adjusted", async (env) => {
    await reset(env);
    const url = fixture(env, "basic.html");
    const page = await env.open(url);
    try {
      await setSite(env, url, true);
      await until(() => isDark(page), "dark");
      const plain = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
      await setAdjust(env, url, full({ brightness: 150, sepia: 60 }));
      await until(async () => (await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)) !== plain, "the adjustment on the page");
      const adjusted = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
      await page.addInitScript(() => {
        new MutationObserver((_, obs) => {
          const html = document.documentElement;
          if (html && !html.hasAttribute("data-dusk") && getComputedStyle(html).getPropertyValue("--dusk-fallback")) {
            window.fallbackBg ??= getComputedStyle(document.body ?? html).backgroundColor;
          }
          if (!html?.hasAttribute("data-dusk")) return;
          window.firstThemed = getComputedStyle(html).backgroundColor;
          obs.disconnect();
        }).observe(document, { attributes: true, subtree: true, childList: true });
      });
      await page.bringToFront();
      const ext = await env.extPage();
      const lums = [], corners = [];
      for (let round = 0; round < 5; round++) {
        const frames = await framesDuring(env.ctx, page, () => page.reload(), 300);
        assert.ok(frames.length > 0, "frames were recorded");
        for (const f of frames) {
          lums.push((await imageStats(ext, f)).luminance);
          corners.push(await corner(ext, f));
        }
      }
      console.log(`     ${corners.length} frames in 5 reloads: ${corners.filter((c) => c === adjusted).length} adjusted, ${corners.filter((c) => c === plain).length} on the unadjusted fallback`);
      assert.ok(Math.max(...lums) < 0.1, `every frame of the reloads is dark: ${lums.map((l) => l.toFixed(3))}`);
      assert.deepEqual(corners.filter((c) => c !== adjusted), [], `every painted frame is adjusted (${adjusted}, plain ${plain})`);
      assert.equal(await page.evaluate(() => window.firstThemed), adjusted, "the theme that takes over from the pre-paint fallback is the adjusted one");
      assert.equal(await page.evaluate(() => window.fallbackBg), adjusted, "the pre-paint fallback itself paints the adjusted background");
      assert.notEqual(adjusted, plain);
    } finally { await reset(env); }
  }],

  ["a backup carries the adjustments and an import restores them", async (env) => {
    await reset(env);
    const ext = await env.extPage();
    const own = { [HOST]: full({ brightness: 80, grayscale: 50 }) };
    await ext.evaluate((own) => chrome.storage.local.set({ dark_adjust: { brightness: 120, contrast: 110, sepia: 10, grayscale: 0 }, dark_adjust_sites: own }), own);
    const options = await env.open(env.extUrl("options.html"));
    assert.equal(await options.locator("#dark-adjust-default-brightness").inputValue(), "120", "options show the stored default");
    await options.click("#data-export");
    await options.waitForFunction(() => document.querySelector("#data-file")?.getAttribute("href"));
    const href = await options.locator("#data-file").getAttribute("href");
    const text = decodeURIComponent(href.slice(href.indexOf(",") + 1));
    const backup = JSON.parse(text);
    assert.deepEqual(backup.data.dark_adjust, { brightness: 120, contrast: 110, sepia: 10, grayscale: 0 });
    assert.deepEqual(backup.data.dark_adjust_sites, own);
    await reset(env);
    assert.deepEqual(await stored(env), {});
    const file = path.join(mkdtempSync(path.join(tmpdir(), "dusk-adjust-")), "dusk-backup.json");
    writeFileSync(file, text);
    await options.reload();
    await options.setInputFiles("#data-import", file);
    await options.waitForFunction(() => /Imported/.test(document.querySelector("#data-result")?.textContent ?? ""));
    assert.deepEqual(await stored(env), { dark_adjust: backup.data.dark_adjust, dark_adjust_sites: own });
    await options.close();
    await reset(env);
  }],
];
