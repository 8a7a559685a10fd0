// Benchmark (not a test): what dark mode costs in memory. Ten corpus pages, each on a site of its
// own (so each tab has a renderer process of its own), opened with no theme (Dusk loaded, dark
// mode off), with Dusk's dark mode on, and with Dark Reader's npm build (Dynamic mode, injected at
// document start). Dark mode is switched as a user does: the popup's "All sites" switch, the popup
// then closed; no options page or side panel is ever open. Per process, the proportional set size
// (PSS, /proc/<pid>/smaps_rollup) once the pages settled (SETTLE_MS, 10 s: a repainted page's old
// tiles linger in the compositor's pool for a few seconds) and were garbage-collected: the tabs'
// renderers, Dusk's extension process (its service worker, checked alive), and every utility process
// by sub-type, with the second after launch it started (Chrome starts the on-device model service
// by itself about 3 minutes after launch to rate the device, whatever the extensions do). Then the
// same per page: a page's renderers are those that go when it closes.
// DUMP=1: also the extension process's allocators (memory-infra) at each arm's mark, on stderr; the
// trace leaves Chrome's tracing buffer (about 5 MB of shared memory) mapped in the later arms' processes.
// Usage: [RUNS=3] [SETTLE_MS=10000] [ONLY=bbc-1,adminlte] [DUMP=1] node tests/bench/dark_memory.mjs   (build dist/ first with ./build.sh)
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launch } from "../e2e/env.mjs";
import { startFixtureServer } from "../e2e/fixture-server.mjs";
import { gcWorker, processesOf } from "./chromium_processes.mjs";
import { allocatorDump } from "./memory_dump.mjs";
import { setAllSites } from "./popup_switch.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const darkreader = readFileSync(path.join(root, "node_modules/darkreader/darkreader.js"), "utf8");
const RUNS = Number(process.env.RUNS ?? 3);
const SETTLE_MS = Number(process.env.SETTLE_MS ?? 10_000);
const ALL_PAGES = [
  "python-docs/python3.11-doc/html/library/stdtypes.html",
  "git-docs/git-doc/user-manual.html",
  "sphinx-docs/sphinx-doc/html/usage/quickstart.html",
  "node-docs/nodejs/api/fs.html",
  "readability/bbc-1/index.html",
  "readability/wikipedia/index.html",
  "readability/mozilla-1/index.html",
  "rust-docs/rust-doc/html/std/vec/struct.Vec.html",
  "postgres-docs/postgresql-doc-15/html/functions-info.html",
  "apps/adminlte/index3.html",
];
// ONLY: a comma-separated list of substrings to keep some of the pages.
const PAGES = process.env.ONLY ? ALL_PAGES.filter((p) => process.env.ONLY.split(",").some((s) => p.includes(s))) : ALL_PAGES;
const median = (xs) => { const v = [...xs].sort((a, b) => a - b); return v[Math.floor(v.length / 2)]; };
const DR_START = `
{ const go = () => { DarkReader.setFetchMethod(window.fetch); DarkReader.enable({ brightness: 100, contrast: 100, sepia: 0 }); };
  if (document.documentElement) go();
  else new MutationObserver((_, o) => { if (document.documentElement) { o.disconnect(); go(); } }).observe(document, { childList: true }); }`;

const profile = mkdtempSync(path.join(tmpdir(), "dusk-memory-"));
const launched = Date.now();
const env = await launch({ profile });
await env.ctx.route(/^(https?|wss?):\/\/(?!(127\.0\.0\.1|[a-z0-9-]+\.duckdns\.org)[:/])/, (r) => r.abort());
const corpus = await startFixtureServer("corpus");
const port = new URL(corpus.url).port;
const urls = PAGES.map((p, i) => `http://site${i}.duckdns.org:${port}/${p}`);

/** Each utility process's sub-type and the second after launch it was first seen, and the arm then running. */
const started = new Map();
let running = "start";
const watch = setInterval(() => {
  for (const p of processesOf(profile)) if (p.kind.startsWith("utility:") && !started.has(p.pid)) started.set(p.pid, { kind: p.kind.slice(8), at: (Date.now() - launched) / 1000, arm: running });
}, 1000);


