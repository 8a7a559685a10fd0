// Benchmark (not a test): what the browser agent's listing costs and how much of it names things.
// On each corpus page a scripted model asks get_elements twice (on screen; the whole page, 300
// at most) through the side panel; the listings are read from the requests the model got.
// Tokens are core's estimate (4 characters a token). "No name": an element line with no name,
// no icon guess and no row context. Also the time of the tool's default RPC (visible only, 100),
// straight from the worker, median of 7. Run: node tests/bench/listing.mjs [--lines out.json]
import { writeFileSync } from "node:fs";
import { launch } from "../e2e/env.mjs";
import { configure } from "../e2e/chat_panel.mjs";
import { outcome, pickTab, runTask } from "../e2e/agent_panel.mjs";
import { parseElements, parseRequest } from "../e2e/agent_policy.mjs";
import { rpc } from "../e2e/page-helpers.mjs";
import { PAGES } from "./corpus_pages.mjs";

const out = process.argv.includes("--lines") ? process.argv[process.argv.indexOf("--lines") + 1] : null;
const CALLS = [{}, { visible_only: false, limit: 300 }];

const env = await launch();
await configure(env);
await (await env.extPage()).evaluate(() => chrome.storage.local.set({ agent_settings: { mode: "dom", max_turns: 20, sites: {} } }));
env.llm.setDefault((req) => {
  const p = parseRequest(req);
  return p.calls.length < CALLS.length ? { toolCalls: [{ name: "get_elements", args: CALLS[p.calls.length] }] } : { text: "Listed." };
});
const panel = await env.open(env.extUrl("sidepanel.html"));
await panel.click("#mode-agent");

const tokens = (s) => Math.ceil(s.length / 4);
const unnamed = (e) => !e.text && !e.icon && !e.row;
const rows = [];
const dump = {};
for (const p of PAGES) {
  const url = `${env.base}/corpus/${p}`;
  const page = await env.open(url);
  await page.waitForLoadState("load");
  await pickTab(panel, await env.tabIdFor(url));
  const before = env.llm.requests().length;
  await runTask(panel, `${p}: list`);
  await outcome(panel, 60_000);
  // Each listing from the request that first shows it: later ones carry only the newest whole.
  const texts = env.llm.requests().slice(before + 1).map((r) => parseRequest(r).calls.at(-1)?.result?.data).map((d) => (typeof d === "string" ? d : ""));
  const els = texts.map(parseElements);
  const ms = [];
  for (let i = 0; i < 7; i++) {
    const t0 = performance.now();
    await rpc(env, url, { type: "get_elements", visible_only: true, limit: 100 });
    ms.push(performance.now() - t0);
  }
  const median = ms.sort((a, b) => a - b)[3];
  rows.push([p.split("/").slice(-2).join("/"), texts.map(tokens), els.map((l) => l.length), els.map((l) => l.filter(unnamed).length), median]);
  dump[p] = texts;
  await page.close();
}
await env.close();
if (out) writeFileSync(out, JSON.stringify(dump, null, 1));

console.log("listing per corpus page: tokens (elements, with no name) — on screen | whole page (≤ 300) | visible-only RPC ms");
for (const [name, t, n, u, ms] of rows) console.log(`  ${name.padEnd(34)} ${String(t[0]).padStart(6)} (${n[0]}, ${u[0]}) | ${String(t[1]).padStart(6)} (${n[1]}, ${u[1]}) | ${ms.toFixed(1)}`);
const sum = (k, i) => rows.reduce((s, r) => s + r[k][i], 0);
console.log(`  ${"all pages".padEnd(34)} ${String(sum(1, 0)).padStart(6)} (${sum(2, 0)}, ${sum(3, 0)}) | ${String(sum(1, 1)).padStart(6)} (${sum(2, 1)}, ${sum(3, 1)})`);
