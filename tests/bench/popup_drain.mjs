// Benchmark (not a test): how long what the closed popup leaves stays in the extension's process.
// The browser is started (restarted once: no first-run page), dark mode's "All sites" switch is
// flipped in the popup as a user does (popup_switch.mjs), the popup closed, and the extension
// process's PSS and USS read every STEP_MS (5 s) for FOR_MS (60 s). No tab is open meanwhile.
// POPUP=0: the same readings with the popup never opened.
// The worker is garbage-collected before each reading.
// Usage: [POPUP=0] [PW_POPUP=1] [STEP_MS=5000] [FOR_MS=60000] node tests/bench/popup_drain.mjs
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { launch } from "../e2e/env.mjs";
import { startFixtureServer } from "../e2e/fixture-server.mjs";
import { extensionPid, gcWorker, rollupOf } from "./chromium_processes.mjs";
import { setAllSites } from "./popup_switch.mjs";

const STEP_MS = Number(process.env.STEP_MS ?? 5000);
const FOR_MS = Number(process.env.FOR_MS ?? 60_000);
const profile = mkdtempSync(path.join(tmpdir(), "dusk-drain-"));
await (await launch({ profile })).close();
const env = await launch({ profile });
await env.ctx.route(/^(https?|wss?):\/\/(?!(127\.0\.0\.1|[a-z0-9-]+\.duckdns\.org)[:/])/, (r) => r.abort());
const corpus = await startFixtureServer("corpus");

if (process.env.POPUP !== "0") await setAllSites(env, new URL(corpus.url).port, true);
const closed = Date.now();
const rows = [];
for (let t = 0; t <= FOR_MS; t += STEP_MS) {
  await new Promise((r) => setTimeout(r, Math.max(0, closed + t - Date.now())));
  await gcWorker(env);
  const m = rollupOf(extensionPid(profile));
  rows.push(`${(t / 1000).toFixed(0).padStart(3)} s  PSS ${m.pss.toFixed(1)}  USS ${m.uss.toFixed(1)}`);
}
console.log(rows.join("\n"));
await env.close();
await corpus.close();
rmSync(profile, { recursive: true, force: true });
