// The service worker killed mid-operation (as Chromium does after 30 s idle, or on a crash):
// every caller gets a clear result instead of hanging, nothing is left half-applied, and the next
// request wakes a worker that answers.
import assert from "node:assert/strict";
import { answerText, ask, configure, panelFor } from "./chat_panel.mjs";
import { isDark, resetMemory, setSite } from "./dark.mjs";
import { rpc } from "./page-helpers.mjs";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Keeps the page's main thread busy for `ms` (from a timer, so this returns at once). */
const busy = (page, ms) => page.evaluate((ms) => setTimeout(() => { const end = performance.now() + ms; while (performance.now() < end); }, 0), ms);

/** Sends `message` from an extension page; resolves with the reply or the browser's error, and the time it took. */
function send(ext, message) {
  return ext.evaluate(async (m) => {
    const t0 = performance.now();
    try {
      return { reply: await chrome.runtime.sendMessage(m), ms: performance.now() - t0 };
    } catch (e) {
      return { error: String(e.message || e), ms: performance.now() - t0 };
    }
  }, message);
}

export const tests = [
  ["killed during a tab_rpc: the caller is told at once, and the next request wakes the worker", async (env) => {
    const url = `${env.base}/pages/simple.html`;
    const page = await env.open(url);
    const ext = await env.extPage();
    const tabId = await env.tabIdFor(url);
    await busy(page, 2500);
    await sleep(50);
    const pending = send(ext, { type: "tab_rpc", tab_id: tabId, rpc: { type: "get_elements" } });
    await sleep(300);
    await env.stopWorkers();
    const r = await pending;
    assert.ok(r.error || r.reply?.type === "error", `a clear failure, not a result: ${JSON.stringify(r)}`);
    assert.ok(r.ms < 2000, `told in ${r.ms} ms, before the page was even free`);
    await sleep(2400);
    assert.equal((await env.sendToWorker({ type: "ping" })).type, "pong");
    assert.equal((await rpc(env, url, { type: "get_elements" })).type, "elements");
  }],

  ["killed while an agent's mask is up: the mask expires on its own, no overlay is left", async (env) => {
    const url = `${env.base}/pages/simple.html`;
    await env.open(url);
    const masked = await rpc(env, url, { type: "mask", label: "working", ttl_ms: 1500 });
    assert.equal(masked.active, true);
    await env.stopWorkers();
    await sleep(2000);
    const after = await rpc(env, url, { type: "heartbeat" });
    assert.deepEqual(after, { type: "mask", active: false, expires_in_ms: 0 }, "no heartbeat, no mask");
  }],

  ["killed during a dark switch: nothing is half-applied, and the next switch works", async (env) => {
    const url = `${env.base}/pages/simple.html`;
    const page = await env.open(url);
    const ext = await env.extPage();
    const tabId = await env.tabIdFor(url);
    try {
      await busy(page, 1500);
      await sleep(50);
      const pending = send(ext, { type: "dark_set_site", tab_id: tabId, on: true });
      await sleep(150);
      await env.stopWorkers();
      const r = await pending;
      assert.ok(r.error || r.reply, JSON.stringify(r));
      await sleep(1600);
      // Either the switch was stored (and the page follows it whole) or it was not (and the page is as it was).
      const stored = await ext.evaluate(() => chrome.storage.local.get("dark_sites").then((s) => Object.keys(s.dark_sites || {}).length > 0));
      await sleep(300);
      assert.equal(await isDark(page), stored, `stored ${stored}, and the page agrees`);
      await setSite(env, url, true);
      await page.waitForFunction(() => true);
      for (let i = 0; i < 50 && !(await isDark(page)); i++) await sleep(50);
      assert.equal(await isDark(page), true, "the next switch works");
    } finally {
      await resetMemory(env);
    }
  }],

  ["killed during a model stream: the page's port says so at once and the call is cut", async (env) => {
    await configure(env);
    env.llm.script({ chunks: Array.from({ length: 40 }, (_, i) => `w${i} `), chunkDelayMs: 200 });
    const ext = await env.extPage();
    const streaming = ext.evaluate(() => new Promise((resolve) => {
      const port = chrome.runtime.connect({ name: "llm" });
      const seen = [];
      port.onMessage.addListener((m) => seen.push(m.type === "event" ? m.event.type : m.type));
      port.onDisconnect.addListener(() => resolve({ seen, at: performance.now() }));
      port.postMessage({ type: "complete", request_id: "r1", request: { model: "", messages: [{ role: "user", text: "go on" }], tools: [], stream: true } });
      globalThis.__started = performance.now();
    }));
    await env.llm.waitForRequests(1);
    await sleep(600);
    const killedAt = await ext.evaluate(() => performance.now());
    await env.stopWorkers();
    const { seen, at } = await streaming;
    assert.ok(seen.includes("text_delta"), `it was streaming: ${seen}`);
    assert.ok(at - killedAt < 1500, `the port closed ${Math.round(at - killedAt)} ms after the kill`);
    await sleep(300);
    assert.equal(env.llm.lastRequest().aborted, true, "the provider call was cut off, not left running");
  }],

  ["killed while a chat answer streams: the question stays, marked interrupted, and the next answer is kept whole", async (env) => {
    await configure(env);
    env.llm.script(
      { delayMs: 8000, text: "This reply never arrives: the worker dies while waiting for it." },
      { text: "Second answer." },
    );
    const { panel } = await panelFor(env, ["/pages/simple.html"]);
    await ask(panel, "What is on this page?");
    await env.llm.waitForRequests(1, { timeoutMs: 10_000 });
    await env.stopWorkers();
    await panel.reload();
    await panel.locator(".msg.user").first().waitFor();
    assert.deepEqual(await panel.locator(".msg.user").allTextContents().then((t) => t.map((x) => x.split("Simple")[0].trim())), ["What is on this page?"]);
    assert.match(await panel.locator(".msg.assistant .note.error").textContent(), /interrupted/, "the question shows as interrupted");
    await ask(panel, "And now?");
    assert.equal(await answerText(panel, 2), "Second answer.");
    await panel.reload();
    await panel.locator(".msg.assistant").nth(1).waitFor();
    assert.equal((await panel.locator(".msg.assistant .md").nth(1).textContent()).trim(), "Second answer.");
    assert.equal(await panel.locator(".msg.assistant .note.error").count(), 1, "only the killed answer is marked, once");
  }],
];
