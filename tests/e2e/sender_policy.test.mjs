// Least privilege between Dusk's contexts: a content script (played by code injected into a
// page's ISOLATED world, which sends with a content script's sender) gets only what content
// scripts need; every other message and port is refused, and nothing it asked for happened.
import assert from "node:assert/strict";
import { configure } from "./chat_panel.mjs";

const REFUSED = { type: "error", message: "not allowed from this context" };

/**
 * Plays the page's content script (ISOLATED world): each step of `plan` is `{ send: message }`
 * (chrome.runtime.sendMessage) or `{ port: [name, message] }` (connect, post, first answer).
 */
async function asContentScript(env, url, plan) {
  const ext = await env.extPage();
  const tabId = await env.tabIdFor(url);
  return ext.evaluate(async ([tabId, plan]) => {
    const [result] = await chrome.scripting.executeScript({
      target: { tabId }, world: "ISOLATED", args: [plan],
      func: async (plan) => {
        const out = [];
        for (const step of plan) {
          if (step.send) out.push(await chrome.runtime.sendMessage(step.send).catch((e) => ({ thrown: String(e) })));
          if (step.port) {
            out.push(await new Promise((resolve) => {
              const port = chrome.runtime.connect({ name: step.port[0] });
              port.onMessage.addListener((m) => { resolve(m); port.disconnect(); });
              setTimeout(() => resolve("no answer"), 2000);
              port.postMessage(step.port[1]);
            }));
          }
        }
        return out;
      },
    });
    return result.result;
  }, [tabId, plan]);
}

export const tests = [
  ["a content script can't change settings, read them, act on other tabs or use the model", async (env) => {
    await configure(env);
    const url = `${env.base}/pages/simple.html`;
    await env.open(url);
    const other = `${env.base}/pages/tall.html`;
    await env.open(other);
    const otherTab = await env.tabIdFor(other);
    const replies = await asContentScript(env, url, [
      { type: "save_settings", settings: { provider: "openai", providers: [{ kind: "openai", base_url: "https://evil.example/v1", api_key: "<redacted>" }] } },
      { type: "get_settings" },
      { type: "tab_rpc", tab_id: otherTab, rpc: { type: "scroll", direction: "down" } },
      { type: "test_connection", provider: { kind: "openai", base_url: "https://evil.example/v1" } },
      { type: "dark_set_site", tab_id: otherTab, on: true },
      { type: "dark_refine", tab_id: otherTab, mode: "quick" },
      { type: "get_usage" },
      { type: "no_such_thing" },
    ].map((send) => ({ send })));
    for (const r of replies) assert.deepEqual(r, REFUSED);
    const ext = await env.extPage();
    const { settings } = await ext.evaluate(() => chrome.storage.local.get("settings"));
    assert.equal(settings.providers[0].base_url, `${env.llm.url}/v1`, "the provider still points where the user set it");
    assert.equal(await ext.evaluate(() => chrome.storage.local.get("dark_sites").then((s) => JSON.stringify(s))), "{}");
    const scrolled = env.ctx.pages().find((p) => p.url() === other);
    assert.equal(await scrolled.evaluate(() => window.scrollY), 0, "the other tab was not touched");
    assert.equal(env.llm.requests().length, 0, "no model call was made");
  }],

  ["a content script can't open the chat, agent or llm ports", async (env) => {
    await configure(env);
    const url = `${env.base}/pages/simple.html`;
    await env.open(url);
    const windowId = await (await env.extPage()).evaluate(() => chrome.windows.getCurrent().then((w) => w.id));
    const replies = await asContentScript(env, url, [
      ["chat", { type: "load", window_id: windowId }],
      ["agent", { type: "start", window_id: windowId, task: "click everything" }],
      ["llm", { type: "complete", request_id: "r1", request: { model: "", messages: [{ role: "user", text: "hi" }], tools: [], stream: true } }],
    ].map((port) => ({ port })));
    assert.deepEqual(replies, [REFUSED, REFUSED, REFUSED]);
    assert.equal(env.llm.requests().length, 0);
  }],

  ["what content scripts need still works: a sheet their page links, and the mask's Stop", async (env) => {
    const url = `${env.base}/pages/palette.html`;
    await env.open(url);
    const css = `${env.base}/pages/palette.css`;
    const [fetched, stop] = await asContentScript(env, url, [{ send: { type: "dark_fetch_css", url: css } }, { send: { type: "agent_stop" } }]);
    assert.equal(fetched.type, "dark_css", JSON.stringify(fetched));
    assert.ok(fetched.css.length > 20);
    assert.deepEqual(stop, { type: "saved" });
  }],

  ["dark_fetch_css fetches only sheets the asking page links, and gives up on a silent server after 5 s", async (env) => {
    const url = `${env.base}/pages/simple.html`;
    await env.open(url);
    const [notLinked, elsewhere] = await asContentScript(env, url, [
      { send: { type: "dark_fetch_css", url: `${env.base}/pages/palette.css` } },
      { send: { type: "dark_fetch_css", url: `${env.llm.url}/v1/models` } },
    ]);
    for (const r of [notLinked, elsewhere]) {
      assert.equal(r.type, "error");
      assert.match(r.message, /does not link or import this stylesheet/);
    }
    assert.equal(env.llm.requests().length, 0, "nothing was fetched for the page");
    const hang = `${env.base}/pages/hostile/hang.html`;
    await env.open(hang, { waitUntil: "domcontentloaded" });
    const t0 = Date.now();
    const [late] = await asContentScript(env, hang, [{ send: { type: "dark_fetch_css", url: `${env.base}/__hang/slow.css` } }]);
    const ms = Date.now() - t0;
    assert.equal(late.type, "error");
    assert.match(late.message, /no answer within 5 s/);
    assert.ok(ms >= 4500 && ms < 7000, `answered after ${ms} ms`);
  }],

  ["extension pages keep everything; a page that isn't the side panel still can't drive the agent", async (env) => {
    await configure(env);
    assert.equal((await env.sendToWorker({ type: "get_settings" })).type, "settings");
    const ext = await env.extPage();
    const reply = await ext.evaluate(([name, message]) => new Promise((resolve) => {
      const port = chrome.runtime.connect({ name });
      port.onMessage.addListener((m) => { resolve(m); port.disconnect(); });
      port.postMessage(message);
    }), ["agent", { type: "load", window_id: 1 }]);
    assert.deepEqual(reply, REFUSED, "options.html is an extension page, but only the side panel drives the agent");
  }],
];
