// Foundation: the worker answers typed messages and survives being stopped; the content script
// answers on normal and strict-CSP pages; the UI pages show the worker's status.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fixture, isDark, resetMemory, until } from "./dark.mjs";

const manifestVersion = JSON.parse(readFileSync(new URL("../../dist/manifest.json", import.meta.url))).version;

async function contentRpc(env, url, rpc) {
  const tabId = await env.tabIdFor(url);
  assert.ok(tabId, `no tab for ${url}`);
  const reply = await env.sendToWorker({ type: "tab_rpc", tab_id: tabId, rpc });
  assert.equal(reply.type, "content", JSON.stringify(reply));
  return reply.response;
}

export const tests = [
  ["worker answers ping with its version and wasm init time", async (env) => {
    const pong = await env.sendToWorker({ type: "ping" });
    assert.equal(pong.type, "pong");
    assert.equal(pong.version, manifestVersion);
    assert.ok(pong.init_ms > 0 && pong.init_ms < 5000, `init_ms ${pong.init_ms}`);
  }],

  ["worker rejects a malformed message with a clear error", async (env) => {
    const reply = await env.sendToWorker({ type: "launch_missiles" });
    assert.equal(reply.type, "error");
    assert.match(reply.message, /launch_missiles/);
  }],

  ["a fresh worker themes a site from the popup and the shortcut with its dark-mode build alone, and starts the whole build for the first request that needs it", async (env) => {
    await resetMemory(env);
    const url = fixture(env, "basic.html");
    const page = await env.open(url);
    const tabId = await env.tabIdFor(url);
    await env.stopWorkers();
    await new Promise((r) => setTimeout(r, 300));
    const popup = await env.ctx.newPage();
    try {
      await popup.goto(env.extUrl(`popup.html?tab=${tabId}`));
      await popup.locator("#dark-site").click();
      await until(() => isDark(page), "the page to turn dark");
      await until(async () => (await popup.locator("#dark").getAttribute("data-on")) === "true", "the popup to show on");
      const worker = await env.serviceWorker();
      // The dark-mode shortcut, through the handler Chrome calls: the site goes light again.
      await worker.evaluate(async (id) => globalThis.duskOnCommand("toggle-dark", await chrome.tabs.get(id)), tabId);
      await until(async () => !(await isDark(page)), "the shortcut to turn the page light");
      assert.equal(await worker.evaluate(() => globalThis.duskWasmMemory === undefined), true, "the whole build was not started on the way to dark and back");
      const settings = await env.sendToWorker({ type: "get_settings" });
      assert.equal(settings.type, "settings", JSON.stringify(settings));
      assert.equal(await worker.evaluate(() => globalThis.duskWasmMemory instanceof WebAssembly.Memory), true, "the whole build answered get_settings");
    } finally {
      await popup.close();
      await resetMemory(env);
    }
  }],

  ["worker keeps answering after being stopped and woken", async (env) => {
    const before = await env.sendToWorker({ type: "ping" });
    const [oldWorker] = env.ctx.serviceWorkers();
    await oldWorker.evaluate(() => { self.__duskMarker = "old"; });
    await env.stopWorkers();
    await new Promise((r) => setTimeout(r, 300));
    const after = await env.sendToWorker({ type: "ping" });
    assert.equal(after.type, "pong");
    assert.equal(after.version, before.version);
    assert.ok(after.init_ms > 0, "a fresh worker re-ran wasm init");
    const workers = env.ctx.serviceWorkers();
    const markers = await Promise.all(workers.map((w) => w.evaluate(() => self.__duskMarker ?? "fresh").catch(() => "dead")));
    assert.ok(markers.includes("fresh") && !markers.includes("old"), `the worker really restarted: ${markers}`);
    const status = await env.sendToWorker({ type: "get_status" });
    assert.equal(status.type, "status");
  }],

  ["content script answers ping and counts elements on a normal page", async (env) => {
    const url = `${env.base}/pages/simple.html`;
    await env.open(url);
    const pong = await contentRpc(env, url, { type: "ping" });
    const { doc, ...rest } = pong;
    assert.deepEqual(rest, { type: "pong", version: manifestVersion, url, layers: [] }, "nothing but the always-on script is in a page Dusk has not been used on");
    assert.ok(Number(doc) > 0, `the document's id (${doc})`);
    const page = env.ctx.pages().find((p) => p.url() === url);
    await page.reload();
    const again = await contentRpc(env, url, { type: "ping" });
    assert.notEqual(again.doc, doc, "a reload is another document");
    const count = await contentRpc(env, url, { type: "count_elements", selector: "p" });
    assert.deepEqual(count, { type: "element_count", selector: "p", count: 3 });
  }],

  ["content script answers on a default-src 'none' page", async (env) => {
    const url = `${env.base}/pages/simple.html?csp=strict`;
    const page = await env.open(url);
    const blocked = await page.evaluate(() => typeof WebAssembly === "object"
      ? WebAssembly.instantiate(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])).then(() => "allowed", () => "blocked")
      : "no wasm");
    assert.equal(blocked, "blocked", "the fixture must really forbid WebAssembly");
    const count = await contentRpc(env, url, { type: "count_elements", selector: "p, h1" });
    assert.equal(count.count, 4);
  }],

  ["content script reports an invalid selector instead of failing", async (env) => {
    const url = `${env.base}/pages/simple.html`;
    await env.open(url);
    const reply = await contentRpc(env, url, { type: "count_elements", selector: "p[" });
    assert.equal(reply.type, "error");
    assert.match(reply.message, /invalid selector/);
  }],

  ["en and zh_CN locales define the same messages", async () => {
    const read = (l) => JSON.parse(readFileSync(new URL(`../../dist/_locales/${l}/messages.json`, import.meta.url)));
    assert.deepEqual(Object.keys(read("zh_CN")).sort(), Object.keys(read("en")).sort());
  }],

  ["options' About shows version and provider status; the panel's chip and empty state say there is no provider", async (env) => {
    const options = await env.open(env.extUrl("options.html#about"));
    const status = options.locator("#sec-about #status");
    await status.locator(".version").waitFor();
    assert.equal(await status.locator(".version").textContent(), `Version ${manifestVersion}`);
    assert.match(await status.locator(".provider").textContent(), /No LLM provider configured/);
    const panel = await env.open(env.extUrl("sidepanel.html"));
    await panel.locator("#setup-provider").waitFor();
    assert.match(await panel.locator("#provider-chip").getAttribute("title"), /^No LLM provider configured/);
    for (const [name, page] of [["options", options], ["sidepanel", panel], ["popup", await env.open(env.extUrl("popup.html"))]]) {
      assert.ok((await page.locator("h1").textContent()).startsWith("Dusk"), name);
    }
  }],

  ["status reflects a configured provider", async (env) => {
    const ext = await env.extPage();
    await ext.evaluate(() => chrome.storage.local.set({ settings: { provider: "anthropic", api_key: "sk-test" } }));
    try {
      const page = await env.open(env.extUrl("sidepanel.html"));
      const chip = page.locator("#provider-chip");
      await page.waitForFunction(() => /^Anthropic( · .+)?$/.test(document.querySelector("#provider-chip .chip-text")?.textContent ?? ""));
      assert.match(await chip.getAttribute("title"), /^Provider: Anthropic/);
    } finally {
      await ext.evaluate(() => chrome.storage.local.remove("settings"));
    }
  }],
];
