// Benchmark (not a test): the chat's page measure (extension/page_blocks.js) alone, two versions
// side by side in the same page, run in turn, their replies compared as core reads them. Each version is
// bundled into the page's own world (no extension, no message), so only the measure is timed.
// Run: node tests/bench/page_blocks_speed.mjs <before-dir> [runs] [--corpus]
//   <before-dir> holds page_blocks.js, unseen_text.js and unshadowed.js of the other version
//   (e.g. `git show main:extension/page_blocks.js > /tmp/before/page_blocks.js`, and the others).
//   --corpus also checks every page of the extraction corpus for the same reply (timed once).
//   --isolated runs both in an isolated world, as the content script does (its node wrappers cost).
//   "CPU" is the page's main-thread time per measure (thread ticks), which other work on the machine slows less.
import { chromium } from "playwright-core";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startFixtureServer } from "../e2e/fixture-server.mjs";
import { corpus } from "../fixtures/extraction/corpus.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const [beforeDir, runsArg] = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const RUNS = Number(runsArg || 21);
// What the worker asks for one tab (content_rpc.rs page_blocks at snapshot_chars(12,000)).
const MAX = 48000, HEADS = "h1,h2,h3,h4,h5,h6,[role=heading]";
const bundle = (dir) => execFileSync(path.join(root, "node_modules/.bin/esbuild"), [path.join(dir, "page_blocks.js"), "--bundle", "--format=iife", "--minify", "--target=chrome116", "--global-name=duskMeasure"], { encoding: "utf8" });
const versions = [["before", bundle(path.resolve(beforeDir))], ["after", bundle(path.join(root, "extension"))]];
const PAGES = [
  ["python stdtypes", "/corpus/python-docs/python3.11-doc/html/library/stdtypes.html"],
  ["node fs", "/corpus/node-docs/nodejs/api/fs.html"],
  ["wikipedia article", "/corpus/readability/wikipedia/index.html"],
  ["bbc-1 article", "/corpus/readability/bbc-1/index.html"],
  ["text no one can see", "/pages/agent/hidden-text.html"],
];
const isolated = process.argv.includes("--isolated");
const extra = process.argv.includes("--corpus") ? corpus().map((p) => [p.name, `/extraction/${p.name}/${p.page}`, 1]) : [];

// A reply as core reads it: fields left out read as their defaults (page_blocks.rs), keys in one order.
const same = (json) => {
  const r = JSON.parse(json), sorted = (o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : 1)));
  r.boxes = r.boxes?.map((b) => sorted({ name: "", fixed: false, ...b }));
  r.blocks = r.blocks?.map((b) => sorted({ link_chars: 0, links: 0, labels: [], heading: 0, heads: [], ...b }));
  return JSON.stringify(sorted(r));
};
const server = await startFixtureServer();
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium", headless: true, args: ["--disable-gpu"] });
const ctx = await browser.newContext();
await ctx.route((u) => /^(https?|wss?):$/.test(u.protocol) && !["127.0.0.1", "localhost"].includes(u.hostname), (r) => r.abort());
const rows = [], differ = [];
const at = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))];
for (const [name, p, runs = RUNS] of [...PAGES, ...extra]) {
  const page = await ctx.newPage();
  await page.goto(`${server.url}${p}`, { waitUntil: "load" });
  await page.waitForTimeout(300);
  // Each version under its own name; the bundle sets globalThis.duskMeasure.
  const install = ({ v, code }) => { (0, eval)(code); globalThis[`measure_${v}`] = globalThis.duskMeasure.pageBlocks; };
  const measure = ({ v, MAX, HEADS }) => { const t = performance.now(); const r = globalThis[`measure_${v}`](MAX, HEADS); return { ms: performance.now() - t, json: JSON.stringify(r) }; };
  let evaluate = (f, arg) => page.evaluate(f, arg);
  const cdp = await ctx.newCDPSession(page);
  await cdp.send("Performance.enable", { timeDomain: "threadTicks" });
  const cpu = async () => (await cdp.send("Performance.getMetrics")).metrics.find((m) => m.name === "TaskDuration").value * 1000;
  if (isolated) {
    const { frameTree } = await cdp.send("Page.getFrameTree");
    const { executionContextId } = await cdp.send("Page.createIsolatedWorld", { frameId: frameTree.frame.id, worldName: "measure" });
    evaluate = async (f, arg) => (await cdp.send("Runtime.evaluate", { expression: `(${f})(${JSON.stringify(arg)})`, contextId: executionContextId, returnByValue: true })).result.value;
  }
  for (const [v, code] of versions) await evaluate(install, { v, code });
  const ms = Object.fromEntries(versions.map(([v]) => [v, []])), cpus = Object.fromEntries(versions.map(([v]) => [v, []])), out = {};
  let bytes = 0;
  for (let i = 0; i < runs + 2; i++) {
    for (const [v] of versions) {
      const c0 = await cpu(), r = await evaluate(measure, { v, MAX, HEADS }), c = (await cpu()) - c0;
      if (i >= 2 || runs === 1) ms[v].push(r.ms), cpus[v].push(c);
      out[v] = same(r.json);
      if (v === "after") bytes = r.json.length;
    }
  }
  if (out.before !== out.after) differ.push(name);
  const [b, a] = [ms.before, ms.after];
  if (runs > 1 || process.env.ALL) rows.push({ page: name, "before min / median ms": `${at(b, 0).toFixed(1)} / ${at(b, 0.5).toFixed(1)}`, "after min / median ms": `${at(a, 0).toFixed(1)} / ${at(a, 0.5).toFixed(1)}`, "after ÷ before (median)": `${(at(a, 0.5) / at(b, 0.5)).toFixed(2)}×`, "CPU before / after median ms": `${at(cpus.before, 0.5).toFixed(1)} / ${at(cpus.after, 0.5).toFixed(1)}`, same: out.before === out.after ? "yes" : "NO", "reply KB": (bytes / 1024).toFixed(0) });
  await page.close();
}
await browser.close();
server.close?.();
console.table(rows);
console.log(differ.length ? `replies differ on ${differ.length} page(s): ${differ.join(", ")}` : `same replies on all ${PAGES.length + extra.length} pages`);
process.exit(0);
