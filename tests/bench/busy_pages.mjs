// Benchmark (not a test): dark mode on busy pages (tests/fixtures/busy). Each page runs with no
// theme (Dusk loaded, dark mode off for the site), with Dark Reader's npm build (Dynamic mode,
// injected at document start) and with Dusk (dark mode on), the three arms taking turns in one
// Chromium. Over DURATION ms of the running page: the renderer's main-thread time (CDP
// Performance.getMetrics TaskDuration, and its style recalculation, layout and script parts;
// ThreadTime, the main thread's CPU time, moves less when other processes share the cores),
// long tasks, frames per second, and whether each node the page adds is dark at the first frame
// after it was inserted (checked on the newest nodes while the page runs).
// TRACE=1: then one traced run per page and arm, where the time went (trace_summary.mjs).
// TRACE_DIR=dir: the traced runs' raw traces are written there too (page-arm.json).
// FLOOR=all|known: a fourth arm, the least any theme mirroring the page's new rules from an
// isolated world must do (busy_floor.mjs), with no theme of Dusk's; its added time is printed apart.
// Usage: [RUNS=3] [DURATION=8000] [TRACE=1] [FLOOR=all] node tests/bench/busy_pages.mjs [page[?query],…]   (build dist/ first)
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launch } from "../e2e/env.mjs";
import { summarise } from "./trace_summary.mjs";
import { floorScript } from "./busy_floor.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const darkreader = readFileSync(path.join(root, "node_modules/darkreader/darkreader.js"), "utf8");
const RUNS = Number(process.env.RUNS ?? 3);
const DURATION = Number(process.env.DURATION ?? 8000);
// A page may carry its query: `rules?mounted=2000` is the rules page after 2,000 components.
const PAGES = process.argv[2] ? process.argv[2].split(",") : ["feed", "chat", "dashboard", "rules", "spa"];
const median = (xs) => quantile(xs, 0.5);
// The q-quantile of xs, by its nearest rank (the median of an even count is its upper middle).
const quantile = (xs, q) => { const v = [...xs].sort((a, b) => a - b); return v[Math.min(v.length - 1, Math.floor(v.length * q))]; };

const env = await launch();
const port = new URL(env.base).port;
// Dusk's memory is per site: dark mode is on for one host (mapped to loopback) and off for the other.
const plain = `http://127.0.0.1:${port}/busy`;
const themed = `http://busy.duckdns.org:${port}/busy`;
{
  const page = await env.open(`${themed}/rules.html`);
  const tabId = await env.tabIdFor(page.url());
  await env.sendToWorker({ type: "dark_set_site", tab_id: tabId, on: true });
  await page.close();
}

