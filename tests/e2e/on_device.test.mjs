// Chrome's built-in model ("On this device (Chrome)") as the provider. This Chromium exposes
// `LanguageModel` but has no model ("unavailable"), and other browsers have no API at all: the first
// test checks the option is disabled and says why in both cases. The rest inject a stand-in that
// follows the Prompt API's Web IDL (prompt_api_standin.js, test-only, never in dist/) into the
// service worker, and check the calls it received.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { answerText, ask, panelFor } from "./chat_panel.mjs";
import { agentPanel, outcome, runTask } from "./agent_panel.mjs";
import { resetMemory, setSite, isDark, until } from "./dark.mjs";

const STANDIN = readFileSync(new URL("./prompt_api_standin.js", import.meta.url), "utf8");
const EN = JSON.parse(readFileSync(new URL("../../extension/_locales/en/messages.json", import.meta.url), "utf8"));
const PY = "/corpus/python-docs/python3.11-doc/html";
const PAGE_LOADS = ["document", "stylesheet", "image", "media", "font", "script", "texttrack", "manifest"];

/** Installs the stand-in in the worker with `state` ({availability, contextWindow, replies}). */
async function standIn(env, state = {}) {
  const sw = await env.serviceWorker();
  await sw.evaluate(keepReal);
  await sw.evaluate(STANDIN);
  await sw.evaluate((s) => Object.assign(globalThis.__promptApiStandIn, { calls: [], sessions: 0, destroyed: 0 }, s), state);
  return sw;
}
const control = (sw) => sw.evaluate(() => JSON.parse(JSON.stringify(globalThis.__promptApiStandIn)));

async function useOnDevice(env, extra = {}) {
  const ext = await env.extPage();
  await ext.evaluate((p) => chrome.storage.local.set({ settings: { provider: "on_device", providers: [{ kind: "on_device", ...p }] } }), extra);
}

/** Records every request the browser makes (pages and the worker) and every fetch the worker calls. */
async function recordRequests(env, sw) {
  const seen = [];
  const onRequest = (r) => {
    let frame = "";
    try {
      frame = r.frame().url();
    } catch {
      frame = "service worker";
    }
    // A fixture page's own subresources (its images, scripts, sheets) are the page loading, not Dusk.
    const pageLoad = frame.startsWith(env.base) && PAGE_LOADS.includes(r.resourceType());
    if (!pageLoad) seen.push(r.url());
  };
  env.ctx.on("request", onRequest);
  await sw.evaluate(() => {
    globalThis.__fetched = [];
    if (!globalThis.__fetchOriginal) {
      const original = (globalThis.__fetchOriginal = globalThis.fetch);
      globalThis.fetch = function (input, init) {
        globalThis.__fetched.push(String(input?.url ?? input));
        return original.call(this, input, init);
      };
    }
  });
  return {
    async stop() {
      env.ctx.off("request", onRequest);
      const fetched = await sw.evaluate(() => globalThis.__fetched);
      return { seen, fetched };
    },
  };
}

/** Requests that left the browser: anything but the fixture pages themselves and extension files. */
function outside(env, urls) {
  return urls.filter((u) => !u.startsWith(env.base) && !u.startsWith("chrome-extension://") && !u.startsWith("data:") && !u.startsWith("blob:"));
}

/** Keeps the browser's own `LanguageModel` (if any) aside, once, so it can be put back. */
const keepReal = () => {
  if (!("__realLanguageModel" in globalThis)) globalThis.__realLanguageModel = Object.getOwnPropertyDescriptor(globalThis, "LanguageModel") ?? null;
};

/** Takes the stand-in (and the fetch recorder) out of the worker, so later test files see this Chromium as it is. */
async function removeStandIn(env) {
  const sw = await env.serviceWorker();
  await sw.evaluate(() => {
    if ("__realLanguageModel" in globalThis) {
      if (globalThis.__realLanguageModel) Object.defineProperty(globalThis, "LanguageModel", globalThis.__realLanguageModel);
      else delete globalThis.LanguageModel;
      delete globalThis.__realLanguageModel;
    }
    delete globalThis.__promptApiStandIn;
    if (globalThis.__fetchOriginal) globalThis.fetch = globalThis.__fetchOriginal;
    delete globalThis.__fetchOriginal;
    delete globalThis.__fetched;
  });
}

