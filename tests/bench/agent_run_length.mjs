// Benchmark (not a test): does the browser agent's runtime cost per step grow with the run? Runs
// of 5 and of 50 steps on one page (two calls a turn: get_elements, read_text and scrolls, each
// scroll by a new amount so loop detection stays quiet), the scripted model answering at once;
// `overhead_ms` per step (everything between a reply and the next request but the tools: the
// checkpoint write, the carried-text log, the effect and repeat checks, superseding, building
// the request) read from each run's export. Before/after in one go:
//   for d in before dist; do DUSK_DIST=$d node tests/bench/agent_run_length.mjs [runs] [page]; done
import { launch } from "../e2e/env.mjs";
import { agentPanel, exported, finish, startRun, stopRun, usePolicy } from "../e2e/agent_panel.mjs";

const runs = Number(process.argv[2] || 3);
const pagePath = process.argv[3] || "/corpus/readability/bbc-1/index.html";
const LENGTHS = [5, 50];

/** The k-th call of a run (0-based). */
function call(k) {
  switch (k % 4) {
    case 0: return ["get_elements", {}];
    case 1: return ["scroll", { direction: "down", amount: 40 + k }];
    case 2: return ["read_text", {}];
    default: return ["scroll", { direction: "up", amount: 20 + k }];
  }
}

let length = 5;
/** Two calls a turn until `length` calls were made, then the answer. */
function policy(p) {
  const done = p.calls.length;
  if (done >= length) return { text: `Done after ${done} steps.` };
  const calls = [call(done), call(done + 1)].slice(0, length - done);
  return { toolCalls: calls.map(([name, args]) => ({ name, args })) };
}

const env = await launch();
usePolicy(env, policy);
const { panel } = await agentPanel(env, pagePath, { mode: "dom", max_turns: 50 });
const per = new Map(LENGTHS.map((n) => [n, { all: [], first: [], last: [], tool: [] }]));
for (let r = 0; r < runs; r++) {
  for (const n of LENGTHS) {
    length = n;
    await startRun(panel, `Run ${r}: look around the page (${n} steps).`);
    const end = await finish(panel, { timeout: 120_000 });
    const run = await exported(panel);
    if (end.state !== "done" || run.steps.length !== n) throw new Error(`${n}-step run ${r}: ${run.steps.length} steps, ${end.state}: ${end.text}`);
    const o = per.get(n);
    run.steps.forEach((s, i) => {
      o.all.push(s.overhead_ms);
      o.tool.push(s.tool_ms);
      if (i < 10) o.first.push(s.overhead_ms);
      if (i >= n - 10) o.last.push(s.overhead_ms);
    });
  }
}
await stopRun(panel);
await env.close();

const q = (xs, f) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(f * xs.length))];
const cell = (xs) => `${q(xs, 0.5).toFixed(2).padStart(6)} / ${q(xs, 0.9).toFixed(2).padStart(6)}`;
console.log(`build: ${process.env.DUSK_DIST || "dist"}; ${runs} runs of each length on ${pagePath}`);
console.log(`  ${"overhead_ms per step".padEnd(34)} ${"median / p90".padStart(15)}`);
for (const n of LENGTHS) {
  const o = per.get(n);
  console.log(`  ${`${n}-step runs, every step`.padEnd(34)} ${cell(o.all)}`);
  if (n > 10) {
    console.log(`  ${`${n}-step runs, steps 1-10`.padEnd(34)} ${cell(o.first)}`);
    console.log(`  ${`${n}-step runs, steps ${n - 9}-${n}`.padEnd(34)} ${cell(o.last)}`);
  }
}
for (const n of LENGTHS) console.log(`  ${`tool_ms, ${n}-step runs`.padEnd(34)} ${cell(per.get(n).tool)}`);
console.log("goal: overhead median ≤ 2.5 ms, and a 50-step run costs no more per step than a 5-step one");
