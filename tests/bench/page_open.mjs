// Benchmark (not a test): how long each of Dusk's own pages takes, from the navigation's start,
// to show its first control (a button, tab, switch, field) and to be ready (its last section).
// Prints the median and the 90th percentile. Run: node tests/bench/page_open.mjs [runs]
import { launch } from "../e2e/env.mjs";

const runs = Number(process.argv[2] || 15);
const env = await launch();
// Timed inside the page: the first control's insertion, then the next frame (it is on screen).
await env.ctx.addInitScript(() => {
  if (location.protocol !== "chrome-extension:") return;
  const controls = "button, [role=tab], [role=switch], input, select, textarea";
  const seen = () => {
    if (window.__firstControl || !document.querySelector(controls)) return;
    window.__firstControl = -1;
    requestAnimationFrame(() => { window.__firstControl = performance.now(); });
  };
  new MutationObserver(seen).observe(document, { childList: true, subtree: true });
});
const site = await env.open(`${env.base}/pages/simple.html`);
const tab = await env.tabIdFor(site.url());
const pages = [
  ["side panel", env.extUrl("sidepanel.html"), "#agent-task"],
  ["popup", env.extUrl(`popup.html?tab=${tab}`), "#dark-mode"],
  ["options", env.extUrl("options.html"), "#data-options"],
  ["welcome", env.extUrl("welcome.html"), "#welcome-settings"],
];
const stat = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)], p90: s[Math.min(s.length - 1, Math.floor(s.length * 0.9))] };
};
const page = await env.ctx.newPage();
for (const [name, url, ready] of pages) {
  const first = [], done = [];
  for (let i = 0; i < runs + 2; i++) {
    await page.goto("about:blank");
    await page.goto(url);
    await page.waitForFunction(() => window.__firstControl > 0);
    await page.waitForSelector(ready, { state: "attached" });
    const [f, d] = await page.evaluate(() => [window.__firstControl, performance.now()]);
    if (i < 2) continue; // warm-up: the first opens compile the wasm
    first.push(f);
    done.push(d);
  }
  const a = stat(first), b = stat(done);
  console.log(`${name.padEnd(10)} first control ${a.median.toFixed(0)} ms (p90 ${a.p90.toFixed(0)})   ready ${b.median.toFixed(0)} ms (p90 ${b.p90.toFixed(0)})`);
}
await env.close();
