// Benchmark (not a test): a new tab's first chat read, what the always-on script pays for it with
// nothing compiled yet, without the browser's messaging around it. Each build's content.js is run
// in a fresh isolated world of one loaded page (its text made unique, so V8 compiles it afresh, as
// in a new tab's renderer), with chrome.runtime stubbed; then its page_text listener is called once
// and again. The page's main-thread CPU for each (thread ticks, CDP Performance), median over N
// worlds, builds in turn. SAME=1 loads an already compiled copy first (same text, another world):
// the first read then pays no compiling, so the difference between the two runs is the compiling.
// Run: node tests/bench/first_read_cold.mjs name=<dist>/content.js ... (N=25, PAGE=/pages/…)
import { readFileSync } from "node:fs";
import { chromium } from "playwright-core";
import { startFixtureServer } from "../e2e/fixture-server.mjs";

const builds = process.argv.slice(2).map((a) => a.split("=")).map(([name, file]) => ({ name, code: readFileSync(file, "utf8") }));
const N = Number(process.env.N || 25);
const PAGE = process.env.PAGE || "/pages/agent/hidden-text.html";
// What the worker asks for one tab (content_rpc.rs page_blocks at snapshot_chars(12,000)); a build
// from before the measure reads the page's text in order for it.
const READ = `{ type: "page_text", blocks: true, as_text: true, max_chars: 48000, headings: "h1,h2,h3,h4,h5,h6,[role=heading]" }`;
const STUB = `globalThis.chrome = { runtime: { id: "dusk", getManifest: () => ({}), onMessage: { addListener(f) { globalThis.duskListener = f; } }, onConnect: { addListener() {} } } };`;
const CALL = `(() => { let r; globalThis.duskListener(${READ}, { id: "dusk" }, (x) => (r = x)); return (typeof r === "string" ? r : JSON.stringify(r)).length; })()`;

const server = await startFixtureServer();
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium", headless: true, args: ["--disable-gpu"] });
const page = await browser.newPage();
await page.goto(`${server.url}${PAGE}`, { waitUntil: "load" });
await page.waitForTimeout(300);
const cdp = await page.context().newCDPSession(page);
await cdp.send("Performance.enable", { timeDomain: "threadTicks" });
const frameId = (await cdp.send("Page.getFrameTree")).frameTree.frame.id;
const cpu = async () => (await cdp.send("Performance.getMetrics")).metrics.find((m) => m.name === "TaskDuration").value * 1000;
const run = async (world, expression) => {
  const r = await cdp.send("Runtime.evaluate", { expression, contextId: world, returnByValue: true });
  if (r.exceptionDetails) throw new Error(r.exceptionDetails.exception?.description ?? r.exceptionDetails.text);
  return r.result.value;
};
const timed = async (world, expression) => { const c0 = await cpu(); const value = await run(world, expression); return [(await cpu()) - c0, value]; };
const newWorld = async (name) => {
  const { executionContextId } = await cdp.send("Page.createIsolatedWorld", { frameId, worldName: name });
  await run(executionContextId, STUB);
  return executionContextId;
};
const out = Object.fromEntries(builds.map((b) => [b.name, { load: [], first: [], second: [] }]));
for (let i = 0; i < N; i++) {
  for (const b of builds) {
    const source = process.env.SAME === "1" ? `${b.code}\n/* ${i} */` : `${b.code}\n/* ${i} ${Math.random()} */`;
    if (process.env.SAME === "1") { const w = await newWorld(`${b.name}-${i}-compiled`); await run(w, source); await run(w, CALL); }
    const world = await newWorld(`${b.name}-${i}`);
    const [load] = await timed(world, source);
    const [first, chars] = await timed(world, CALL);
    const [second] = await timed(world, CALL);
    Object.assign(out[b.name], { chars });
    out[b.name].load.push(load), out[b.name].first.push(first), out[b.name].second.push(second);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.table(Object.fromEntries(Object.entries(out).map(([name, o]) => [name, {
  "load ms": +median(o.load).toFixed(2), "first read ms": +median(o.first).toFixed(2), "second read ms": +median(o.second).toFixed(2), "reply chars": o.chars,
}])));
await browser.close();
server.close?.();
