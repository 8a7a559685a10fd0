// Benchmark (not a test): how often the dark layer's JS functions run on one busy page
// (tests/fixtures/busy) with dark mode on, over DURATION ms: V8's precise coverage call counts.
// Counts a batch's parts (`fire`: batches run; `has_marker`: inline values built in wasm;
// `request`: frames asked for) where a CPU profile's times are too noisy to compare two builds.
// Function names need an unminified bundle (`DUSK_NAMES=1 ./build.sh`, then DUSK_DIST=dist-names).
// Usage: [DUSK_DIST=dir] [DURATION=5000] [FNS=fire,request,…] node tests/bench/layer_calls.mjs page
import { launch } from "../e2e/env.mjs";
const name = process.argv[2] ?? "rules";
const DURATION = Number(process.env.DURATION ?? 5000);
const env = await launch();
const port = new URL(env.base).port;
const themed = `http://busy.duckdns.org:${port}/busy`;
{ const page = await env.open(`${themed}/rules.html`); await env.sendToWorker({ type: "dark_set_site", tab_id: await env.tabIdFor(page.url()), on: true }); await page.close(); }
const page = await env.ctx.newPage();
await page.setViewportSize({ width: 1280, height: 900 });
await page.addInitScript(() => { window.__busyAdded = () => {}; });
const cdp = await env.ctx.newCDPSession(page);
await page.goto(`${themed}/${name}.html`, { waitUntil: "load" });
await page.waitForTimeout(1500);
await cdp.send("Profiler.enable");
await cdp.send("Profiler.startPreciseCoverage", { callCount: true, detailed: true });
await cdp.send("Profiler.takePreciseCoverage");
await page.waitForTimeout(DURATION);
const { result } = await cdp.send("Profiler.takePreciseCoverage");
await env.close();
const want = (process.env.FNS ?? "fire,request,handler,markup_of,has_marker,sheet_marks,sheet_rules").split(",");
for (const s of result) {
  if (!s.url.includes("dark_layer")) continue;
  for (const f of s.functions) if (process.env.FNS === "all" ? f.ranges[0].count > 0 : want.includes(f.functionName)) console.log(`${f.functionName}\t${f.ranges[0].count}`);
}
