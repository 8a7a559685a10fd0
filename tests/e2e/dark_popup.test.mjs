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
      assert.ok(await popup.locator("#status .version").isVisible(), "the status box is still there");
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

  ["auto for all sites and the engine choice, with no provider configured", async (env) => {
    await resetMemory(env);
    const url = fixture(env, "vars.html");
    const page = await env.open(url);
    const popup = await popupFor(env, url);
    try {
      await popup.locator("#dark-auto").click();
      await until(() => isDark(page), "auto to darken the page");
      await until(() => popup.locator("#dark-site").isChecked(), "the site switch to follow auto");
      assert.equal(await popup.locator("input[value=instant]").isChecked(), true);
      await popup.locator("input[value=thorough]").click();
      await popup.locator("#dark-mode-note").waitFor();
      assert.match(await popup.locator("#dark-mode-note").textContent(), /No LLM provider/);
      assert.match(await popup.locator("#dark-mode").textContent(), /coming soon/);
      assert.equal(await popup.locator("input[value=thorough]").isChecked(), true);
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
];
