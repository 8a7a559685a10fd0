// Benchmark (not a test): memory over long sessions. The service worker's JS heap and wasm memory
// before and after 100 agent runs, and a page's JS heap (the page layer lives in its isolate)
// before and after 1,000 RPCs to its page layer. Each reading follows a forced garbage collection.
// Run: node tests/bench/long_sessions.mjs [runs=100] [rpcs=1000]
import { launch } from "../e2e/env.mjs";
import { configure } from "../e2e/chat_panel.mjs";
import { outcome, pickTab, runTask } from "../e2e/agent_panel.mjs";

const runs = Number(process.argv[2] || 100);
const rpcs = Number(process.argv[3] || 1000);
const env = await launch();
await configure(env);
const ext = await env.extPage();
await ext.evaluate(() => chrome.storage.local.set({ agent_settings: { mode: "dom", max_turns: 5, sites: {} } }));

/** A CDP session on the service worker, through the options page's session (flatten: false). */
async function workerSession() {
  const cdp = await env.ctx.newCDPSession(ext);
  const { targetInfos } = await cdp.send("Target.getTargets");
  const sw = targetInfos.find((t) => t.type === "service_worker" && t.url.endsWith("/worker.js"));
  const { sessionId } = await cdp.send("Target.attachToTarget", { targetId: sw.targetId, flatten: false });
  let id = 0;
  const waiting = new Map();
  cdp.on("Target.receivedMessageFromTarget", (e) => {
    const m = JSON.parse(e.message);
    waiting.get(m.id)?.(m.result);
  });
  return (method, params = {}) => new Promise((resolve) => {
    const n = ++id;
    waiting.set(n, resolve);
    cdp.send("Target.sendMessageToTarget", { sessionId, message: JSON.stringify({ id: n, method, params }) });
  });
}

const mb = (n) => (n / 1048576).toFixed(2);
async function workerMemory(call) {
  await call("HeapProfiler.collectGarbage");
  const heap = await call("Runtime.getHeapUsage");
  const wasm = await call("Runtime.evaluate", { expression: "globalThis.duskWasmMemory?.buffer.byteLength ?? 0", returnByValue: true });
  return { heap: heap.usedSize, wasm: wasm.result.value };
}

// ---- 100 agent runs in one worker's life
const page = await env.open(`${env.base}/pages/agent/checkout.html`);
const tabId = await env.tabIdFor(page.url());
env.llm.setDefault((req) => (req.body.messages.some((m) => m.role === "tool") ? { text: "Looked." } : { toolCalls: [{ name: "get_elements", args: {} }] }));
const panel = await env.open(env.extUrl("sidepanel.html"));
await panel.click("#mode-agent");
const call = await workerSession();
let worker0;
for (let r = 0; r < runs; r++) {
  await pickTab(panel, tabId);
  await runTask(panel, `run ${r}: look`);
  await outcome(panel, 30_000);
  if (r === 4) worker0 = await workerMemory(call); // after warm-up: caches and compiled code in place
}
const worker1 = await workerMemory(call);

// ---- 1,000 RPCs to one page layer
const big = await env.open(`${env.base}/corpus/python-docs/python3.11-doc/html/library/stdtypes.html`);
const bigTab = await env.tabIdFor(big.url());
const pageCdp = await env.ctx.newCDPSession(big);
const pageMemory = async () => {
  await pageCdp.send("HeapProfiler.collectGarbage");
  return (await pageCdp.send("Runtime.getHeapUsage")).usedSize;
};
const send = (rpc) => env.sendToWorker({ type: "tab_rpc", tab_id: bigTab, rpc });
const kinds = [{ type: "get_elements", visible_only: true, limit: 100 }, { type: "get_element_details", indices: [1, 2, 3] }, { type: "scroll", direction: "down" }, { type: "scroll_to", y: 0 }];
for (let i = 0; i < 20; i++) await send(kinds[i % kinds.length]);
const page0 = await pageMemory();
const t0 = Date.now();
for (let i = 0; i < rpcs; i++) await send(kinds[i % kinds.length]);
const ms = Date.now() - t0;
const page1 = await pageMemory();
await env.close();

console.log(`long sessions (JS heap after a forced GC; the worker's wasm memory as allocated)`);
console.log(`  service worker, after run 5 → after run ${runs}: JS heap ${mb(worker0.heap)} → ${mb(worker1.heap)} MB, wasm memory ${mb(worker0.wasm)} → ${mb(worker1.wasm)} MB`);
console.log(`  page layer on stdtypes.html, after 20 → after ${20 + rpcs} RPCs: JS heap ${mb(page0)} → ${mb(page1)} MB (${(ms / rpcs).toFixed(1)} ms per RPC)`);
