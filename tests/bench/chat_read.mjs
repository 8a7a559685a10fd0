// Benchmark (not a test): the chat's first read of a page, text_snapshot at its one-tab budget
// (12,000 tokens), through the worker as the chat asks it, what the page block starts with, and
// the always-on script's size.
// Run: node tests/bench/chat_read.mjs [runs]   (DUSK_DIST=before for another build, ONLY=bbc for one page,
//   NEW_TABS=n new tabs' first reads, GC=1 a garbage collection before each warm read)
// Builds side by side: DUSK_DISTS=before=/path,main=/path,after=dist node tests/bench/chat_read.mjs 9
//   (one Chromium per build, their reads taken in turn, so a busy machine slows each alike).
// "tab CPU" is the tab's main thread's own time in the read (thread ticks, CDP Performance): the
// measure and its message, which a machine busy with other work slows less than the clock.
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import path from "node:path";

const RUNS = Number(process.argv[2] || 9);
const NEW_TABS = Number(process.env.NEW_TABS || 5);
const ALL = [
  ["python stdtypes", "/corpus/python-docs/python3.11-doc/html/library/stdtypes.html"],
  ["node fs", "/corpus/node-docs/nodejs/api/fs.html"],
  ["wikipedia article", "/corpus/readability/wikipedia/index.html"],
  ["bbc article", "/corpus/readability/bbc-1/index.html"],
  ["text no one can see", "/pages/agent/hidden-text.html"],
];
// ONLY=bbc: the pages whose name holds it.
const PAGES = ALL.filter(([name]) => name.includes(process.env.ONLY ?? ""));
const RPC = { type: "text_snapshot", token_budget: 12000 };
const builds = (process.env.DUSK_DISTS || `${process.env.DUSK_DIST ? "build" : "dist"}=${process.env.DUSK_DIST || new URL("../../dist", import.meta.url).pathname}`)
  .split(",").map((b) => b.split("=")).map(([name, dist]) => ({ name, dist: path.resolve(dist) }));
// env.mjs reads DUSK_DIST when loaded: one instance of it per build.
for (const b of builds) {
  process.env.DUSK_DIST = b.dist;
  const { launch } = await import(`../e2e/env.mjs?build=${encodeURIComponent(b.name)}`);
  b.env = await launch();
}

const snapshot = (ext, tabId) => ext.evaluate(async ({ tabId, rpc }) => {
  const t0 = performance.now();
  const r = await chrome.runtime.sendMessage({ type: "tab_rpc", tab_id: tabId, rpc });
  if (r?.type !== "content" || r.response.type !== "text_snapshot") throw new Error(JSON.stringify(r));
  const s = r.response;
  return { ms: performance.now() - t0, tokens: s.tokens, total: s.total_tokens, sections: s.sections.length, outline: s.outline?.length ?? 0, starts: (s.block ?? "").slice(0, 40).replace(/\n/g, " ⏎ ") };
}, { tabId, rpc: RPC });
// The tab's main-thread CPU time so far, ms.
const cpu = async (s) => (await s.cdp.send("Performance.getMetrics")).metrics.find((m) => m.name === "TaskDuration").value * 1000;
const timed = async (s) => {
  const c0 = await cpu(s), r = await snapshot(s.ext, s.tabId);
  return { ...r, cpu: (await cpu(s)) - c0 };
};
const at = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))];
const rows = [];
for (const [name, p] of PAGES) {
  const state = builds.map(() => ({ firsts: [], warm: [], firstCpu: [], warmCpu: [] }));
  // A new tab's first read (nothing compiled yet in its renderer), then warm reads in the last one.
  for (let i = 0; i < NEW_TABS; i++) {
    for (const [k, b] of builds.entries()) {
      const s = state[k], url = `${b.env.base}${p}`;
      s.ext = await b.env.extPage();
      if (s.page) await s.page.close();
      s.page = await b.env.open(url);
      s.tabId = await b.env.tabIdFor(url);
      s.cdp = await b.env.ctx.newCDPSession(s.page);
      await s.cdp.send("Performance.enable", { timeDomain: "threadTicks" });
      await s.page.waitForTimeout(300);
      const r = await timed(s);
      s.firsts.push(r.ms);
      s.firstCpu.push(r.cpu);
      s.shape = r;
    }
  }
  for (let i = 0; i < RUNS; i++)
    for (const s of state) {
      // GC=1: the tab's garbage collected before each warm read, so none lands in one.
      if (process.env.GC === "1") await s.cdp.send("HeapProfiler.collectGarbage");
      const r = await timed(s);
      s.warm.push(r.ms), s.warmCpu.push(r.cpu);
    }
  for (const [k, b] of builds.entries()) {
    const s = state[k];
    const elements = await s.page.evaluate(() => document.getElementsByTagName("*").length);
    await s.page.close();
    rows.push({
      ...(builds.length > 1 ? { build: b.name } : {}),
      page: `${name} (${elements} el.)`,
      "new tab median / p90 ms": `${at(s.firsts, 0.5).toFixed(1)} / ${at(s.firsts, 0.9).toFixed(1)}`,
      "warm median / p90 ms": `${at(s.warm, 0.5).toFixed(1)} / ${at(s.warm, 0.9).toFixed(1)}`,
      "tab CPU new tab / warm median ms": `${at(s.firstCpu, 0.5).toFixed(1)} / ${at(s.warmCpu, 0.5).toFixed(1)}`,
      "snapshot tokens (of page)": `${s.shape.tokens} (${s.shape.total}), ${s.shape.sections} sections, ${s.shape.outline} outline lines`,
      "page block starts": s.shape.starts,
    });
  }
}
for (const b of builds) await b.env.close();
console.table(rows);
for (const b of builds) {
  const script = readFileSync(path.join(b.dist, "content.js"));
  console.log(`${b.name} content.js: ${script.length} bytes, ${gzipSync(script, { level: 9 }).length} gzipped`);
}
