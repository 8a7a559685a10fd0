// Benchmark (not a test): how long what the closed popup leaves stays in the extension's process.
// The browser is started (restarted once: no first-run page), dark mode's "All sites" switch is
// flipped in the popup as a user does (popup_switch.mjs), the popup closed, and the extension
// process's PSS and USS read every STEP_MS (5 s) for FOR_MS (60 s). No tab is open meanwhile.
// POPUP=0: the same readings with the popup never opened.
// The worker is garbage-collected before each reading.
// Usage: [POPUP=0] [PW_POPUP=1] [STEP_MS=5000] [FOR_MS=60000] node tests/bench/popup_drain.mjs
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { launch } from "../e2e/env.mjs";
import { startFixtureServer } from "../e2e/fixture-server.mjs";
import { setAllSites } from "./popup_switch.mjs";

const STEP_MS = Number(process.env.STEP_MS ?? 5000);
const FOR_MS = Number(process.env.FOR_MS ?? 60_000);
const profile = mkdtempSync(path.join(tmpdir(), "dusk-drain-"));
await (await launch({ profile })).close();
const env = await launch({ profile });
await env.ctx.route(/^(https?|wss?):\/\/(?!(127\.0\.0\.1|[a-z0-9-]+\.duckdns\.org)[:/])/, (r) => r.abort());
const corpus = await startFixtureServer("corpus");

function extensionPid() {
  const all = readdirSync("/proc").filter((d) => /^\d+$/.test(d)).map((pid) => {
    try { return { pid, cmd: readFileSync(`/proc/${pid}/cmdline`, "utf8"), ppid: readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")[1] }; } catch { return null; }
  }).filter(Boolean);
  const browser = all.find((p) => p.cmd.includes(`--user-data-dir=${profile}`) && !p.cmd.includes("--type="));
  const mine = new Set([browser.pid]);
  for (let grew = true; grew;) { grew = false; for (const p of all) if (!mine.has(p.pid) && mine.has(p.ppid)) { mine.add(p.pid); grew = true; } }
  return all.find((p) => mine.has(p.pid) && p.cmd.includes("--extension-process"))?.pid;
}
function rollup(pid) {
  const r = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
  const kb = (k) => Number(r.match(new RegExp(`^${k}:\\s+(\\d+)`, "m"))?.[1] ?? 0) / 1024;
  return { pss: kb("Pss"), uss: kb("Private_Clean") + kb("Private_Dirty") };
}

/** Garbage-collects the service worker, as the memory benches do before they read. */
async function gcWorker() {
  const cdp = await env.ctx.browser().newBrowserCDPSession();
  const { targetInfos } = await cdp.send("Target.getTargets");
  const sw = targetInfos.find((t) => t.type === "service_worker" && t.url === env.extUrl("worker.js"));
  if (sw) {
    const { sessionId } = await cdp.send("Target.attachToTarget", { targetId: sw.targetId, flatten: false });
    await cdp.send("Target.sendMessageToTarget", { sessionId, message: JSON.stringify({ id: 1, method: "HeapProfiler.collectGarbage" }) });
    await new Promise((r) => setTimeout(r, 300));
    await cdp.send("Target.detachFromTarget", { sessionId }).catch(() => {});
  }
  await cdp.detach();
}

if (process.env.POPUP !== "0") await setAllSites(env, new URL(corpus.url).port, true);
const closed = Date.now();
const rows = [];
for (let t = 0; t <= FOR_MS; t += STEP_MS) {
  await new Promise((r) => setTimeout(r, Math.max(0, closed + t - Date.now())));
  await gcWorker();
  const m = rollup(extensionPid());
  rows.push(`${(t / 1000).toFixed(0).padStart(3)} s  PSS ${m.pss.toFixed(1)}  USS ${m.uss.toFixed(1)}`);
}
console.log(rows.join("\n"));
await env.close();
await corpus.close();
rmSync(profile, { recursive: true, force: true });
