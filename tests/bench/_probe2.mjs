import { launch } from "../e2e/env.mjs";
import { copyFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os"; import path from "node:path";
const peer = mkdtempSync(path.join(tmpdir(), "dr-"));
copyFileSync("node_modules/darkreader/darkreader.js", path.join(peer, "darkreader.js"));
writeFileSync(path.join(peer, "enable.js"), "performance.mark('dr-start');DarkReader.enable({ brightness: 100, contrast: 90, sepia: 10 });performance.mark('dr-end');\n");
writeFileSync(path.join(peer, "manifest.json"), JSON.stringify({ manifest_version: 3, name: "DRB", version: "1.0", content_scripts: [{ matches: ["<all_urls>"], js: ["darkreader.js", "enable.js"], run_at: "document_start", all_frames: true, match_about_blank: true }] }));
const env = await launch({ extensions: [peer] });
const admin = await env.ctx.newPage(); await admin.goto("chrome://extensions");
const peerId = await admin.evaluate(async () => (await chrome.management.getAll()).find((e) => e.name === "DRB").id);
const enable = (id, on) => admin.evaluate(async ([id, on]) => chrome.management.setEnabled(id, on), [id, on]);
async function run(label) {
  const rows = [];
  for (let i = 0; i < 8; i++) {
    const page = await env.ctx.newPage();
    await page.goto(`${env.base}/bench/small.html`, { waitUntil: "load" });
    await page.waitForTimeout(300);
    rows.push(await page.evaluate(() => { const n = performance.getEntriesByType("navigation")[0]; const m = Object.fromEntries(performance.getEntriesByType("mark").map((x) => [x.name, x.startTime.toFixed(1)])); return { resp: n.responseEnd.toFixed(1), domInt: n.domInteractive.toFixed(1), dcl: n.domContentLoadedEventStart.toFixed(1), dclEnd: n.domContentLoadedEventEnd.toFixed(1), load: n.loadEventStart.toFixed(1), fp: performance.getEntriesByType("paint").map(p=>p.startTime.toFixed(1)).join("/"), ...m }; }));
    await page.close();
  }
  console.log(label); console.table(rows.slice(1));
}
await enable(env.extId, false); await enable(peerId, false); await run("none");
await enable(peerId, true); await run("DR");
await enable(peerId, false); await enable(env.extId, true); await new Promise(r => setTimeout(r, 1000));
await env.sendToWorker({ type: "dark_set_auto", on: true }); await new Promise(r => setTimeout(r, 500));
await run("Dusk on");
await env.sendToWorker({ type: "dark_set_auto", on: false });
await env.close();
