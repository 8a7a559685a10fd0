// Benchmark (not a test): the browser agent's time per step on the MiniWoB tasks in tests/ (the
// scripted policies of tests/e2e/agent_policy.mjs, answering at once), read from each run's
// export: tool_ms (the tool, its quiet window and the context refresh) and the runtime's own
// overhead_ms. A build that records approval_ms (the wait on an approval card, which the
// policies approve at once) leaves it out of tool_ms; "with approvals" adds it back, as older
// builds counted it. Before/after in one run:
//   for d in /tmp/dist-before dist; do DUSK_DIST=$d node tests/bench/miniwob_steps.mjs [seeds]; done
import { launch } from "../e2e/env.mjs";
import { agentPanel, exported, finish, startRun, stopRun, usePolicy } from "../e2e/agent_panel.mjs";
import { policies } from "../e2e/agent_policy.mjs";

const seeds = Number(process.argv[2] || 3);
const env = await launch();
const tool = [], withCards = [], overhead = [], byTool = new Map();
let lost = 0;
for (const task of Object.keys(policies)) {
  usePolicy(env, policies[task]);
  const { page, panel } = await agentPanel(env, `/miniwob/miniwob/${task}.html`, { mode: "dom", max_turns: 12 });
  await page.waitForFunction(() => typeof core === "object" && document.getElementById("sync-task-cover"));
  for (let s = 0; s < seeds; s++) {
    await page.evaluate((seed) => {
      Math.seedrandom(seed);
      core.EPISODE_MAX_TIME = 60000;
      core.startEpisodeReal();
    }, `dusk-${s + 1}`);
    await startRun(panel, "Do what the page's instructions say.");
    const end = await finish(panel, { onCard: "approve" });
    const reward = await page.evaluate(() => WOB_RAW_REWARD_GLOBAL);
    if (end.state !== "done" || !(reward > 0)) lost++;
    const run = await exported(panel);
    for (const st of run.steps) {
      tool.push(st.tool_ms);
      withCards.push(st.tool_ms + (st.approval_ms ?? 0));
      overhead.push(st.overhead_ms);
      byTool.set(st.tool, [...(byTool.get(st.tool) ?? []), st.tool_ms]);
    }
  }
  await stopRun(panel);
  await env.cleanup();
}
await env.close();

const q = (xs, f) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(f * xs.length))];
const row = (name, xs) => console.log(`  ${name.padEnd(22)} ${String(xs.length).padStart(4)} ${q(xs, 0.5).toFixed(1).padStart(7)} ${q(xs, 0.9).toFixed(1).padStart(7)} ms`);
console.log(`build: ${process.env.DUSK_DIST || "dist"}; ${Object.keys(policies).length} MiniWoB tasks × ${seeds} seeds; ${lost} runs without a reward`);
console.log(`  ${"per step".padEnd(22)} ${"n".padStart(4)} ${"median".padStart(7)} ${"p90".padStart(7)}`);
row("tool_ms", tool);
row("  with approvals", withCards);
row("overhead_ms", overhead);
for (const [name, xs] of [...byTool].sort()) row(`  tool_ms ${name}`, xs);
console.log("goal: tool_ms median ≤ 45, p90 ≤ 70; overhead_ms median ≤ 2.5, p90 ≤ 4");
