// Benchmark (not a test): what dark mode costs in memory. Ten corpus pages, each on a site of its
// own (so each tab has a renderer process of its own), opened with no theme (Dusk loaded, dark
// mode off), with Dusk's dark mode on, and with Dark Reader's npm build (Dynamic mode, injected at
// document start). Per process, the proportional set size (PSS, /proc/<pid>/smaps_rollup) after
// the pages settled and were garbage-collected: the tabs' renderers, Dusk's extension process
// (its service worker), and every utility process by sub-type (the on-device model service among them).
// Usage: [RUNS=3] node tests/bench/dark_memory.mjs   (build dist/ first with ./build.sh)
import { mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launch } from "../e2e/env.mjs";
import { startFixtureServer } from "../e2e/fixture-server.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const darkreader = readFileSync(path.join(root, "node_modules/darkreader/darkreader.js"), "utf8");
const RUNS = Number(process.env.RUNS ?? 3);
const PAGES = [
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
const median = (xs) => { const v = [...xs].sort((a, b) => a - b); return v[Math.floor(v.length / 2)]; };
const DR_START = `
{ const go = () => { DarkReader.setFetchMethod(window.fetch); DarkReader.enable({ brightness: 100, contrast: 100, sepia: 0 }); };
  if (document.documentElement) go();
  else new MutationObserver((_, o) => { if (document.documentElement) { o.disconnect(); go(); } }).observe(document, { childList: true }); }`;

const profile = mkdtempSync(path.join(tmpdir(), "dusk-memory-"));
const env = await launch({ profile });
await env.ctx.route(/^(https?|wss?):\/\/(?!(127\.0\.0\.1|[a-z0-9-]+\.duckdns\.org)[:/])/, (r) => r.abort());
const corpus = await startFixtureServer("corpus");
const port = new URL(corpus.url).port;
const urls = PAGES.map((p, i) => `http://site${i}.duckdns.org:${port}/${p}`);

/** Chromium's processes: the browser (started with this profile) and its descendants. */
function processes() {
  const all = readdirSync("/proc").filter((d) => /^\d+$/.test(d)).map((pid) => {
    try {
      // Zygote children rewrite their command line into one space-separated string.
      const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8").split(/\0| (?=--)/);
      const ppid = Number(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")[1]);
      return { pid: Number(pid), ppid, cmd };
    } catch { return null; }
  }).filter(Boolean);
  const browser = all.find((p) => p.cmd.some((a) => a === `--user-data-dir=${profile}`) && !p.cmd.some((a) => a.startsWith("--type=")));
  const mine = new Set([browser.pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of all) if (!mine.has(p.pid) && mine.has(p.ppid)) { mine.add(p.pid); grew = true; }
  }
  return all.filter((p) => mine.has(p.pid)).map((p) => {
    const arg = (k) => p.cmd.find((a) => a.startsWith(`--${k}=`))?.slice(k.length + 3) ?? "";
    let pss = 0;
    try { pss = Number(readFileSync(`/proc/${p.pid}/smaps_rollup`, "utf8").match(/^Pss:\s+(\d+)/m)[1]) / 1024; } catch {}
    const type = arg("type") || "browser";
    const kind = type === "renderer" ? (p.cmd.includes("--extension-process") ? "extension" : "tab") : type === "utility" ? `utility:${arg("utility-sub-type")}` : type;
    return { pid: p.pid, kind, pss };
  });
}

async function arm(name) {
  const pages = [];
  for (const url of urls) {
    const page = await env.ctx.newPage();
    if (name === "dr") await page.addInitScript(darkreader + DR_START);
    await page.goto(url, { waitUntil: "load" }).catch(() => {});
    pages.push(page);
  }
  await new Promise((r) => setTimeout(r, 3000));
  for (const page of pages) {
    const cdp = await env.ctx.newCDPSession(page);
    await cdp.send("HeapProfiler.collectGarbage").catch(() => {});
    await cdp.detach();
  }
  await new Promise((r) => setTimeout(r, 1000));
  const procs = processes();
  for (const page of pages) await page.close();
  await new Promise((r) => setTimeout(r, 1500));
  const sum = (kind) => procs.filter((p) => p.kind === kind).reduce((a, p) => a + p.pss, 0);
  const utility = {};
  for (const p of procs.filter((p) => p.kind.startsWith("utility:"))) utility[p.kind.slice(8)] = (utility[p.kind.slice(8)] ?? 0) + p.pss;
  return { tabs: sum("tab"), tabCount: procs.filter((p) => p.kind === "tab").length, extension: sum("extension"), utility };
}

// Told from a page opened for the purpose and closed at once: the options page would stay in the
// extension's process (and ask for the on-device model's availability).
const setAuto = async (on) => {
  const page = await env.ctx.newPage();
  await page.goto(env.extUrl("welcome.html"));
  await page.evaluate((m) => chrome.runtime.sendMessage(m), { type: "dark_set_auto", on });
  await page.close();
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
await env.close();
await corpus.close();

const f1 = (v) => v.toFixed(1);
const none = median(samples.none.map((s) => s.tabs));
console.log(`PSS in MB, ${PAGES.length} tabs (one site each), median of ${RUNS}`);
console.log("| arm | tab renderers (sum) | added per tab | extension process | utility processes |");
console.log("|---|---|---|---|---|");
for (const [key, label] of ARMS) {
  const s = samples[key];
  const tabs = median(s.map((x) => x.tabs));
  const kinds = [...new Set(s.flatMap((x) => Object.keys(x.utility)))].sort();
  const utility = kinds.map((k) => `${k.replace(/^.*\./, "") || "(none)"} ${f1(median(s.map((x) => x.utility[k] ?? 0)))}`).join(", ");
  console.log(`| ${label} | ${f1(tabs)} (${median(s.map((x) => x.tabCount))} processes) | ${key === "none" ? "–" : f1((tabs - none) / PAGES.length)} | ${f1(median(s.map((x) => x.extension)))} | ${utility} |`);
}
