// Benchmark (not a test): what the switch-on restyle costs the page's main thread, in CPU time
// (trace thread time, steadier than wall time on a loaded machine), for Dusk's theme and variants.
// Each variant is adopted by the page's own script on a fresh load, with the settle probe running,
// as in dark_mode.mjs's "browser floor". Usage: [N=7] node tests/bench/switch_cpu.mjs [substring]
import { launch } from "../e2e/env.mjs";
import { startFixtureServer } from "../e2e/fixture-server.mjs";
import { installProbe } from "./settle.mjs";

const PAGES = ["git-docs/git-doc/user-manual.html", "readability/mozilla-1/index.html", "readability/wikipedia/index.html"]
  .filter((p) => !process.argv[2] || p.includes(process.argv[2]));
const N = Number(process.env.N ?? 7);
const median = (xs) => { const v = [...xs].sort((a, b) => a - b); return v[Math.floor(v.length / 2)]; };

const env = await launch();
await env.ctx.route(/^(https?|wss?):\/\/(?!127\.0\.0\.1[:/])/, (r) => r.abort());

async function open(url) {
  const page = await env.ctx.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(url, { waitUntil: "load" });
  await page.waitForTimeout(200);
  return page;
}

/** Dusk's document theme for `url`, as the extension builds it. */
async function duskTheme(url) {
  const page = await open(url);
  await env.sendToWorker({ type: "dark_set_site", tab_id: await env.tabIdFor(url), on: true });
  await page.waitForTimeout(1000);
  const css = await page.evaluate(() => document.adoptedStyleSheets.map((s) => [...s.cssRules].map((r) => r.cssText).join("\n")).join("\n"));
  await env.sendToWorker({ type: "dark_set_site", tab_id: await env.tabIdFor(url), on: false });
  await page.close();
  return css;
}

/** Main-thread CPU ms from adopting `css` until the probe saw the last change, and the wall time. */
async function cost(url, css) {
  const page = await open(url);
  await page.evaluate((c) => { window.__sheet = new CSSStyleSheet(); window.__sheet.replaceSync(c); }, css);
  await page.evaluate(installProbe);
  const cdp = await env.ctx.newCDPSession(page);
  const events = [];
  cdp.on("Tracing.dataCollected", (e) => events.push(...e.value));
  const finished = new Promise((r) => cdp.once("Tracing.tracingComplete", r));
  await cdp.send("Tracing.start", { traceConfig: { includedCategories: ["toplevel", "blink.user_timing"] }, transferMode: "ReportEvents" });
  const start = await page.evaluate(() => {
    performance.mark("dusk-bench-adopt");
    const t = performance.timeOrigin + performance.now();
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, window.__sheet];
    return t;
  });
  const done = await page.evaluate(() => window.__settle(500, 8000));
  await cdp.send("Tracing.end");
  await finished;
  await page.close();
  const mark = events.find((e) => e.name === "dusk-bench-adopt");
  const wall = done.last ? done.last - start : 0;
  if (!mark) return { cpu: NaN, wall };
  const end = mark.ts + wall * 1000;
  const cpu = events
    .filter((e) => e.pid === mark.pid && e.tid === mark.tid && e.ph === "X" && e.name === "ThreadControllerImpl::RunTask" && e.ts + e.dur > mark.ts && e.ts < end)
    .reduce((a, e) => a + (e.tdur ?? 0), 0) / 1000;
  return { cpu, wall };
}

console.log("| page | variant | main-thread CPU ms (median) | settle ms (median) |");
console.log("| --- | --- | --- | --- |");
for (const rel of PAGES) {
  const [site, ...rest] = rel.split("/");
  const server = await startFixtureServer(`corpus/${site}`);
  const url = `${server.url}/${rest.join("/")}`;
  const theme = await duskTheme(url);
  const variants = {
    "Dusk's theme": theme,
    "without root color-scheme": theme.replace(/:root\s*\{\s*color-scheme:\s*dark\s*!important;?\s*\}/, ""),
    // The least any dark theme pays: every element's inherited text colour changes.
    "body colour only": "body { color: rgb(204, 204, 204) !important; }",
  };
  const results = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
  for (let i = 0; i < N; i++) for (const [name, css] of Object.entries(variants)) results[name].push(await cost(url, css));
  const name = rest.join("/").replace(/\/index\.html$/, "").replace(/\.html$/, "");
  for (const [variant, runs] of Object.entries(results)) {
    console.log(`| ${name} | ${variant} | ${median(runs.map((r) => r.cpu)).toFixed(1)} | ${median(runs.map((r) => r.wall)).toFixed(1)} |`);
  }
  await server.close();
}
await env.close();
