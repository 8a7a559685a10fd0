// A site's own dark design, as the browser's own dark scheme shows it: Dusk's page
// against the same page under Chromium's `prefers-color-scheme: dark` emulation with Dusk off.
// Every box must sit where the browser puts it, and every colour must be the browser's, except
// text Dusk raised to AA (marked with the colour it took), which must then pass.
import assert from "node:assert/strict";
import { aaReport } from "../lib/wcag.mjs";
import { isDark, resetMemory, setSite, until } from "./dark.mjs";

const corpus = (env, rel) => `${env.base}/corpus/apps/${rel}`;

/** Every element's box and colours, with the raise mark over it (null: none). */
function snapshot() {
  const hex = (h) => `rgb(${[1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16)).join(", ")})`;
  return [document.documentElement, ...document.querySelectorAll("body, body *")].map((el) => {
    const r = el.getBoundingClientRect(), s = getComputedStyle(el);
    const cls = typeof el.className === "string" && el.className.trim() ? `.${el.className.trim().split(/\s+/).join(".")}` : "";
    const mark = el.closest("[data-dusk-aa]")?.getAttribute("data-dusk-aa");
    return {
      el: `${el.localName}${el.id ? `#${el.id}` : ""}${cls}`,
      box: [r.x, r.y, r.width, r.height].map((v) => v.toFixed(2)).join(","),
      color: s.color, bg: s.backgroundColor, border: s.borderTopColor, raised: mark ? hex(mark) : null,
    };
  });
}

/** The page under the browser's own dark scheme, Dusk off for the site. */
async function browserDark(env, url) {
  const page = await env.ctx.newPage();
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto(url, { waitUntil: "load" });
  await page.waitForTimeout(300);
  const shot = await page.evaluate(snapshot);
  const aa = await page.evaluate(aaReport);
  await page.close();
  return { shot, aa };
}

async function duskDark(env, url) {
  await resetMemory(env);
  const page = await env.open(url);
  await setSite(env, url, true);
  await until(() => isDark(page), "the page to turn dark");
  // Raised text is measured again after the first dark frame; let that settle.
  await page.waitForTimeout(500);
  return { page, shot: await page.evaluate(snapshot), aa: await page.evaluate(aaReport) };
}

/** Compares the two snapshots; returns how many elements Dusk raised. */
function compare(browser, dusk, url) {
  assert.equal(dusk.length, browser.length, `${url}: the same elements`);
  const moved = [], recoloured = [];
  let raised = 0;
  dusk.forEach((d, i) => {
    const b = browser[i];
    if (d.box !== b.box) moved.push(`${d.el} ${b.box} → ${d.box}`);
    // A border drawn in currentColor follows the raised text.
    const border = d.border === b.border || (d.raised && d.border === d.raised && b.border === b.color);
    if (d.bg !== b.bg || !border) recoloured.push(`${d.el} background ${b.bg} → ${d.bg}, border ${b.border} → ${d.border}`);
    if (d.color !== b.color) {
      if (d.raised && d.color === d.raised) raised++;
      else recoloured.push(`${d.el} color ${b.color} → ${d.color}`);
    }
  });
  assert.deepEqual(moved.slice(0, 5), [], `${url}: ${moved.length} boxes moved (zero shift against the browser's dark scheme)`);
  assert.deepEqual(recoloured.slice(0, 5), [], `${url}: ${recoloured.length} colours differ from the browser's dark scheme, not raised text`);
  return raised;
}

/** Waits for the raise marks after a reload; on a timeout says what the page holds, so a failure
 * tells judged-light (conditions not switched on) from judged-own-but-not-raised. */
async function raiseMarks(page, what) {
  await until(() => page.evaluate(() => document.querySelectorAll("[data-dusk-aa]").length > 400), what, 15_000).catch(async (e) => {
    const state = await page.evaluate(() => ({
      marks: document.querySelectorAll("[data-dusk-aa]").length,
      switchedOn: [...document.styleSheets].flatMap((s) => { try { return [...s.cssRules]; } catch { return []; } }).some((r) => r.media?.mediaText === "(prefers-color-scheme)"),
      adopted: document.adoptedStyleSheets.map((s) => s.cssRules.length),
      claimed: document.documentElement.hasAttribute("data-dusk"),
      dark: getComputedStyle(document.body).backgroundColor,
    }));
    throw new Error(`${e.message}: ${JSON.stringify(state)}`);
  });
}

async function ownDesign(env, rel) {
  const url = corpus(env, rel);
  const browser = await browserDark(env, url);
  const { page, shot, aa } = await duskDark(env, url);
  try {
    const raised = compare(browser.shot, shot, rel);
    return { page, raised, aa, browserAa: browser.aa };
  } catch (e) {
    await page.close();
    throw e;
  }
}

