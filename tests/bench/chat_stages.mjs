// Benchmark (not a test): where the chat's Send → first token goes, stage by stage. The worker's
// fetch, storage calls and port messages and the panel's port are wrapped to log
// `performance.timeOrigin + now()`; medians over the follow-up questions (a conversation's first
// also reads the page). Run: node tests/bench/chat_stages.mjs [runs]; DUSK_DIST picks the build.
import { launch } from "../e2e/env.mjs";
import { benchProvider, panelOnArticle } from "./chat_panel.mjs";

const runs = Number(process.argv[2] || 30);
const env = await launch();
await benchProvider(env);
const sw = await env.serviceWorker();
await sw.evaluate(() => {
  const T = () => performance.timeOrigin + performance.now();
  const log = (what) => (globalThis.benchLog ??= []).push([T(), what]);
  const fetch0 = globalThis.fetch;
  globalThis.fetch = function (url, init) {
    log("fetch");
    const p = fetch0.call(this, url, init);
    p.then(() => log("headers"), () => {});
    return p;
  };
  for (const area of ["session", "local"]) {
    const s = chrome.storage[area];
    for (const m of ["get", "set", "remove"]) {
      const call = s[m].bind(s);
      s[m] = (...a) => (log(`storage ${m}`), call(...a));
    }
  }
  chrome.runtime.onConnect.addListener((port) => {
    const post = port.postMessage.bind(port);
    port.postMessage = (m) => (log(`post ${m?.type}`), post(m));
    port.onMessage.addListener((m) => log(`recv ${m?.type}`));
  });
});
await env.ctx.addInitScript(() => {
  if (!location.pathname.endsWith("sidepanel.html")) return;
  const T = () => performance.timeOrigin + performance.now();
  globalThis.benchLog = [];
  const connect = chrome.runtime.connect.bind(chrome.runtime);
  chrome.runtime.connect = (...a) => {
    const port = connect(...a);
    const add = port.onMessage.addListener.bind(port.onMessage);
    port.onMessage.addListener = (h) => add((m, p) => {
      benchLog.push([T(), `panel recv ${m?.type}`]);
      h(m, p);
      benchLog.push([T(), `panel handled ${m?.type}`]);
    });
    return port;
  };
});
const panel = await panelOnArticle(env);

const asked = [];
for (let i = 0; i < runs; i++) {
  asked.push(await panel.evaluate((i) => new Promise((resolve) => {
    const before = document.querySelectorAll(".msg.assistant").length;
    let dom = 0;
    const t0 = performance.timeOrigin + performance.now();
    const obs = new MutationObserver(() => {
      const el = document.querySelectorAll(".msg.assistant")[before];
      if (!el) return;
      if (!dom && el.querySelector(".md")?.textContent) dom = performance.timeOrigin + performance.now() - t0;
      if (!el.classList.contains("streaming") && document.querySelector("#send").dataset.state !== "stop") {
        obs.disconnect();
        resolve({ t0, dom });
      }
    });
    obs.observe(document.querySelector("#messages"), { childList: true, subtree: true, characterData: true, attributes: true });
    obs.observe(document.querySelector("#send"), { attributes: true });
    const q = document.querySelector("#question");
    q.value = `Question ${i}: what is this about?`;
    q.dispatchEvent(new Event("input"));
    document.querySelector("#send").click();
  }), i));
  if (i % 5 === 4) {
    await panel.click("#new-chat");
    await panel.waitForFunction(() => !document.querySelector("#messages .msg"));
  }
}
const log = [...(await sw.evaluate(() => globalThis.benchLog ?? [])), ...(await panel.evaluate(() => benchLog))].sort((a, b) => a[0] - b[0]);
await env.close();

const stages = { "Send → worker has it": [], "→ request out": [], "storage calls before it": [], "→ response headers": [], "→ delta posted": [], "→ panel has it": [], "panel's handler": [], "Send → delta in the DOM": [] };
asked.forEach(({ t0, dom }, i) => {
  if (i % 5 === 0) return;
  const end = asked[i + 1]?.t0 ?? Infinity;
  const mine = log.filter(([at]) => at >= t0 && at < end);
  const at = (what) => mine.find(([, w]) => w === what)?.[0] - t0;
  const [recv, fetch, headers, post, got, done] = ["recv ask", "fetch", "headers", "post delta", "panel recv delta", "panel handled delta"].map(at);
  if ([recv, fetch, headers, post, got, done].some(Number.isNaN)) return;
  const s = Object.values(stages);
  [recv, fetch - recv, mine.filter(([a, w]) => w.startsWith("storage") && a - t0 < fetch).length, headers - fetch, post - headers, got - post, done - got, dom].forEach((v, k) => s[k].push(v));
});
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`chat stages, medians of ${stages["Send → delta in the DOM"].length} follow-up questions (ms; storage: calls)`);
for (const [name, xs] of Object.entries(stages)) console.log(`  ${name.padEnd(26)} ${median(xs).toFixed(1)}`);