const cases = [
  ["where Chrome can't run its model, or has no Prompt API, the option is disabled and says so", async (env) => {
    const sw = await env.serviceWorker();
    // This Chromium has the API but no model: availability() answers "unavailable".
    const real = await sw.evaluate(async () => typeof LanguageModel === "function" ? LanguageModel.availability() : "absent");
    assert.ok(["unavailable", "absent"].includes(real), real);
    const check = async (want, message) => {
      const options = await env.open(env.extUrl("options.html"));
      const line = options.locator("#on-device-availability");
      await until(async () => (await line.getAttribute("data-availability")) === want, `the availability line to say ${want}`);
      assert.equal(await line.textContent(), message);
      assert.equal(await options.locator("#provider option[value=on_device]").isDisabled(), true);
      assert.equal(await options.locator("#provider option[value=on_device]").textContent(), "On this device (Chrome)");
      assert.equal(await options.locator("#on-device-download").isHidden(), true);
      await options.close();
    };
    await check(real, real === "absent" ? EN.onDeviceAbsent.message : EN.onDeviceUnavailable.message);
    // Another browser, or an older Chrome: no `LanguageModel` at all.
    await sw.evaluate(keepReal);
    await sw.evaluate(() => delete globalThis.LanguageModel);
    await check("absent", EN.onDeviceAbsent.message);
  }],

  ["options: availability, Download with progress inside the click, then Test connection runs one tiny prompt", async (env) => {
    const sw = await standIn(env, { availability: "downloadable" });
    const options = await env.open(env.extUrl("options.html"));
    const line = options.locator("#on-device-availability");
    await until(async () => (await line.getAttribute("data-availability")) === "downloadable", "downloadable");
    assert.equal(await line.textContent(), EN.onDeviceDownloadable.message);
    assert.equal(await options.locator("#provider option[value=on_device]").isDisabled(), false);
    // The page's own LanguageModel downloads; Chrome's state is one per profile, so the worker's follows.
    await options.evaluate(STANDIN);
    await options.evaluate(() => (globalThis.__promptApiStandIn.availability = "downloadable"));
    await sw.evaluate(() => (globalThis.__promptApiStandIn.availability = "available"));
    const values = [];
    const progress = options.locator("#on-device-progress");
    await options.click("#on-device-download");
    await until(async () => {
      values.push(await progress.getAttribute("value"));
      return (await line.getAttribute("data-availability")) === "available";
    }, "the download to finish", 8000);
    assert.ok(values.includes("0.5") || values.includes("1"), `the bar moved: ${[...new Set(values)]}`);
    assert.equal(await line.textContent(), EN.onDeviceAvailable.message);
    assert.equal(await options.locator("#on-device-download").isHidden(), true);
    const page = await options.evaluate(() => globalThis.__promptApiStandIn.calls);
    assert.deepEqual(page.filter((c) => c.method === "create").map((c) => c.monitor), [true], "create() with a monitor, in the click");
    assert.equal(page.at(-1).method, "destroy");

    await options.selectOption("#provider", "on_device");
    assert.equal(await options.locator("#api-key").isHidden(), true, "no key");
    assert.equal(await options.locator("#base-url").isHidden(), true, "no base URL");
    assert.equal(await options.locator("#on-device-agents").isVisible(), true);
    await sw.evaluate(() => globalThis.__promptApiStandIn.replies.push({ chunks: ["OK"] }));
    await options.click("#save");
    await options.click("#test");
    await options.locator("#result.ok").waitFor();
    assert.match(await options.locator("#result").textContent(), /^Connected to On this device \(Chrome\) \(chrome-built-in\) in \d+ ms/);
    const calls = (await control(sw)).calls.map((c) => c.method);
    assert.deepEqual(calls.slice(-4), ["availability", "create", "prompt", "destroy"], calls.join());
  }],

  ["chat pass 1 streams from the on-device model; the panel says so; nothing leaves the browser", async (env) => {
    await useOnDevice(env);
    const sw = await standIn(env, { replies: [{ match: "Mozilla Foundation", chunks: ["Mozilla is a ", "**free software** ", "community."], delayMs: 40 }] });
    const recorder = await recordRequests(env, sw);
    // An article whose local copy loads nothing from other hosts, so any such request would be Dusk's.
    const { panel } = await panelFor(env, ["/corpus/readability/wikipedia/index.html"]);
    assert.equal(await panel.locator("#on-device-badge").textContent(), EN.onThisDevice.message);
    await ask(panel, "What is this article about?");
    assert.equal(await answerText(panel), "Mozilla is a free software community.");
    const { calls, sessions, destroyed } = await control(sw);
    const create = calls.find((c) => c.method === "create");
    assert.deepEqual(create.initialPrompts, ["system"], "the system prompt opens the session");
    assert.equal(create.signal, true);
    const streamed = calls.find((c) => c.method === "promptStreaming");
    assert.equal(streamed.signal, true);
    assert.match(streamed.text, /<page tab="1" title="Mozilla - Wikipedia"[^]*Mozilla Foundation[^]*Question: What is this article about\?/);
    assert.equal(sessions, 1);
    assert.equal(destroyed, 1, "the session is destroyed when the answer ends");
    assert.match(await panel.locator("#usage").textContent(), /tokens/);
    const { seen, fetched } = await recorder.stop();
    assert.deepEqual(outside(env, fetched), [], "the worker fetched nothing outside the browser");
    assert.deepEqual(outside(env, seen), [], "no request outside the browser");
    assert.equal(env.llm.requests().length, 0, "no provider server was called");
  }],

  ["Quick dark mode end to end on a corpus page with the on-device model; the popup says so; nothing leaves the browser", async (env) => {
    await resetMemory(env);
    await useOnDevice(env);
    const css = "```css\nhtml { scrollbar-color: #555 #111 !important }\npre { background: #0d1117 !important }\n```";
    const sw = await standIn(env, { replies: [{ match: "Refine the theme", chunks: [css] }] });
    const url = `${env.base}${PY}/tutorial/introduction.html`;
    const page = await env.open(url);
    await setSite(env, url, true);
    await until(() => isDark(page), "Instant to darken the page");
    const tabId = await env.tabIdFor(url);
    const recorder = await recordRequests(env, sw);
    const popup = await env.ctx.newPage();
    await popup.goto(env.extUrl(`popup.html?tab=${tabId}`));
    await popup.locator("#dark h2").waitFor();
    assert.equal(await popup.locator("#on-device-badge").textContent(), EN.onThisDevice.message);
    await page.bringToFront();
    await popup.locator("input[value=quick]").click();
    await until(async () => (await popup.locator("#dark-run").getAttribute("data-stage").catch(() => null)) === "done", "Quick to finish", 20_000);
    assert.match(await popup.locator("#dark-version-label").textContent(), /Quick · chrome-built-in/);
    assert.equal(await page.evaluate(() => getComputedStyle(document.documentElement).scrollbarColor), "rgb(85, 85, 85) rgb(17, 17, 17)");
    const { calls } = await control(sw);
    const prompted = calls.find((c) => c.method === "prompt" || c.method === "promptStreaming");
    assert.match(prompted.text, /Refine the theme/);
    const create = calls.find((c) => c.method === "create");
    assert.deepEqual(create.expectedInputs.map((e) => e.type), ["text"], "no image input unless vision is turned on");
    const { seen, fetched } = await recorder.stop();
    await popup.close();
    assert.deepEqual(outside(env, fetched), [], "the worker fetched nothing outside the browser");
    assert.deepEqual(outside(env, seen), [], "no request outside the browser");
    assert.equal(env.llm.requests().length, 0);
  }],

  ["switching dark mode on from the popup (this site, then All sites) never asks about the on-device model; opening its settings does", async (env) => {
    await resetMemory(env);
    // Even with the on-device model as the provider, Instant needs no model.
    await useOnDevice(env);
    const url = `${env.base}${PY}/tutorial/introduction.html`;
    const page = await env.open(url);
    const sw = await standIn(env);
    const tabId = await sw.evaluate(async (u) => (await chrome.tabs.query({})).find((t) => t.url === u)?.id, url);
    // The helpers' options page asks for the model's availability when it opens: not open here.
    await env._ext?.close();
    await sw.evaluate(() => { globalThis.__promptApiStandIn.calls = []; });
    const popup = await env.ctx.newPage();
    await popup.goto(env.extUrl(`popup.html?tab=${tabId}`));
    await popup.locator("#dark-site").click();
    await until(() => isDark(page), "the page to turn dark");
    await until(async () => (await popup.locator("#dark").getAttribute("data-on")) === "true", "the popup to show on");
    await popup.locator("#dark-auto").click();
    await until(async () => (await popup.locator("#dark-auto").getAttribute("aria-checked")) === "true", "All sites to show on");
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual((await control(sw)).calls, [], "no LanguageModel call on the way to dark");
    await popup.close();
    // The control: the settings page does ask, so a call on the switch's path would have been seen.
    const options = await env.open(env.extUrl("options.html"));
    await until(async () => (await control(sw)).calls.some((c) => c.method === "availability"), "the settings page to ask for availability");
    await options.close();
    await resetMemory(env);
  }],

  ["Stop aborts the on-device stream through its AbortSignal and keeps the partial answer", async (env) => {
    await useOnDevice(env);
    const chunks = Array.from({ length: 40 }, (_, i) => `part${i} `);
    const sw = await standIn(env, { replies: [{ chunks, delayMs: 100 }] });
    const { panel } = await panelFor(env, ["/pages/chat-a.html"]);
    await ask(panel, "Tell me everything");
    await panel.waitForFunction(() => /part1/.test(document.querySelector(".msg.assistant .md")?.textContent || ""));
    await panel.click("#send[data-state=stop]");
    await panel.locator(".msg.assistant .note.stopped").waitFor();
    const shown = await panel.locator(".msg.assistant .md").textContent();
    assert.match(shown, /part0 part1/);
    assert.ok(!shown.includes("part39"), "stopped before the end");
    await until(async () => (await control(sw)).destroyed === 1, "the session to be destroyed");
  }],

  ["a page too big for the context window is a clear error, and the question stays", async (env) => {
    await useOnDevice(env);
    await standIn(env, { contextWindow: 1200, replies: [{ chunks: ["never"] }] });
    const { panel } = await panelFor(env, [`${PY}/library/stdtypes.html`]);
    await ask(panel, "Summarise this");
    await panel.locator(".msg.assistant .note.error").waitFor();
    const error = await panel.locator(".msg.assistant .note.error").textContent();
    assert.match(error, /too long for the model: the on-device model's context window is full \(The input is too large/);
    assert.equal(await panel.locator(".msg.user").count(), 1);
    assert.match(await panel.locator(".msg.user").textContent(), /Summarise this/);
  }],

  ["the model becoming unavailable mid-session is said plainly; earlier answers stay", async (env) => {
    await useOnDevice(env);
    await standIn(env, { replies: [{ chunks: ["Alpha ships on Tuesday."], becomeUnavailable: true }] });
    const { panel } = await panelFor(env, ["/pages/chat-a.html"]);
    await ask(panel, "When does Alpha ship?");
    assert.equal(await answerText(panel), "Alpha ships on Tuesday.");
    await ask(panel, "And Beta?");
    await panel.locator(".msg.assistant .note.error").waitFor();
    assert.match(await panel.locator(".msg.assistant .note.error").textContent(), /Chrome's built-in model is not ready: Chrome says this device can't run it now/);
    assert.equal((await panel.locator(".msg.assistant .md").first().textContent()).trim(), "Alpha ships on Tuesday.");
  }],

  ["Thorough needs the user's say-so for the on-device model", async (env) => {
    await useOnDevice(env);
    await standIn(env);
    const page = await env.open(`${env.base}/pages/chat-a.html`);
    const tabId = await env.tabIdFor(page.url());
    const reply = await env.sendToWorker({ type: "dark_refine", tab_id: tabId, mode: "thorough" });
    assert.match(JSON.stringify(reply), /only drives chat and Quick dark mode[^]*Let the on-device model drive agents/);
  }],

  ["the browser agent runs on the on-device model only once the user lets it, with tools in the text protocol", async (env) => {
    const sw = await standIn(env, { replies: [{ chunks: ["The page is about ", "Alpha facts."] }] });
    let { panel } = await agentPanel(env, "/pages/chat-a.html");
    await useOnDevice(env);
    await runTask(panel, "What is this page about?");
    let end = await outcome(panel);
    assert.equal(end.state, "failed");
    assert.match(end.text, /only drives chat and Quick dark mode[^]*Let the on-device model drive agents/);
    assert.equal((await control(sw)).calls.filter((c) => c.method === "create").length, 0, "the model was never asked");
    ({ panel } = await agentPanel(env, "/pages/chat-a.html"));
    await useOnDevice(env, { drive_agents: true });
    await runTask(panel, "What is this page about?");
    end = await outcome(panel);
    assert.equal(end.state, "done", end.text);
    assert.match(end.text, /The page is about Alpha facts\./);
    const create = (await control(sw)).calls.find((c) => c.method === "create");
    assert.deepEqual(create.initialPrompts, ["system"]);
    assert.match(create.text, /# Tools\nYou call tools by writing JSON[^]*## click/, "the tools are described in the system prompt");
  }],
];

export const tests = cases.map(([name, fn]) => [name, async (env) => {
  try {
    await fn(env);
  } finally {
    await removeStandIn(env);
  }
}]);