async function arm(name) {
  running = name;
  const pages = [];
  for (const url of urls) {
    const page = await env.ctx.newPage();
    if (name === "dr") await page.addInitScript(darkreader + DR_START);
    await page.goto(url, { waitUntil: "load" }).catch(() => {});
    pages.push(page);
  }
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  for (const page of pages) {
    const cdp = await env.ctx.newCDPSession(page);
    await cdp.send("HeapProfiler.collectGarbage").catch(() => {});
    await cdp.detach();
  }
  const workerAlive = await gcWorker(env);
  await new Promise((r) => setTimeout(r, 1000));
  const procs = processesOf(profile);
  // DUMP=1: the extension process's memory-infra dump by allocator, as read at this mark.
  if (process.env.DUMP === "1") {
    const dump = (await allocatorDump(await env.ctx.browser().newBrowserCDPSession()))[procs.find((p) => p.kind === "extension")?.pid] ?? {};
    const keys = Object.keys(dump).filter((k) => k.split("/").length <= 3 && dump[k] > 200_000 && !k.startsWith("shared_memory/") && !k.includes("/allocated_objects"));
    console.error(`${name}: extension process ${keys.sort((x, y) => dump[y] - dump[x]).map((k) => `${k} ${(dump[k] / 1048576).toFixed(2)}`).join(", ")}`);
  }
  // Each page's renderers are those that go when it closes (spare renderers and Chrome's own UI stay).
  const alive = () => new Set(processesOf(profile).map((p) => p.pid));
  const perPage = [];
  for (const page of pages) {
    const before = alive();
    await page.close();
    let gone = [];
    for (const until = Date.now() + 3000; !gone.length && Date.now() < until;) {
      await new Promise((r) => setTimeout(r, 100));
      const now = alive();
      gone = procs.filter((p) => p.kind === "tab" && before.has(p.pid) && !now.has(p.pid));
    }
    perPage.push({ pss: gone.reduce((a, p) => a + p.pss, 0), uss: gone.reduce((a, p) => a + p.uss, 0) });
  }
  await new Promise((r) => setTimeout(r, 1500));
  const left = alive();
  for (const p of procs) if (p.kind === "tab" && left.has(p.pid)) p.kind = "other renderer";
  const sum = (kind, key = "pss") => procs.filter((p) => p.kind === kind).reduce((a, p) => a + p[key], 0);
  const utility = {};
  for (const p of procs.filter((p) => p.kind.startsWith("utility:"))) utility[p.kind.slice(8)] = (utility[p.kind.slice(8)] ?? 0) + p.pss;
  return { perPage, tabs: sum("tab"), tabsUss: sum("tab", "uss"), extensionUss: sum("extension", "uss"), tabCount: procs.filter((p) => p.kind === "tab").length, extension: sum("extension"), extensionCount: procs.filter((p) => p.kind === "extension").length, workerAlive, utility };
}

// Switched as a user does (popup_switch.mjs), then a moment for the worker to apply it.
const setAuto = async (on) => {
  await setAllSites(env, port, on);
  await new Promise((r) => setTimeout(r, 500));
};
const ARMS = [["none", "no theme (Dusk, dark mode off)", false], ["dusk", "Dusk, dark mode on", true], ["dr", "Dark Reader (npm build)", false]];
const samples = Object.fromEntries(ARMS.map(([k]) => [k, []]));
for (let r = 0; r < RUNS; r++) {
  for (const [key, , dark] of ARMS) {
    await setAuto(dark);
    samples[key].push(await arm(key));
  }
  console.error(`round ${r + 1} of ${RUNS}`);
}
await setAuto(false);
clearInterval(watch);
await env.close();
await corpus.close();

const f1 = (v) => v.toFixed(1);
const none = median(samples.none.map((s) => s.tabs));
const noneUss = median(samples.none.map((s) => s.tabsUss));
console.log(`MB, ${PAGES.length} tabs (one site each), median of ${RUNS}; PSS, and the private part (USS) in brackets`);
console.log("| arm | tab renderers (sum) | added per tab | extension process (worker alive) | utility processes |");
console.log("|---|---|---|---|---|");
for (const [key, label] of ARMS) {
  const s = samples[key];
  const tabs = median(s.map((x) => x.tabs));
  const tabsUss = median(s.map((x) => x.tabsUss));
  const kinds = [...new Set(s.flatMap((x) => Object.keys(x.utility)))].sort();
  const utility = kinds.map((k) => `${k.replace(/^.*\./, "") || "(none)"} ${f1(median(s.map((x) => x.utility[k] ?? 0)))}`).join(", ");
  const added = key === "none" ? "–" : `${f1((tabs - none) / PAGES.length)} (${f1((tabsUss - noneUss) / PAGES.length)})`;
  const extension = `${f1(median(s.map((x) => x.extension)))} (${f1(median(s.map((x) => x.extensionUss)))}; ${s.map((x) => x.workerAlive ? "yes" : "no").join("/")})`;
  console.log(`| ${label} | ${f1(tabs)} (${f1(tabsUss)}; ${median(s.map((x) => x.tabCount))} processes) | ${added} | ${extension} | ${utility} |`);
}
// Per page: what each page's own renderers hold with no theme, and what each arm adds to it.
const perPage = (key, i, k) => median(samples[key].map((s) => s.perPage[i][k]));
console.log("\nPer page, MB: no theme PSS (USS); added by Dusk and by Dark Reader, PSS (USS)");
console.log("| page | no theme | Dusk adds | Dark Reader adds |");
console.log("|---|---|---|---|");
for (const [i, page] of PAGES.entries()) {
  const added = (key) => `${f1(perPage(key, i, "pss") - perPage("none", i, "pss"))} (${f1(perPage(key, i, "uss") - perPage("none", i, "uss"))})`;
  console.log(`| ${page} | ${f1(perPage("none", i, "pss"))} (${f1(perPage("none", i, "uss"))}) | ${added("dusk")} | ${added("dr")} |`);
}
console.log(`utility processes started: ${[...started.values()].map((u) => `${u.kind.replace(/^.*\./, "")} at ${u.at.toFixed(0)} s (${u.arm})`).join(", ")}`);
