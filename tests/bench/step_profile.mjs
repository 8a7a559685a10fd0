// Benchmark (not a test): where a browser-agent click step's time goes. Runs MiniWoB tasks'
// scripted episodes (tests/e2e/agent_policy.mjs) with the worker's fetch (the model),
// chrome.tabs.sendMessage, chrome.tabs.query and chrome.debugger.sendCommand wrapped to log when
// each started and ended. A turn runs from one model request to the next; in the turns whose tool
// was a click, it prints per kind of call how many there were and their time (median per turn;
// overlapping calls each count in full), and the turn's time past the model's answer.
// Before/after in one go:
//   for d in before dist; do DUSK_DIST=$d node tests/bench/step_profile.mjs [seeds]; done
import { launch } from "../e2e/env.mjs";
import { agentPanel, finish, startRun, stopRun, usePolicy } from "../e2e/agent_panel.mjs";
import { policies } from "../e2e/agent_policy.mjs";

const seeds = Number(process.argv[2] || 3);
const TASKS = ["click-button", "click-dialog", "click-checkboxes", "click-tab-2", "email-inbox-delete"];
const env = await launch();

/** Wraps the worker's chrome calls once; the log is [kind, start, end] in the worker's clock. */
async function wrap() {
  const worker = await env.serviceWorker();
  await worker.evaluate(() => {
    self.duskLog = [];
    if (self.duskWrapped) return;
    self.duskWrapped = true;
    const timed = (obj, name, kind) => {
      const f = obj[name];
      obj[name] = function (...args) {
        const t0 = performance.now();
        const k = kind(args);
        const out = f.apply(this, args);
        const done = () => self.duskLog.push([k, t0, performance.now()]);
        if (out && typeof out.then === "function") out.then(done, done);
        else done();
        return out;
      };
    };
    timed(chrome.tabs, "sendMessage", (a) => `page ${a[1]?.type ?? "?"}`);
    timed(chrome.tabs, "query", () => "tabs.query");
    timed(chrome.debugger, "sendCommand", (a) => `cdp ${a[1]}`);
    timed(self, "fetch", () => "llm");
  });
  return {
    take: () => worker.evaluate(() => self.duskLog.splice(0)),
  };
}

const log = await wrap();
const perKind = new Map(); // kind → [{count, ms}] per click step
let clicks = 0;
const clickMs = [];
for (const task of TASKS) {
  usePolicy(env, policies[task]);
  const { page, panel } = await agentPanel(env, `/miniwob/miniwob/${task}.html`, { mode: "dom", max_turns: 12 });
  await page.waitForFunction(() => typeof core === "object" && document.getElementById("sync-task-cover"));
  for (let s = 0; s < seeds; s++) {
    await page.evaluate((seed) => { Math.seedrandom(seed); core.EPISODE_MAX_TIME = 60000; core.startEpisodeReal(); }, `dusk-${s + 1}`);
    await log.take();
    await startRun(panel, "Do what the page's instructions say.");
    await finish(panel, { onCard: "approve" });
    const calls = await log.take();
    const turns = calls.filter(([k]) => k === "llm").map(([, t0, t1]) => [t0, t1]).sort((x, y) => x[0] - y[0]);
    for (let i = 0; i + 1 < turns.length; i++) {
      const replied = turns[i][1], end = turns[i + 1][0];
      const inside = calls.filter(([k, t0]) => k !== "llm" && t0 >= replied && t0 < end);
      if (!inside.some(([k]) => k === "page click")) continue;
      clicks++;
      clickMs.push(end - replied);
      const by = new Map();
      for (const [k, t0, t1] of inside) {
        const o = by.get(k) ?? { count: 0, ms: 0 };
        o.count++;
        o.ms += Math.min(t1, end) - t0;
        by.set(k, o);
      }
      for (const [k, o] of by) perKind.set(k, [...(perKind.get(k) ?? []), o]);
    }
  }
  await stopRun(panel);
  await env.cleanup();
}
await env.close();

const q = (xs, f) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(f * xs.length))];
console.log(`build: ${process.env.DUSK_DIST || "dist"}; ${clicks} click steps (${TASKS.length} tasks × ${seeds} seeds); turn past the model's answer: median ${q(clickMs, 0.5).toFixed(1)}, p90 ${q(clickMs, 0.9).toFixed(1)} ms`);
console.log(`  ${"call".padEnd(34)} ${"steps".padStart(5)} ${"calls/step".padStart(10)} ${"ms/step (median)".padStart(17)}`);
const rows = [...perKind].map(([k, os]) => [k, os.length, os.reduce((a, o) => a + o.count, 0) / os.length, q(os.map((o) => o.ms), 0.5)]);
for (const [k, n, per, ms] of rows.sort((a, b) => b[3] * b[1] - a[3] * a[1])) {
  console.log(`  ${k.padEnd(34)} ${String(n).padStart(5)} ${per.toFixed(1).padStart(10)} ${ms.toFixed(1).padStart(17)}`);
}
console.log("(a call's ms is its own round trip; calls that overlap each count in full)");
