import { launch } from "../e2e/env.mjs";
const env = await launch();
{ const url = `${env.base}/pages/simple.html`; await env.open(url); await env.sendToWorker({ type: "tab_rpc", tab_id: await env.tabIdFor(url), rpc: { type: "ping" } }); await env.cleanup(); }
const url = `${env.base}/corpus/node-docs/nodejs/api/fs.html`;
const page = await env.open(url);
await page.waitForTimeout(500);
const tabId = await env.tabIdFor(url);
const ext = await env.extPage();
const cdp = await env.ctx.newCDPSession(page);
await cdp.send("Profiler.enable");
await cdp.send("Profiler.setSamplingInterval", { interval: 50 });
await cdp.send("Profiler.start");
const ms = await ext.evaluate(async (tabId) => { const t0 = performance.now(); await chrome.runtime.sendMessage({ type: "tab_rpc", tab_id: tabId, rpc: { type: "page_summary", text_limit: 600 } }); return performance.now() - t0; }, tabId);
const { profile } = await cdp.send("Profiler.stop");
console.log("first RPC ms", ms.toFixed(1));
const dt = new Map(); const byId = new Map(profile.nodes.map((n) => [n.id, n]));
for (let i = 0; i < profile.samples.length; i++) { const n = byId.get(profile.samples[i]); const k = `${n.callFrame.functionName || "(anon)"} ${n.callFrame.url.split("/").pop()}:${n.callFrame.lineNumber}`; dt.set(k, (dt.get(k) || 0) + profile.timeDeltas[i] / 1000); }
console.log([...dt].sort((a, b) => b[1] - a[1]).slice(0, 30).map(([k, v]) => `${v.toFixed(2)} ms  ${k}`).join("\n"));
await env.close();
