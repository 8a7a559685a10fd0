// Benchmark (not a test): where the chat's page read goes, stage by stage. Per page, warm, in turn:
// the whole read through the worker (tab_rpc text_snapshot, as chat_read.mjs), the always-on
// script's reply alone (tabs.sendMessage page_text from an extension page: the measure and the
// message both ways), and that reply's size; the worker's part is the difference. With PROFILE=1,
// the page renderer's CPU profile over the script-only reads, top functions by self time.
// Run: node tests/bench/chat_read_stages.mjs [runs]   (DUSK_DIST for another build, ONLY=bbc for one page)
import { launch } from "../e2e/env.mjs";

const RUNS = Number(process.argv[2] || 15);
const ALL = [
  ["python stdtypes", "/corpus/python-docs/python3.11-doc/html/library/stdtypes.html"],
  ["node fs", "/corpus/node-docs/nodejs/api/fs.html"],
  ["wikipedia article", "/corpus/readability/wikipedia/index.html"],
  ["bbc article", "/corpus/readability/bbc-1/index.html"],
];
// ONLY=bbc: the pages whose name holds it.
const PAGES = ALL.filter(([name]) => name.includes(process.env.ONLY ?? ""));
// What the worker asks for one tab (content_rpc.rs page_blocks at snapshot_chars(12,000)).
const READ = { type: "page_text", blocks: true, as_text: true, max_chars: 48000, headings: "h1,h2,h3,h4,h5,h6,[role=heading]" };
const env = await launch();
const ext = await env.extPage();
// The worker's clock marks: when it asks the tab, when the reply comes, how long the reply's JSON text takes.
const sw = await env.serviceWorker();
await sw.evaluate(() => {
  const T = () => performance.timeOrigin + performance.now(), send = chrome.tabs.sendMessage.bind(chrome.tabs), stringify = JSON.stringify;
  globalThis.benchMarks = {};
  chrome.tabs.sendMessage = (...a) => {
    const m = (globalThis.benchMarks = { send: T() });
    const p = send(...a);
    p.then(() => (m.reply = T()), () => {});
    return p;
  };
  JSON.stringify = (...a) => { const t = T(), r = stringify(...a); globalThis.benchMarks.json = T() - t; return r; };
});
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const rows = [];
for (const [name, p] of PAGES) {
  const url = `${env.base}${p}`, page = await env.open(url), tabId = await env.tabIdFor(url);
  await page.waitForTimeout(300);
  const whole = async () => {
    const t = await ext.evaluate(async (tabId) => {
      const T = () => performance.timeOrigin + performance.now(), t0 = T();
      const r = await chrome.runtime.sendMessage({ type: "tab_rpc", tab_id: tabId, rpc: { type: "text_snapshot", token_budget: 12000 } });
      if (r?.response?.type !== "text_snapshot") throw new Error(JSON.stringify(r));
      return { t0, t1: T() };
    }, tabId);
    const m = await sw.evaluate(() => globalThis.benchMarks);
    // A read over the tab's kept port (crates/worker/src/read_port.rs) sends no one-time message: its stages are not marked.
    if (!(m.send >= t.t0)) return { ms: t.t1 - t.t0, ask: NaN, tab: NaN, json: NaN, after: NaN };
    return { ms: t.t1 - t.t0, ask: m.send - t.t0, tab: m.reply - m.send, json: m.json ?? 0, after: t.t1 - m.reply - (m.json ?? 0) };
  };
  const script = () => ext.evaluate(async ({ tabId, read }) => {
    const t0 = performance.now();
    const reply = await chrome.tabs.sendMessage(tabId, read);
    const ms = performance.now() - t0, text = typeof reply === "string" ? reply : JSON.stringify(reply), r = JSON.parse(text);
    return { ms, measure: r.ms, bytes: text.length, blocks: r.blocks?.length ?? 0, boxes: r.boxes?.length ?? 0 };
  }, { tabId, read: READ });
  for (let i = 0; i < 3; i++) await whole(), await script();
  const w = [], s = [], m = [], ping = [], parts = { ask: [], tab: [], json: [], after: [] };
  let shape;
  for (let i = 0; i < RUNS; i++) {
    const one = await whole();
    w.push(one.ms);
    for (const k in parts) parts[k].push(one[k]);
    shape = await script();
    s.push(shape.ms);
    if (shape.measure !== undefined) m.push(shape.measure);
    ping.push(await ext.evaluate(async (tabId) => { const t0 = performance.now(); await chrome.tabs.sendMessage(tabId, { type: "ping" }); return performance.now() - t0; }, tabId));
  }
  let top = "";
  if (process.env.PROFILE) {
    const cdp = await env.ctx.newCDPSession(page);
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
    await cdp.send("Profiler.start");
    for (let i = 0; i < RUNS; i++) await script();
    const { profile } = await cdp.send("Profiler.stop");
    const self = new Map(), dt = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map(), total = new Map(), name = (n) => `${n.callFrame.functionName || "(anon)"}:${n.callFrame.lineNumber + 1} ${n.callFrame.url.split("/").pop()}`;
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    profile.samples.forEach((id, i) => {
      const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000, key = name(dt.get(id));
      self.set(key, (self.get(key) ?? 0) + ms);
      const keys = new Set();
      for (let n = id; n !== undefined; n = parent.get(n)) keys.add(name(dt.get(n)));
      for (const k of keys) total.set(k, (total.get(k) ?? 0) + ms);
    });
    top = [...self].filter(([k]) => !/^\((idle|program|root)\)/.test(k)).sort((a, b) => b[1] - a[1]).slice(0, 14)
      .map(([k, ms]) => `    ${(ms / RUNS).toFixed(2)} ms self, ${(total.get(k) / RUNS).toFixed(2)} total  ${k}`).join("\n");
    top += "\n  by total:\n" + [...total].filter(([k]) => !/^\((idle|program|root)\)/.test(k)).sort((a, b) => b[1] - a[1]).slice(0, 16)
      .map(([k, ms]) => `    ${(ms / RUNS).toFixed(2)} ms  ${k}`).join("\n");
    await cdp.detach();
  }
  await page.close();
  rows.push({ page: name, "whole ms": median(w).toFixed(1), "script+message ms": median(s).toFixed(1), "to worker ms": median(parts.ask).toFixed(1), "tab's reply ms": median(parts.tab).toFixed(1), "JSON text ms": median(parts.json).toFixed(1), "decode + core + back ms": median(parts.after).toFixed(1), "ping ms": median(ping).toFixed(1), ...(m.length ? { "measure ms (in the script)": median(m).toFixed(1) } : {}), "reply KB": (shape.bytes / 1024).toFixed(0), boxes: shape.boxes, blocks: shape.blocks });
  if (top) console.log(`${name}: self time per read\n${top}`);
}
await env.close();
console.table(rows);
