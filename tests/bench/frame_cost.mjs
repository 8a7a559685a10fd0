// Benchmark (not a test): what a page pays for Dusk before Dusk is used on it. A page with 20
// same-origin frames and a single small page, loaded with the extension disabled, with Dusk
// (dark mode off, then on) and with Dark Reader's npm build injected at document_start in every
// frame by a minimal extension's content script (as Dusk's are), all in one Chromium. Median of RUNS loads each: load time, main-thread script time
// (CDP Performance.getMetrics ScriptDuration) and JS heap.
// Usage: [RUNS=9] node tests/bench/frame_cost.mjs   (build dist/ first with ./build.sh)
import { mkdtempSync, writeFileSync, copyFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launch } from "../e2e/env.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const darkreader = path.join(root, "node_modules/darkreader/darkreader.js");
const RUNS = Number(process.env.RUNS ?? 9);
const PAGES = [["20 same-origin frames", "/bench/frames20.html", 20], ["single small page", "/bench/small.html", 0]];
const median = (xs) => { const v = [...xs].sort((a, b) => a - b); return v[Math.floor(v.length / 2)]; };

// Dark Reader's npm build as a content script, in every frame at document_start.
const peer = mkdtempSync(path.join(tmpdir(), "darkreader-ext-"));
copyFileSync(darkreader, path.join(peer, "darkreader.js"));
writeFileSync(path.join(peer, "enable.js"), "DarkReader.enable({ brightness: 100, contrast: 90, sepia: 10 });\n");
writeFileSync(path.join(peer, "manifest.json"), JSON.stringify({
  manifest_version: 3, name: "Dark Reader npm build", version: "1.0",
  content_scripts: [{ matches: ["<all_urls>"], js: ["darkreader.js", "enable.js"], run_at: "document_start", all_frames: true, match_about_blank: true }],
}));

const env = await launch({ extensions: [peer] });
const admin = await env.ctx.newPage();
await admin.goto("chrome://extensions");
const peerId = await admin.evaluate(async () => (await chrome.management.getAll()).find((e) => e.name === "Dark Reader npm build").id);
const enable = (id, on) => admin.evaluate(async ([id, on]) => chrome.management.setEnabled(id, on), [id, on]);
const setEnabled = async (dusk, dr = false) => { await enable(env.extId, dusk); await enable(peerId, dr); };
const setAuto = async (on) => {
  await env.sendToWorker({ type: "dark_set_auto", on });
  // The registration is written after the reply; give it a moment before the next navigation.
  await new Promise((r) => setTimeout(r, 300));
};

async function loadOnce(url) {
  const page = await env.ctx.newPage();
  const cdp = await env.ctx.newCDPSession(page);
  await cdp.send("Performance.enable");
  await page.goto(url, { waitUntil: "load" });
  const load = await page.evaluate(() => performance.getEntriesByType("navigation")[0].loadEventEnd);
  await page.waitForTimeout(400); // work a theme does right after load counts too
  const metrics = Object.fromEntries((await cdp.send("Performance.getMetrics")).metrics.map((m) => [m.name, m.value]));
  await page.close();
  return { load, script: metrics.ScriptDuration * 1000, heap: metrics.JSHeapUsedSize / 1024 };
}

// Setups take turns, a load of each page per turn, so a browser that warms up or slows down over
// the run moves every setup alike. ONLY=on or ONLY=off measures that Dusk setup against no extension.
const only = process.env.ONLY;
const setups = [
  ["no extension", () => setEnabled(false)],
  ["Dark Reader (npm build, dark)", () => setEnabled(false, true)],
  ["Dusk, dark mode off", async () => { await setEnabled(true); await setAuto(false); }],
  ["Dusk, dark mode on", async () => { await setEnabled(true); await setAuto(true); }],
].filter(([label]) => !only || label === "no extension" || label === `Dusk, dark mode ${only}`);
const samples = new Map(setups.map(([label]) => [label, Object.fromEntries(PAGES.map(([name]) => [name, []]))]));
for (let round = 0; round < RUNS; round++) {
  for (const [label, apply] of setups) {
    await apply();
    for (const [name, p] of PAGES) {
      const url = `${env.base}${p}`;
      await loadOnce(url); // warm the HTTP and code caches
      samples.get(label)[name].push(await loadOnce(url));
    }
  }
  console.error(`round ${round + 1} of ${RUNS}`);
}
await setEnabled(true);
await setAuto(false);
const results = setups.map(([label]) => {
  const out = {};
  for (const [name] of PAGES) {
    const runs = samples.get(label)[name];
    out[name] = { load: median(runs.map((r) => r.load)), script: median(runs.map((r) => r.script)), heap: median(runs.map((r) => r.heap)) };
  }
  return [label, out];
});

const base = Object.fromEntries(PAGES.map(([name]) => [name, results[0][1][name]]));
const rows = [];
for (const [label, out] of results) {
  for (const [name, , frames] of PAGES) {
    const r = out[name], b = base[name];
    const added = r.load - b.load;
    rows.push({
      setup: label, page: name,
      "load ms": r.load.toFixed(1),
      "added": label === "no extension" ? "" : `${added >= 0 ? "+" : ""}${added.toFixed(1)} ms (${((added / b.load) * 100).toFixed(0)}%)`,
      "added per frame ms": frames && label !== "no extension" ? (added / (frames + 1)).toFixed(2) : "",
      "script ms": r.script.toFixed(1),
      "added script ms": label === "no extension" ? "" : (r.script - b.script).toFixed(1),
      "heap KB": r.heap.toFixed(0),
      "added heap per frame KB": label === "no extension" ? "" : ((r.heap - b.heap) / (frames + 1)).toFixed(0),
    });
  }
}
console.table(rows);
const off = results.find(([label]) => label === "Dusk, dark mode off")?.[1]["20 same-origin frames"], none = base["20 same-origin frames"];
const perFrame = off && (off.load - none.load) / 21, share = off && (off.load - none.load) / none.load;
if (off) console.log(`Dusk, dark mode off, 20 frames: ${perFrame.toFixed(2)} ms added per frame (target ≤ 1), ${(share * 100).toFixed(1)}% added to the load (target ≤ 10%)`);
await env.close();