export const tests = [
  ["coverage.py's dark palette is the browser's, with its grey line numbers raised to AA", async (env) => {
    const { page, raised, aa, browserAa } = await ownDesign(env, "coverage/textwrap.html");
    try {
      assert.ok(browserAa.share < 0.95, `control: the site's own dark palette fails AA on this page (${browserAa.share.toFixed(3)})`);
      assert.ok(raised >= 400, `the line numbers are raised (${raised} elements)`);
      assert.ok(aa.share >= 0.99, `AA with Dusk: ${aa.share.toFixed(3)} (${JSON.stringify(aa.failures?.slice?.(0, 3) ?? "")})`);
      // Raised in their own hue: a grey number stays grey, only lighter.
      const n = await page.evaluate(() => getComputedStyle(document.querySelector("p .n a")).color);
      const [r, g, b] = n.match(/\d+/g).map(Number);
      assert.ok(r === g && g === b && r > 0x77, `a line number is a lighter grey: ${n}`);
      // Switched off, the page's own conditions are as it wrote them, and no mark is left.
      await setSite(env, page.url(), false);
      await until(async () => !(await isDark(page)), "the page to turn light");
      const left = await page.evaluate(() => ({
        marks: document.querySelectorAll("[data-dusk-aa]").length,
        media: [...document.styleSheets].flatMap((s) => [...s.cssRules]).filter((r) => r.media).map((r) => r.media.mediaText).filter((t) => t.includes("color-scheme")),
      }));
      assert.equal(left.marks, 0, "no raise mark is left");
      assert.ok(left.media.length > 0 && left.media.every((t) => t.includes("prefers-color-scheme: dark")), `the conditions are the page's again: ${left.media.slice(0, 3)}`);
    } finally { await resetMemory(env); await page.close(); }
  }],

  ["a reload with dark mode remembered shows the same own design (judged once the DOM is parsed)", async (env) => {
    const url = corpus(env, "coverage/textwrap.html");
    const browser = await browserDark(env, url);
    const { page } = await duskDark(env, url);
    try {
      await page.reload({ waitUntil: "load" });
      await raiseMarks(page, "the raise marks after the reload");
      await page.waitForTimeout(300);
      const raised = compare(browser.shot, await page.evaluate(snapshot), "coverage/textwrap.html, reloaded");
      assert.ok(raised >= 400, `raised after the reload: ${raised}`);
    } finally { await resetMemory(env); await page.close(); }
  }],

  ["a reload whose stylesheet arrives late is judged once the sheet is in, and shows the own design", async (env) => {
    // Without its deferred script nothing waits for coverage's sheet: DOMContentLoaded comes
    // long before it, and judged then the page would read as light and get the recoloured theme.
    const url = corpus(env, "coverage/textwrap.html");
    const noScript = async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, body: (await response.text()).replace(/<script [^>]*defer><\/script>/, "") });
    };
    await env.ctx.route("**/coverage/textwrap.html", noScript);
    const browser = await browserDark(env, url);
    const { page } = await duskDark(env, url);
    try {
      let held = 0;
      await page.route("**/style_cb_*.css", async (route) => {
        held++;
        await new Promise((r) => setTimeout(r, 1500));
        await route.continue();
      });
      await page.reload({ waitUntil: "load" });
      assert.equal(held, 1, "control: the sheet was held back");
      await raiseMarks(page, "the raise marks after the late sheet");
      await page.waitForTimeout(300);
      const raised = compare(browser.shot, await page.evaluate(snapshot), "coverage/textwrap.html, sheet late");
      assert.ok(raised >= 400, `raised after the late sheet: ${raised}`);
    } finally { await env.ctx.unroute("**/coverage/textwrap.html", noScript); await resetMemory(env); await page.close(); }
  }],

  ["a reload while the page is held hidden (a customisation's hold) still raises the own design's text", async (env) => {
    // custom.js keeps `html` hidden until the site's saved CSS is in; here the saved CSS itself
    // hides the page, so the dark layer judges the reloaded page while nothing shows. The raise
    // is the design's, not the moment's: it must be there when the page shows.
    const url = corpus(env, "coverage/textwrap.html");
    const browser = await browserDark(env, url);
    const { page } = await duskDark(env, url);
    try {
      const saved = await env.sendToWorker({ type: "custom_save", host: "127.0.0.1", css: "html { visibility: hidden !important; }", js: "" });
      assert.notEqual(saved.type, "error", JSON.stringify(saved));
      await page.reload({ waitUntil: "load" });
      const hidden = await page.evaluate(() => getComputedStyle(document.body).visibility);
      assert.equal(hidden, "hidden", "control: the page is held hidden through the judgement");
      await raiseMarks(page, "the raise marks while the page is held");
      await env.sendToWorker({ type: "custom_delete", host: "127.0.0.1" });
      const ext = await env.extPage();
      await ext.evaluate(() => chrome.storage.local.remove("custom_css:127.0.0.1"));
      await until(() => page.evaluate(() => getComputedStyle(document.body).visibility === "visible"), "the page to show");
      await page.waitForTimeout(300);
      const raised = compare(browser.shot, await page.evaluate(snapshot), "coverage/textwrap.html, reloaded while held");
      assert.ok(raised >= 400, `raised once shown: ${raised}`);
    } finally {
      await env.sendToWorker({ type: "custom_delete", host: "127.0.0.1" });
      await resetMemory(env);
      await page.close();
    }
  }],

  ["coverage.py's index page is the browser's dark scheme", async (env) => {
    const { page } = await ownDesign(env, "coverage/index.html");
    await resetMemory(env);
    await page.close();
  }],

  ["furo's dark design keeps every box where the browser puts it (its code blocks' line height)", async (env) => {
    const { page, aa } = await ownDesign(env, "furo/index.html");
    try {
      assert.ok(aa.share >= 0.98, `AA ${aa.share.toFixed(3)}`);
      const lh = await page.evaluate(() => getComputedStyle(document.querySelector(".highlight pre")).lineHeight);
      const px = await page.evaluate(() => parseFloat(getComputedStyle(document.querySelector(".highlight pre")).fontSize));
      assert.ok(Math.abs(parseFloat(lh) - 1.5 * px) < 0.5, `code keeps furo's line height 1.5 (${lh} at ${px}px)`);
    } finally { await resetMemory(env); await page.close(); }
  }],
];
