// Benchmark (not a test): what the agent's browser boundary and other-origin frames cost.
// 1. The browser boundary: how long Chrome takes to apply and to lift a run's two
//    declarativeNetRequest session rules (core's safety::boundary shape), from an extension page.
// 2. Listing frames: get_elements' tool_ms in an agent run on a page with 5 frames of another
//    origin (each listed through its own page layer), against the same page with 5 same-origin
//    frames (reached by the top frame's layer) and with no frames.
// Run: node tests/bench/boundary.mjs [runs]
import { createServer } from "node:http";
import { launch } from "../e2e/env.mjs";
import { configure } from "../e2e/chat_panel.mjs";
import { exported, outcome, pickTab, runTask } from "../e2e/agent_panel.mjs";

const runs = Number(process.argv[2] || 5);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fixed = (x) => x.toFixed(1);

const FORM = `<!doctype html><title>Form</title><form><label>Name <input name="n"></label> <label>Email <input name="e"></label><button>Send</button></form>`;
const server = createServer((req, res) => {
  const url = new URL(req.url, "http://x");
  const frames = url.searchParams.get("frames");
  const body = url.pathname === "/form" ? FORM
    : `<!doctype html><title>Host</title><h1>Five forms</h1><p>Text.</p><button>Top button</button>${frames ? Array.from({ length: 5 }, () => `<iframe src="${frames}/form" width="300" height="80"></iframe>`).join("") : ""}`;
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(body);
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const port = server.address().port;

const env = await launch();
const ext = await env.extPage();

// 1. Apply and lift.
const timing = await ext.evaluate(async (n) => {
  const tabs = (await chrome.tabs.query({})).map((t) => t.id);
  const allowed = ["127.0.0.1", "bank.example", "docs.example", "shop.example", "pay.example"];
  const rules = [
    { id: 15, priority: 1, action: { type: "block" }, condition: { resourceTypes: ["main_frame"], tabIds: tabs.slice(0, 1), excludedRequestDomains: allowed } },
    { id: 16, priority: 1, action: { type: "block" }, condition: { resourceTypes: ["main_frame"], initiatorDomains: allowed, excludedRequestDomains: allowed, excludedTabIds: tabs.slice(1) } },
  ];
  const apply = [], lift = [];
  for (let i = 0; i < n; i++) {
    let t0 = performance.now();
    await chrome.declarativeNetRequest.updateSessionRules({ removeRuleIds: [15, 16], addRules: rules });
    apply.push(performance.now() - t0);
    t0 = performance.now();
    await chrome.declarativeNetRequest.updateSessionRules({ removeRuleIds: [15, 16] });
    lift.push(performance.now() - t0);
  }
  return { apply, lift };
}, 20);
console.log(`boundary rules, median of 20: apply ${fixed(median(timing.apply))} ms, lift ${fixed(median(timing.lift))} ms`);

// The per-step checks the part added, as the worker makes them: the tab's state (a stopped load?)
// before each action, and the frames question before each listing, on a page with no frames.
{
  const page = await env.open(`http://127.0.0.1:${port}/host`);
  const tabId = await env.tabIdFor(page.url());
  const t = await ext.evaluate(async (tabId) => {
    const time = async (f) => { const xs = []; for (let i = 0; i < 30; i++) { const t0 = performance.now(); await f(); xs.push(performance.now() - t0); } return xs.sort((a, b) => a - b)[15]; };
    const { windowId } = await chrome.tabs.get(tabId);
    const tabs = await time(() => chrome.tabs.query({ windowId }));
    const frames = await time(() => chrome.scripting.executeScript({ target: { tabId, allFrames: true }, injectImmediately: true, func: () => location.href }));
    return { tabs, frames };
  }, tabId);
  console.log(`per-step checks, median of 30: tabs query ${fixed(t.tabs)} ms, frames question ${fixed(t.frames)} ms`);
  await page.close();
}

// 2. get_elements with frames.
await configure(env);
await ext.evaluate(() => chrome.storage.local.set({ agent_settings: { mode: "dom", max_turns: 20, sites: {} } }));
const CALLS = 6;
env.llm.setDefault((req) => {
  const done = req.body.messages.filter((m) => m.role === "tool").length;
  return done < CALLS ? { toolCalls: [{ name: "get_elements", args: {} }] } : { text: "Listed." };
});
const panel = await env.open(env.extUrl("sidepanel.html"));
await panel.click("#mode-agent");
const cases = [
  ["no frames", ""],
  ["5 same-origin frames", `http://127.0.0.1:${port}`],
  ["5 cross-origin frames", `http://localhost:${port}`],
];
console.log("\n| page | first get_elements, tool_ms median | later listings, median |\n|---|---|---|");
for (const [name, frames] of cases) {
  const url = `http://127.0.0.1:${port}/host${frames ? `?frames=${encodeURIComponent(frames)}` : ""}`;
  const firsts = [], later = [];
  for (let r = 0; r < runs; r++) {
    const page = await env.open(url);
    await page.waitForLoadState("load");
    await pickTab(panel, await env.tabIdFor(url));
    await runTask(panel, `List the page (${name}, run ${r})`);
    await outcome(panel);
    const steps = (await exported(panel)).steps.filter((s) => s.tool === "get_elements");
    firsts.push(steps[0].tool_ms);
    later.push(...steps.slice(1).map((s) => s.tool_ms));
    await page.close();
  }
  console.log(`| ${name} | ${fixed(median(firsts))} | ${fixed(median(later))} |`);
}
await env.close();
server.close();