// Runs in the page before its own scripts: counts frames and long tasks, and checks each node the
// page reports (`busy.added`) at the first frame after the one that follows its insertion.
function probe() {
  const lum = (c) => {
    const m = c.match(/[\d.]+/g);
    if (!m) return null;
    const [r, g, b] = m.slice(0, 3).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return { l: 0.2126 * r + 0.7152 * g + 0.0722 * b, a: m.length > 3 ? Number(m[3]) : 1 };
  };
  const dark = (el) => [el, ...el.querySelectorAll("*")].slice(0, 30).every((e) => {
    const s = getComputedStyle(e);
    const bg = lum(s.backgroundColor), fg = lum(s.color);
    return (!bg || bg.a < 0.5 || bg.l <= 0.06) && (!fg || fg.l >= 0.2);
  });
  const p = (window.__busy = { on: false, frames: 0, long: 0, longMs: 0, checked: 0, dark: 0 });
  const frame = () => { if (p.on) p.frames++; requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
  new PerformanceObserver((list) => { for (const e of list.getEntries()) if (p.on) { p.long++; p.longMs += e.duration; } }).observe({ type: "longtask" });
  window.__busyAdded = (el) => {
    if (!p.on || !el) return;
    requestAnimationFrame(() => requestAnimationFrame(() => { p.checked++; if (dark(el)) p.dark++; }));
  };
}

// As a document_start content script would: once the document has its root element.
const DR_START = `
{ const go = () => { DarkReader.setFetchMethod(window.fetch); DarkReader.enable({ brightness: 100, contrast: 100, sepia: 0 }); };
  if (document.documentElement) go();
  else new MutationObserver((_, o) => { if (document.documentElement) { o.disconnect(); go(); } }).observe(document, { childList: true }); }`;

async function run(arm, name, tracing = false) {
  const page = await env.ctx.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.addInitScript(probe);
  if (arm === "dr") await page.addInitScript(darkreader + DR_START);
  const cdp = await env.ctx.newCDPSession(page);
  // Scripts for a new document run only with the Page domain on.
  if (arm === "floor") await cdp.send("Page.enable");
  if (arm === "floor") await cdp.send("Page.addScriptToEvaluateOnNewDocument", { source: floorScript(process.env.FLOOR), worldName: "floor" });
  await cdp.send("Performance.enable");
  const [file, query] = name.split("?");
  await page.goto(`${arm === "dusk" ? themed : plain}/${file}.html${query ? `?${query}` : ""}`, { waitUntil: "load" });
  await page.waitForTimeout(1500); // the theme is in and settled
  if (tracing) await startTrace(cdp);
  const read = async () => Object.fromEntries((await cdp.send("Performance.getMetrics")).metrics.map((m) => [m.name, m.value]));
  await page.evaluate(() => { window.__busy.on = true; });
  const before = await read();
  await page.waitForTimeout(DURATION);
  const after = await read();
  const p = await page.evaluate(() => { window.__busy.on = false; return window.__busy; });
  const trace = tracing ? await stopTrace(cdp, `${name}-${arm}`) : null;
  await page.close();
  const ms = (k) => (after[k] - before[k]) * 1000;
  return { task: ms("TaskDuration"), cpu: ms("ThreadTime"), style: ms("RecalcStyleDuration"), layout: ms("LayoutDuration"), script: ms("ScriptDuration"), fps: (p.frames * 1000) / DURATION, long: p.long, longMs: p.longMs, dark: p.checked ? p.dark / p.checked : null, trace };
}

async function startTrace(cdp) {
  await cdp.send("Tracing.start", { transferMode: "ReturnAsStream", traceConfig: { includedCategories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "blink.user_timing"] } });
}
async function stopTrace(cdp, label) {
  const done = new Promise((r) => cdp.once("Tracing.tracingComplete", r));
  await cdp.send("Tracing.end");
  const { stream } = await done;
  let out = "";
  for (;;) {
    const chunk = await cdp.send("IO.read", { handle: stream });
    out += chunk.data;
    if (chunk.eof) break;
  }
  const parsed = JSON.parse(out);
  if (process.env.TRACE_DIR) writeFileSync(path.join(process.env.TRACE_DIR, `${label}.json`), out);
  return summarise(parsed.traceEvents ?? parsed);
}

const ARMS = ["none", "dr", "dusk", ...(process.env.FLOOR ? ["floor"] : [])];
const samples = Object.fromEntries(PAGES.map((p) => [p, Object.fromEntries(ARMS.map((a) => [a, []]))]));
for (let r = 0; r < RUNS; r++) {
  // The arms' order turns each round: a drift over the run (the machine, the browser's state)
  // falls on every arm alike.
  const order = ARMS.map((_, i) => ARMS[(i + r) % ARMS.length]);
  for (const name of PAGES) for (const arm of order) samples[name][arm].push(await run(arm, name));
  console.error(`round ${r + 1} of ${RUNS}`);
}
const traced = process.env.TRACE ? Object.fromEntries(await (async () => {
  const out = [];
  for (const name of PAGES) for (const arm of ARMS) out.push([`${name}/${arm}`, (await run(arm, name, true)).trace]);
  return out;
})()) : null;
await env.close();

