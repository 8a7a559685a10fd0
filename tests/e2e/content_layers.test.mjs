// The content script's layers: a page pays only for the always-on script until Dusk is used on it;
// the page layer loads on the first RPC, the dark layer where dark mode is on.
import assert from "node:assert/strict";
import { openPage, elements, byText, act } from "./page-helpers.mjs";
import { fixture, isDark, resetMemory, setSite, until } from "./dark.mjs";

const ping = (call) => call({ type: "ping" });
// Whether the page's CSP refused the layers' WebAssembly build (engine/wasm.js), asked in the
// isolated world of the tab's top frame.
async function wasmRefused(env, url) {
  const tabId = await env.tabIdFor(url);
  const ext = await env.extPage();
  return ext.evaluate(async (tabId) => (await chrome.scripting.executeScript({ target: { tabId }, func: () => globalThis.duskWasmRefused === document }))[0].result, tabId);
}

export const tests = [
  ["the page layer loads on the first RPC in a tab where it was absent, once", async (env) => {
    await resetMemory(env);
    const { call } = await openPage(env, "/pages/app.html");
    assert.deepEqual((await ping(call)).layers, [], "a page Dusk was not used on has only the always-on script");
    const list = await elements(call);
    assert.ok(byText(list, "Save"), "the first RPC is answered by the freshly loaded layer");
    assert.deepEqual((await ping(call)).layers, ["page"]);
    const again = await call({ type: "page_summary" });
    assert.match(again.text, /Account settings/);
    assert.deepEqual((await ping(call)).layers, ["page"], "later RPCs reuse it");
    assert.equal(await wasmRefused(env, `${env.base}/pages/app.html`), false, "the WebAssembly build ran");
  }],

  ["an agent's first look needs no layer: the always-on script reads page_summary, and the layer follows in the background", async (env) => {
    await resetMemory(env);
    const { page, call } = await openPage(env, "/pages/app.html");
    await page.focus("#pw");
    const summary = await call({ type: "page_summary", text_limit: 600 });
    assert.equal(summary.type, "page_summary", JSON.stringify(summary));
    // name, password, 2 checkboxes, search, contenteditable, the shadow root's input, the frame's input
    assert.equal(summary.counts.inputs, 8, JSON.stringify(summary.counts));
    assert.equal(summary.focused, 'input#pw "Password"', "the focused field is named by the label around it");
    await until(async () => (await ping(call)).layers.includes("page"), "the page layer loads after the summary, unasked");
    await page.focus("#q");
    assert.equal((await call({ type: "page_summary" })).focused, 'input#q "Search"');
    // A read asked for while that load is under way joins it and is answered.
    const fresh = await openPage(env, "/pages/app.html");
    await fresh.call({ type: "page_summary" });
    assert.ok(byText(await elements(fresh.call), "Save"));
    assert.deepEqual((await ping(fresh.call)).layers, ["page"]);
    // A tab that navigates while that load runs: the next read loads the layer into the new page.
    const moving = await openPage(env, "/pages/app.html");
    await moving.call({ type: "page_summary" });
    await moving.page.goto(`${env.base}/pages/shadow-kinds.html`);
    const buttons = await env.sendToWorker({ type: "tab_rpc", tab_id: await env.tabIdFor(`${env.base}/pages/shadow-kinds.html`), rpc: { type: "get_elements", filter: "button" } });
    assert.equal(buttons.response?.elements?.length, 3, JSON.stringify(buttons).slice(0, 300));
  }],

  ["the page layer reads and acts in a frame added after load", async (env) => {
    const { page, call } = await openPage(env, "/pages/late-frame.html");
    await page.waitForSelector("#late");
    const frame = page.frameLocator("#late");
    await frame.locator("#frame-btn").waitFor();
    const button = byText(await elements(call), "Frame button");
    assert.equal(button.context, "iframe");
    const r = await act(call, { type: "click", index: button.index });
    assert.ok(r.success, JSON.stringify(r));
    assert.equal(await frame.locator("#frame-status").textContent(), "frame button clicked");
  }],

  ["the dark layer runs only where dark mode is on, from document_start, in every frame", async (env) => {
    await resetMemory(env);
    const url = `${env.base}/bench/frames20.html`;
    const { page, call } = await openPage(env, "/bench/frames20.html");
    try {
      assert.deepEqual((await ping(call)).layers, [], "dark mode off: no dark layer");
      await setSite(env, url, true);
      await until(() => isDark(page), "the page turns dark");
      await page.reload();
      assert.ok(await isDark(page), "dark after a reload");
      assert.deepEqual((await ping(call)).layers, ["dark"], "registered for the site, the dark layer is there at once");
      assert.equal(await wasmRefused(env, url), false, "as its WebAssembly build");
      const frames = page.frames().filter((f) => f !== page.mainFrame());
      assert.equal(frames.length, 20);
      for (const f of frames) {
        await f.waitForLoadState("load");
        await until(async () => (await f.evaluate(() => document.documentElement.hasAttribute("data-dusk"))), `frame ${f.url()} themed`);
        assert.ok(await isDark(f), `frame ${f.url()} is dark`);
      }
      // Same-origin frames are themed by the top frame's layer, which follows their changes too.
      await frames[3].evaluate(() => document.body.insertAdjacentHTML("beforeend", '<div id="late" style="background: #ffffff; color: #000000">Added later</div>'));
      await until(() => isDark(frames[3], "#late"), "a block a frame added later is themed");
    } finally { await resetMemory(env); }
  }],

  ["where the page's CSP refuses WebAssembly, both layers run their wasm2js builds", async (env) => {
    await resetMemory(env);
    // script-src 'self' refuses WebAssembly even to content scripts, and still allows the frames.
    const url = `${env.base}/bench/frames20.html?csp=wasm`;
    const { page, call } = await openPage(env, "/bench/frames20.html?csp=wasm");
    try {
      await setSite(env, url, true);
      await until(() => isDark(page), "the page turns dark");
      await page.reload({ waitUntil: "load" });
      await until(async () => (await page.evaluate(() => document.documentElement.hasAttribute("data-dusk"))) && (await isDark(page)), "the registered layer, refused, is replaced and themes the page");
      for (const f of page.frames().filter((f) => f !== page.mainFrame())) {
        await until(async () => (await f.evaluate(() => document.documentElement.hasAttribute("data-dusk"))) && (await isDark(f)), `frame ${f.url()} themed`);
      }
      const listed = await call({ type: "get_elements" });
      assert.equal(listed.type, "elements", JSON.stringify(listed));
      assert.deepEqual((await ping(call)).layers.sort(), ["dark", "page"]);
      assert.equal(await wasmRefused(env, url), true, "the WebAssembly build was refused, so these were the wasm2js ones");
    } finally { await resetMemory(env); }
  }],

  ["on a dark site its cross-origin and about:blank frames are themed too", async (env) => {
    await resetMemory(env);
    const url = `${env.base}/pages/cross-frame.html`;
    const page = await env.open(url);
    try {
      await setSite(env, url, true);
      await until(() => isDark(page), "the page turns dark");
      await page.reload({ waitUntil: "load" });
      const other = page.frames().find((f) => f.url().startsWith("http://localhost:"));
      assert.ok(other, "the cross-origin frame loaded");
      await until(() => isDark(other), "the cross-origin frame is dark");
      const blank = page.frames().find((f) => f.url() === "about:blank");
      assert.ok(blank, "the about:blank frame is there");
      await until(() => isDark(blank), "the about:blank frame is dark");
    } finally { await resetMemory(env); }
  }],

  ["a frame's initial about:blank hands its window to the page it then loads, which gets a dark layer of its own", async (env) => {
    await resetMemory(env);
    const url = `${env.base}/pages/blank-then-page.html`;
    const page = await env.open(url);
    try {
      await setSite(env, url, true);
      await until(() => isDark(page), "the page turns dark");
      // The top frame asks for the layer in its frames while this one still shows about:blank.
      await page.reload({ waitUntil: "load" });
      const late = page.frames().find((f) => f.url().includes("small.html"));
      assert.ok(late, "the frame loaded its page");
      await until(async () => (await late.evaluate(() => document.documentElement.hasAttribute("data-dusk"))) && (await isDark(late)), "the frame's page is themed");
    } finally { await resetMemory(env); }
  }],

  ["a frame that never finishes loading doesn't hold up loading the dark layer when the popup opens", async (env) => {
    await resetMemory(env);
    const url = `${env.base}/pages/hung-frame.html`;
    const page = await env.open(url, { waitUntil: "domcontentloaded" });
    try {
      const tabId = await env.tabIdFor(url);
      const t0 = Date.now();
      const s = await env.sendToWorker({ type: "dark_get_state", tab_id: tabId });
      assert.equal(s.page_busy, false, JSON.stringify(s));
      assert.equal(s.page?.phase, "off", "the page answered with its status");
      assert.ok(Date.now() - t0 < 1500, `answered in ${Date.now() - t0} ms`);
      await setSite(env, url, true);
      await until(() => isDark(page), "the switch works");
    } finally { await resetMemory(env); }
  }],

  ["turning a site dark in one tab turns its other open tabs dark, though they never loaded the layer", async (env) => {
    await resetMemory(env);
    const a = await env.open(fixture(env, "basic.html"));
    const b = await env.open(fixture(env, "vars.html"));
    try {
      assert.equal(await isDark(b), false);
      await setSite(env, a.url(), true);
      await until(() => isDark(a), "the switched tab");
      await until(() => isDark(b), "the other tab of the site");
    } finally { await resetMemory(env); }
  }],
];
