// Benchmark (not a test): where Dusk's script time goes on one busy page (tests/fixtures/busy).
// A CDP CPU profile of the page with dark mode on (ARM=none: off) over DURATION ms: time by
// script, self time by function, and inclusive time of the extension's functions (JS and wasm).
// Function names need an unminified bundle and a wasm kept with its names (`wasm-opt -g`);
// FOCUS=name splits the time under a function by the callee it went to.
// INTERVAL: the sampling interval in µs (100; a longer one costs the page less).
// Usage: [DUSK_DIST=dir] [DURATION=5000] [INTERVAL=100] [ARM=dusk|none] [TOP=30] [FOCUS=name] node tests/bench/busy_profile.mjs page   (build dist/ first)
import { launch } from "../e2e/env.mjs";

const DURATION = Number(process.env.DURATION ?? 5000);
const TOP = Number(process.env.TOP ?? 30);
const ARM = process.env.ARM ?? "dusk";
const name = process.argv[2] ?? "dashboard";
const env = await launch();
const port = new URL(env.base).port;
const themed = `http://busy.duckdns.org:${port}/busy`;
const plain = `http://127.0.0.1:${port}/busy`;
{
  const page = await env.open(`${themed}/rules.html`);
  await env.sendToWorker({ type: "dark_set_site", tab_id: await env.tabIdFor(page.url()), on: true });
  await page.close();
}
const page = await env.ctx.newPage();
await page.setViewportSize({ width: 1280, height: 900 });
await page.addInitScript(() => { window.__busyAdded = () => {}; });
const cdp = await env.ctx.newCDPSession(page);
await page.goto(`${ARM === "dusk" ? themed : plain}/${name}.html`, { waitUntil: "load" });
await page.waitForTimeout(1500);
await cdp.send("Profiler.enable");
await cdp.send("Profiler.setSamplingInterval", { interval: Number(process.env.INTERVAL ?? 100) });
await cdp.send("Profiler.start");
await page.waitForTimeout(DURATION);
const { profile } = await cdp.send("Profiler.stop");
await env.close();

const dt = new Map();
for (let i = 0; i < profile.samples.length; i++) dt.set(profile.samples[i], (dt.get(profile.samples[i]) ?? 0) + profile.timeDeltas[i] / 1000);
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const short = (u) => u.replace(/^.*\//, "") || "(native)";
const self = new Map(), total = new Map(), scripts = new Map();
let ext = 0;
for (const n of profile.nodes) {
  const ms = dt.get(n.id) ?? 0;
  if (!ms) continue;
  const f = n.callFrame;
  const key = `${f.functionName || "(anon)"} ${short(f.url)}:${f.lineNumber + 1}:${f.columnNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + ms);
  // The script a native function's time belongs to: its nearest JS caller's.
  let p = n, url = f.url;
  while (!url && parent.has(p.id)) { p = byId.get(parent.get(p.id)); url = p.callFrame.url; }
  const s = short(url || f.functionName);
  scripts.set(s, (scripts.get(s) ?? 0) + ms);
  if (url.startsWith("chrome-extension://")) ext += ms;
  // Inclusive time per extension function, each counted once per sample path.
  const seen = new Set();
  for (let q = n; q; q = parent.has(q.id) ? byId.get(parent.get(q.id)) : null) {
    const g = q.callFrame;
    if (!g.url.startsWith("chrome-extension://") && !g.url.includes("wasm")) continue;
    const k = `${g.functionName || "(anon)"} ${short(g.url)}:${g.lineNumber + 1}:${g.columnNumber + 1}`;
    if (!seen.has(k)) { seen.add(k); total.set(k, (total.get(k) ?? 0) + ms); }
  }
}
const show = (m, n) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => `${v.toFixed(1).padStart(8)}  ${k}`).join("\n");
console.log(`${name} (${ARM}), ${DURATION / 1000} s: extension script (with what it calls) ${ext.toFixed(1)} ms`);
console.log(`by script:\n${show(scripts, 12)}`);
console.log(`self time:\n${show(self, TOP)}`);
console.log(`extension functions, inclusive:\n${show(total, TOP)}`);
// FOCUS=name: the time under each function whose name contains it, by the callee it went to.
if (process.env.FOCUS) {
  const under = new Map();
  for (const n of profile.nodes) {
    const ms = dt.get(n.id) ?? 0;
    if (!ms) continue;
    let child = n;
    for (let q = n; q; child = q, q = parent.has(q.id) ? byId.get(parent.get(q.id)) : null) {
      if (!q.callFrame.functionName.includes(process.env.FOCUS)) continue;
      const k = q === child ? "(self)" : child.callFrame.functionName || "(anon)";
      under.set(k, (under.get(k) ?? 0) + ms);
      break;
    }
  }
  console.log(`under ${process.env.FOCUS}:\n${show(under, TOP)}`);
}
