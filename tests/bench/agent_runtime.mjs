// Benchmark (not a test): the agent runtime's own time per step, from the worker's clock:
// everything between a model reply and the next request except the tool (argument parsing,
// events, the chrome.storage.session checkpoint, building the request). Runs the chat's pass 2
// with the scripted server answering at once. Run: node tests/bench/agent_runtime.mjs [runs] [page]
import { launch } from "../e2e/env.mjs";

const runs = Number(process.argv[2] || 3);
const pagePath = process.argv[3] || "/corpus/readability/bbc-1/index.html";
const STEPS = 17; // pass 2 has 19 turns; leave room for the final answer
const env = await launch();
await (await env.extPage()).evaluate((base) => chrome.storage.local.set({
  settings: { provider: "openai", providers: [{ kind: "openai", model: "bench", base_url: base, api_key: "sk-bench" }] },
}), `${env.llm.url}/v1`);

const page = await env.open(`${env.base}${pagePath}`);
const panel = await env.open(env.extUrl("sidepanel.html"));
await panel.locator("#tab-picker input").first().waitFor({ state: "attached" });
const tabId = await env.tabIdFor(page.url());
await panel.locator("details.picker summary").click();
await panel.locator(`#tab-picker input[data-tab-id="${tabId}"]`).check();

const overhead = [], tool = [], model = [];
for (let r = 0; r < runs; r++) {
  env.llm.reset();
  const replies = [{ text: "NEED_TOOLS: scroll through it" }];
  // Distinct arguments each step, so loop detection never ends the run early.
  for (let i = 0; i < STEPS; i++) replies.push({ toolCalls: [{ name: "scroll", args: { direction: i % 2 ? "up" : "down", screens: 0.1 + i * 0.01 } }] });
  replies.push({ text: "Done scrolling." });
  env.llm.script(...replies);
  await panel.fill("#question", `Run ${r}: scroll around`);
  await panel.click("#send");
  await panel.waitForFunction(() => document.querySelector("#send").dataset.state !== "stop" && document.querySelectorAll(".msg.assistant:not(.streaming)").length > 0, null, { timeout: 60_000 });
  await panel.click("#export-run");
  const href = await panel.locator("#run-export").getAttribute("href");
  const run = JSON.parse(decodeURIComponent(href.slice(href.indexOf(",") + 1)));
  if (run.steps.length !== STEPS) throw new Error(`run ${r}: ${run.steps.length} steps, status ${JSON.stringify(run.status)}`);
  for (const s of run.steps) { overhead.push(s.overhead_ms); tool.push(s.tool_ms); model.push(s.model_ms); }
  await panel.click("#new-chat");
}
await env.close();

const q = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
const line = (name, xs) => console.log(`  ${name.padEnd(28)} median ${q(xs, 0.5).toFixed(2)} ms, p90 ${q(xs, 0.9).toFixed(2)} ms, max ${Math.max(...xs).toFixed(2)} ms`);
console.log(`agent runtime: ${runs} runs × ${STEPS} steps on ${pagePath} (page text in every checkpoint)`);
line("runtime overhead per step", overhead);
line("tool (scroll RPC)", tool);
line("model call (scripted, local)", model);
console.log(`target: overhead median ≤ 5 ms`);
