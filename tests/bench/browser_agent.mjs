// Benchmark (not a test): the browser agent's own cost per step, beyond the model: the gate
// (target and page read from the page), mask and highlight, the action, the context refresh
// (tabs, navigation check, summary, element listing, stale check) and the checkpoint. Read from
// the run's export (tool_ms + overhead_ms per step). The scripted model answers at once; it is a
// policy that reads the element list from the requests it gets.
// Run: node tests/bench/browser_agent.mjs [runs] [mode: dom|hybrid]
import { launch } from "../e2e/env.mjs";
import { configure } from "../e2e/chat_panel.mjs";
import { exported, outcome, pickTab, runTask } from "../e2e/agent_panel.mjs";
import { PAGES } from "./corpus_pages.mjs";

const runs = Number(process.argv[2] || 2);
const mode = process.argv[3] || "dom";

/** Element lines of the latest listing in the request: [{index, line}]. */
function listed(req) {
  const tools = req.body.messages.filter((m) => m.role === "tool").map((m) => {
    const text = typeof m.content === "string" ? m.content : "";
    try { return JSON.parse(text.slice(0, text.lastIndexOf("}") + 1)); } catch { return {}; }
  });
  const lists = tools.map((t) => (typeof t.data === "string" ? t.data : t.data?.new_elements || "")).filter(Boolean);
  return (lists.at(-1) || "").split("\n").filter((l) => l.startsWith("[")).map((l) => ({ index: Number(l.slice(1, l.indexOf("]"))), line: l }));
}

// get_elements, then hover / scroll / hover / scroll / press Tab; every action refreshes the context.
function policy(req) {
  const done = req.body.messages.filter((m) => m.role === "tool").length;
  const els = listed(req).filter((e) => !/ (a|button) .*href="http/.test(e.line));
  const pick = (k) => (els.length ? els[Math.min(k, els.length - 1)].index : null);
  const plan = [
    { name: "get_elements", args: {} },
    pick(0) != null ? { name: "hover", args: { index: pick(0) } } : { name: "scroll", args: { direction: "down", amount: 300 } },
    { name: "scroll", args: { direction: "down", amount: 600 } },
    pick(2) != null ? { name: "hover", args: { index: pick(2) } } : { name: "scroll", args: { direction: "down", amount: 200 } },
    { name: "scroll", args: { direction: "up", amount: 500 } },
    { name: "press_key", args: { key: "Tab" } },
  ];
  // With screenshots, replies come after 600 ms, as a real model's would: back-to-back steps
  // would only measure Chrome's two-captures-a-second quota.
  const delayMs = mode === "dom" ? 0 : 600;
  return done < plan.length ? { toolCalls: [plan[done]], delayMs } : { text: "Looked around.", delayMs };
}

const env = await launch();
await configure(env);
await (await env.extPage()).evaluate((m) => chrome.storage.local.set({ agent_settings: { mode: m, max_turns: 20, sites: {} } }), mode);
env.llm.setDefault(policy);
const panel = await env.open(env.extUrl("sidepanel.html"));
await panel.click("#mode-agent");

const rows = [];
const all = [];
for (const p of PAGES) {
  const url = `${env.base}/corpus/${p}`;
  const page = await env.open(url);
  await page.waitForLoadState("load");
  const tabId = await env.tabIdFor(url);
  const per = [];
  for (let r = 0; r < runs; r++) {
    await pickTab(panel, tabId);
    await runTask(panel, `${p} run ${r}: look around`);
    await outcome(panel, 60_000);
    const run = await exported(panel);
    if (run.status.state !== "finished") throw new Error(`${p}: ${JSON.stringify(run.status)} ${JSON.stringify(run.steps.map((s) => [s.tool, s.success, s.summary]))} answer: ${await panel.locator("#agent-answer").textContent()}`);
    for (const s of run.steps.filter((s) => s.tool !== "get_elements")) per.push(s.tool_ms + s.overhead_ms);
    await page.evaluate(() => window.scrollTo(0, 0));
  }
  all.push(...per);
  rows.push([p.split("/").slice(-2).join("/"), per]);
  await page.close();
}
await env.close();

const q = (xs, f) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(f * xs.length))];
console.log(`browser agent (${mode} mode): own time per action step (gate + action + context refresh + checkpoint), ${runs} runs × 5 actions per page`);
console.log(`  ${"page".padEnd(44)} median    p90`);
for (const [name, xs] of rows) console.log(`  ${name.padEnd(44)} ${q(xs, 0.5).toFixed(1).padStart(6)} ${q(xs, 0.9).toFixed(1).padStart(6)} ms`);
console.log(`  ${"all pages".padEnd(44)} ${q(all, 0.5).toFixed(1).padStart(6)} ${q(all, 0.9).toFixed(1).padStart(6)} ms`);
console.log(`target: median ≤ 150 ms${mode === "dom" ? "" : " (each step also captures and labels a screenshot; the model replies after 600 ms, not counted)"}`);
