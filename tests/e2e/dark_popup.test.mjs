// The popup drives dark mode for the tab it is opened for (`?tab=ID`, as a test opens it).
import assert from "node:assert/strict";
import { colourSnapshot } from "../lib/wcag.mjs";
import { fixture, isDark, resetMemory, until } from "./dark.mjs";

async function popupFor(env, url) {
  const tabId = await env.tabIdFor(url);
  assert.ok(tabId, `no tab for ${url}`);
  const popup = await env.open(env.extUrl(`popup.html?tab=${tabId}`));
  await popup.locator("#dark h2").waitFor();
  return popup;
}

export const tests = [
  ["the popup switches dark mode on and off for the tab's site", async (env) => {
    await resetMemory(env);
    const url = fixture(env, "basic.html");
    const page = await env.open(url);
    const before = await page.evaluate(colourSnapshot);
    const popup = await popupFor(env, url);
    try {
      assert.equal(await popup.locator("#dark-host").textContent(), "127.0.0.1");
      assert.equal(await popup.locator("#dark-site").isChecked(), false);
      await popup.locator("#dark-site").click();
      await until(() => isDark(page), "the page to turn dark");
      await until(async () => (await popup.locator("#dark").getAttribute("data-on")) === "true", "the popup to show on");
      assert.equal(await popup.locator("#dark-site").isChecked(), true);
      await popup.locator("#dark-site").click();
      await until(async () => !(await isDark(page)), "the page to turn light");
      assert.deepEqual(await page.evaluate(colourSnapshot), before, "restored exactly");
      assert.equal(await popup.locator("#dark-site").getAttribute("role"), "switch");
      assert.equal(await popup.locator("#dark-site").getAttribute("aria-checked"), "false", "a screen reader hears it is off");
    } finally { await resetMemory(env); }
  }],

  ["the popup's switch reaches the page over the port it opened, not a one-off message", async (env) => {
    await resetMemory(env);
    const url = fixture(env, "transitions.html");
    const page = await env.open(url);
    const tabId = await env.tabIdFor(url);
    const popup = await env.ctx.newPage();
    // Records the popup's one-off messages to tabs; the port is the fast path.
    await popup.addInitScript(() => {
      const send = chrome.tabs.sendMessage.bind(chrome.tabs);
      window.oneOff = [];
      chrome.tabs.sendMessage = (id, message, ...rest) => { window.oneOff.push(message.type); return send(id, message, ...rest); };
    });
    try {
      await popup.goto(env.extUrl(`popup.html?tab=${tabId}`));
      await popup.locator("#dark-site").waitFor();
      await popup.locator("#dark-site").click();
      await until(() => isDark(page), "the page to turn dark");
      assert.deepEqual(await popup.evaluate(() => window.oneOff), [], "no one-off message was needed");
      await popup.locator("#dark-site").click();
      await until(async () => !(await isDark(page)), "the page to turn light");
      assert.deepEqual(await popup.evaluate(() => window.oneOff), []);
    } finally { await popup.close(); await resetMemory(env); }
  }],

  ["auto for all sites, and only Instant with no provider configured", async (env) => {
    await resetMemory(env);
    const url = fixture(env, "vars.html");
    const page = await env.open(url);
    const popup = await popupFor(env, url);
    try {
      await popup.locator("#dark-auto").click();
      await until(() => isDark(page), "auto to darken the page");
      await until(() => popup.locator("#dark-site").isChecked(), "the site switch to follow auto");
      assert.equal(await popup.locator("input[value=instant]").isChecked(), true);
      await popup.locator("#dark-mode-note").waitFor();
      assert.match(await popup.locator("#dark-mode-note").textContent(), /need an LLM provider/);
      assert.equal(await popup.locator("input[value=thorough]").isDisabled(), true, "only Instant without a provider");
      assert.equal(await popup.locator("input[value=quick]").isDisabled(), true);
      const refused = await env.sendToWorker({ type: "dark_refine", tab_id: await env.tabIdFor(url), mode: "quick" });
      assert.match(refused.message, /need an LLM provider/);
      assert.ok(await isDark(page), "Instant keeps the page dark");
    } finally { await resetMemory(env); }
  }],

  ["on pages extensions can't touch the popup explains instead of failing", async (env) => {
    for (const url of ["chrome://version/", "about:blank"]) {
      const page = await env.ctx.newPage();
      await page.goto(url);
      try {
        const tabId = await (await env.extPage()).evaluate(async (u) => (await chrome.tabs.query({})).find((t) => t.url === u || t.pendingUrl === u || (!t.url && u.startsWith("chrome")))?.id, url);
        const popup = await env.open(env.extUrl(`popup.html${tabId ? `?tab=${tabId}` : ""}`));
        await popup.locator("#dark-restricted").waitFor();
        assert.match(await popup.locator("#dark-restricted").textContent(), /can't be changed by extensions/);
        assert.equal(await popup.locator("#dark .error").count(), 0);
        assert.equal(await popup.locator("#dark-site").count(), 0);
      } finally { await page.close(); }
    }
  }],

  ["the popup says when a page is already dark", async (env) => {
    await resetMemory(env);
    const url = fixture(env, "already-dark.html");
    await env.open(url);
    const popup = await popupFor(env, url);
    try {
      await popup.locator("#dark-site").click();
      await popup.locator("#dark-page-note").waitFor();
      assert.match(await popup.locator("#dark-page-note").textContent(), /already dark/);
    } finally { await resetMemory(env); }
  }],

  ["a long drop-down keeps its width in every frame of the switch, and turns dark", async (env) => {
    await resetMemory(env);
    const url = fixture(env, "big-select.html");
    const page = await env.open(url);
    const before = await page.evaluate(colourSnapshot);
    const width = () => page.evaluate(() => document.getElementById("country").getBoundingClientRect().width);
    const start = await width();
    const popup = await popupFor(env, url);
    try {
      // Every frame's width, from before the click until well after the switch.
      await page.evaluate(() => {
        window.widths = [];
        const el = document.getElementById("country");
        const frame = () => { window.widths.push(el.getBoundingClientRect().width); if (window.widths.length < 40) requestAnimationFrame(frame); };
        requestAnimationFrame(frame);
      });
      await popup.locator("#dark-site").click();
      await until(() => isDark(page), "the page to turn dark");
      await until(() => page.evaluate(() => window.widths.length >= 40), "40 frames");
      assert.deepEqual([...new Set(await page.evaluate(() => window.widths))], [start], "the same width in every frame");
      const contrast = await page.evaluate(() => {
        const el = document.getElementById("country");
        const lum = (css) => { const [r, g, b] = css.match(/[\d.]+/g).map(Number).map((c) => { c /= 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
        const [a, b] = [lum(getComputedStyle(el).color), lum(getComputedStyle(el).backgroundColor)];
        return a > b ? (a + 0.05) / (b + 0.05) : 0;
      });
      assert.ok(contrast >= 4.5, `the chosen option is light text on a dark field (contrast ${contrast.toFixed(2)})`);
      await popup.locator("#dark-site").click();
      await until(async () => !(await isDark(page)), "the page to turn light");
      assert.deepEqual(await page.evaluate(colourSnapshot), before, "restored exactly");
      assert.equal(await width(), start);
    } finally { await resetMemory(env); }
  }],

  ["a page that hangs its main thread can't hang the popup: the choice is stored, and the page follows once free", async (env) => {
    await resetMemory(env);
    const url = fixture(env, "basic.html");
    const page = await env.open(url);
    const popup = await popupFor(env, url);
    try {
      // Busy for 3 s from the next task, so this call itself returns.
      await page.evaluate(() => setTimeout(() => { const end = Date.now() + 3000; while (Date.now() < end); }));
      await new Promise((r) => setTimeout(r, 100));
      const clicked = Date.now();
      await popup.locator("#dark-site").click();
      await until(async () => (await popup.locator("#dark").getAttribute("data-on")) === "true", "the popup to show on", 1500);
      assert.ok(Date.now() - clicked < 1500, "the popup answered within the worker's 500 ms wait, while the page was still busy");
      const stored = await (await env.extPage()).evaluate(async () => (await chrome.storage.local.get("dark_sites")).dark_sites);
      assert.equal(stored?.["127.0.0.1"], true, "the choice is remembered");
      assert.match(await popup.locator("#dark-page-note").textContent(), /busy/, "says the page is busy, not to reload it");
      await until(() => isDark(page), "the page to turn dark once it is free", 8000);
    } finally { await resetMemory(env); }
  }],
];