const f0 = (v) => (v == null ? "–" : Math.round(v).toLocaleString("en"));
const pick = (runs, k) => median(runs.map((x) => x[k]));
console.log(`main-thread ms over ${DURATION / 1000} s, median of ${RUNS}; added: the median over the rounds of the arm's time less no theme's in the same round, with its quartiles over the rounds in brackets`);
console.log("| page | no theme | Dark Reader | Dusk | Dusk added ÷ DR added | Dusk added over no theme | style ms (none / DR / Dusk) | script ms (none / DR / Dusk) | main-thread CPU ms (none / DR / Dusk) | layout ms (none / DR / Dusk) | long tasks (none / DR / Dusk) | fps (none / DR / Dusk) | dark within a frame (DR / Dusk) |");
console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
const json = {};
const floors = [];
for (const name of PAGES) {
  const s = samples[name];
  const t = Object.fromEntries(ARMS.map((a) => [a, pick(s[a], "task")]));
  // Added time paired within a round (the arms ran back to back), then the median of the rounds.
  const paired = (a) => s[a].map((x, i) => x.task - s.none[i].task);
  const added = (a) => median(paired(a));
  // How far the rounds spread: a difference of a few percent within it is noise.
  const spread = (a) => `(${[0.25, 0.75].map((q) => `${Math.round((quantile(paired(a), q) / t.none) * 100)}`).join(" to ")} %)`;
  const dr = added("dr"), dusk = added("dusk");
  const three = (k, d = 0) => ["none", "dr", "dusk"].map((a) => pick(s[a], k).toFixed(d)).join(" / ");
  const share = (a) => { const v = pick(s[a], "dark"); return v == null ? "–" : `${Math.round(v * 100)} %`; };
  json[name] = { ...t, ratio: dusk / dr, over: dusk / t.none };
  console.log(`| ${name} | ${f0(t.none)} | ${f0(t.dr)} | ${f0(t.dusk)} | ${(dusk / dr).toFixed(2)} | ${dusk >= 0 ? "+" : ""}${Math.round((dusk / t.none) * 100)} % ${spread("dusk")} | ${three("style")} | ${three("script")} | ${three("cpu")} | ${three("layout")} | ${three("long")} | ${three("fps", 1)} | ${share("dr")} / ${share("dusk")} |`);
  if (s.floor) {
    const fl = added("floor");
    floors.push(`| ${name} | ${f0(t.floor)} | ${(fl / dr).toFixed(2)} | ${fl >= 0 ? "+" : ""}${Math.round((fl / t.none) * 100)} % ${spread("floor")} | ${pick(s.floor, "style").toFixed(0)} | ${pick(s.floor, "script").toFixed(0)} | ${pick(s.floor, "cpu").toFixed(0)} | ${share("floor")} |`);
  }
}
if (floors.length) {
  console.log(`\nthe floor (FLOOR=${process.env.FLOOR}: busy_floor.mjs in an isolated world, dark mode off), as above`);
  console.log("| page | floor | floor added ÷ DR added | floor added over no theme | style ms | script ms | main-thread CPU ms | dark within a frame |");
  console.log("|---|---|---|---|---|---|---|---|");
  for (const l of floors) console.log(l);
}
console.error(JSON.stringify(json));
if (traced) {
  console.log(`\none traced run each, ${DURATION / 1000} s: style recalcs (ms, count, elements restyled), forced by script (ms, count), layouts (ms, count; forced), an extension's own script ms, microtask (observer) ms, frame-callback ms`);
  console.log("| page / arm | style ms | recalcs | elements restyled | forced style ms (n) | layout ms (n) | forced layout ms (n) | extension script ms | microtasks ms | frame callbacks ms |");
  console.log("|---|---|---|---|---|---|---|---|---|---|");
  for (const [k, t] of Object.entries(traced)) {
    console.log(`| ${k} | ${t.styleMs} | ${t.styleN} | ${t.restyled.toLocaleString("en")} | ${t.forcedStyleMs} (${t.forcedStyleN}) | ${t.layoutMs} (${t.layoutN}) | ${t.forcedLayoutMs} (${t.forcedLayoutN}) | ${t.extensionScriptMs} | ${t.observerMs} | ${t.frameCallbackMs} |`);
  }
}
