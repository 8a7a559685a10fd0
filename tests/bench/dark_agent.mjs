// Benchmark (not a test): Quick and Thorough dark mode on the corpus pages, with a scripted model
// that replays fixed tool calls (Quick's at once, Thorough's after 600 ms each). Prints input tokens per run (estimated as the client
// does for a provider that reports none, images included), screenshot bytes, the worker's time
// per Thorough turn beyond the model (capture + scale + guard + apply), and Quick's total time
// beyond the model. Run: node tests/bench/dark_agent.mjs [page-filter]
import { launch } from "../e2e/env.mjs";
import { PAGES as CORPUS } from "./corpus_pages.mjs";

const PAGES = CORPUS.filter((p) => !process.argv[2] || p.includes(process.argv[2]));
const CSS1 = "img { filter: brightness(.85) !important }\npre, code { background-color: #15171a !important }";
const CSS2 = CSS1 + "\nhr { border-color: #333 !important }";
const median = (xs) => { const v = [...xs].sort((a, b) => a - b); return v[Math.floor(v.length / 2)]; };

const env = await launch();
await env.ctx.route(/^(https?|wss?):\/\/(?!127\.0\.0\.1[:/])/, (r) => r.abort());
const ext = await env.extPage();
await ext.evaluate((base) => chrome.storage.local.set({
  settings: { provider: "openai", providers: [{ kind: "openai", model: "bench", base_url: base, api_key: "sk-bench" }] },
  dark_agent: { max_turns: 5, max_input_tokens: 25000 },
}), `${env.llm.url}/v1`);

const state = (tabId) => env.sendToWorker({ type: "dark_get_state", tab_id: tabId });
async function runToEnd(tabId, mode) {
  const t0 = Date.now();
  const started = await env.sendToWorker({ type: "dark_refine", tab_id: tabId, mode });
  if (started.type !== "dark_state") throw new Error(JSON.stringify(started));
  for (;;) {
    const s = await state(tabId);
    if (s.run && !["analyzing", "generating", "refining"].includes(s.run.stage)) return { ms: Date.now() - t0, run: s.run };
    await new Promise((r) => setTimeout(r, 20));
  }
}
const shotBytes = (reqs) => reqs.flatMap((r) => JSON.stringify(r.body).match(/data:image\/jpeg;base64,[A-Za-z0-9+/=]+/g) ?? [])
  .map((u) => Math.floor((u.length - 23) * 3 / 4));

const rows = [];
for (const p of PAGES) {
  const url = `${env.base}/corpus/${p}`;
  const page = await env.ctx.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(url, { waitUntil: "load" });
  const tabId = await env.tabIdFor(url);
  await env.sendToWorker({ type: "dark_set_site", tab_id: tabId, on: true });
  await page.waitForTimeout(300);

  env.llm.reset();
  env.llm.setDefault({ text: "```css\n" + CSS1 + "\n```", omitUsage: true });
  const quick = await runToEnd(tabId, "quick");
  const quickReq = env.llm.requests()[0];
  if (!quickReq) console.log(`${p}: Quick made no model call: ${quick.run.stage} ${quick.run.message}`);
  // The model's own share: request arrival to reply sent, from the scripted server's clock (~0).
  const quickShots = shotBytes(quickReq ? [quickReq] : []);

  env.llm.reset();
  // 600 ms per reply, as the fastest real model: Chrome allows two captures a second, and a model
  // answering at once would measure that quota instead of the worker.
  const at = { omitUsage: true, delayMs: 600 };
  env.llm.script(
    { ...at, toolCalls: [{ name: "get_color_palette", args: {} }, { name: "inspect", args: { selector: "pre, img", limit: 5 } }] },
    { ...at, toolCalls: [{ name: "apply_css", args: { css: CSS1 } }] },
    { ...at, toolCalls: [{ name: "scroll_and_capture", args: { y: 900 } }] },
    { ...at, toolCalls: [{ name: "apply_css", args: { css: CSS2 } }] },
    { ...at, text: "Done." },
  );
  const thorough = await runToEnd(tabId, "thorough");
  const reqs = env.llm.requests();
  const checkpoint = await ext.evaluate((id) => chrome.storage.session.get(`run:dark-${id}`).then((r) => JSON.parse(r[`run:dark-${id}`])), tabId);
  // Per turn, beyond the model: its tools plus the runtime's own time.
  const perTurn = new Map();
  for (const s of checkpoint.transcript) perTurn.set(s.turn, (perTurn.get(s.turn) ?? 0) + s.tool_ms + s.overhead_ms);
  const applies = checkpoint.transcript.filter((s) => s.tool === "apply_css").map((s) => s.tool_ms);
  const modelMs = checkpoint.transcript.reduce((m, s) => m.set(s.turn, s.model_ms), new Map());
  rows.push({
    page: p.split("/").slice(-2).join("/"),
    quickTokens: quick.run.input_tokens, quickMs: quick.ms, quickStage: quick.run.stage,
    thoroughTokens: thorough.run.input_tokens, turns: thorough.run.turn, thoroughStage: thorough.run.stage,
    shot: median([...quickShots, ...shotBytes(reqs)]),
    turnMs: median([...perTurn.values()]), applyMs: median(applies),
    modelMs: median([...modelMs.values()]),
  });
  await env.sendToWorker({ type: "dark_back_to_instant", tab_id: tabId });
  await page.close();
}
await env.close();

console.log("dark agent, scripted model (Quick: at once; Thorough: 600 ms a reply, excluded); tokens estimated as for a provider that reports none");
console.log("page                              | Quick tokens | Quick total ms | Thorough tokens (turns) | screenshot KB | worker ms/turn | apply_css ms");
for (const r of rows) {
  console.log(`${r.page.padEnd(34)}| ${String(r.quickTokens).padStart(12)} | ${String(r.quickMs).padStart(14)} | ${`${r.thoroughTokens} (${r.turns}, ${r.thoroughStage})`.padStart(23)} | ${(r.shot / 1024).toFixed(1).padStart(13)} | ${r.turnMs.toFixed(0).padStart(14)} | ${r.applyMs.toFixed(0).padStart(12)}`);
}
const m = (k) => median(rows.map((r) => r[k]));
console.log(`median                            | ${String(m("quickTokens")).padStart(12)} | ${String(m("quickMs")).padStart(14)} | ${String(m("thoroughTokens")).padStart(23)} | ${(m("shot") / 1024).toFixed(1).padStart(13)} | ${m("turnMs").toFixed(0).padStart(14)} | ${m("applyMs").toFixed(0).padStart(12)}`);
console.log("targets: Thorough ≤ 25,000 input tokens per 5-turn run; worker ≤ 300 ms per turn (median); Quick beyond the model ≤ 500 ms");
