// Benchmark (not a test): the chat's first read of a page, text_snapshot at its one-tab budget
// (12,000 tokens), through the worker as the chat asks it, what the page block starts with, and
// the always-on script's size.
// Run: node tests/bench/chat_read.mjs [runs]   (DUSK_DIST=before for another build)
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import path from "node:path";
import { launch } from "../e2e/env.mjs";

const RUNS = Number(process.argv[2] || 9);
const NEW_TABS = Number(process.env.NEW_TABS || 5);
const PAGES = [
  ["python stdtypes", "/corpus/python-docs/python3.11-doc/html/library/stdtypes.html"],
  ["node fs", "/corpus/node-docs/nodejs/api/fs.html"],
  ["wikipedia article", "/corpus/readability/wikipedia/index.html"],
  ["bbc article", "/corpus/readability/bbc-1/index.html"],
  ["text no one can see", "/pages/agent/hidden-text.html"],
];
const RPC = { type: "text_snapshot", token_budget: 12000 };

const env = await launch();
const snapshot = (ext, tabId) => ext.evaluate(async ({ tabId, rpc }) => {
  const t0 = performance.now();
  const r = await chrome.runtime.sendMessage({ type: "tab_rpc", tab_id: tabId, rpc });
  if (r?.type !== "content" || r.response.type !== "text_snapshot") throw new Error(JSON.stringify(r));
  const s = r.response;
  return { ms: performance.now() - t0, tokens: s.tokens, total: s.total_tokens, sections: s.sections.length, outline: s.outline?.length ?? 0, starts: (s.block ?? "").slice(0, 40).replace(/\n/g, " ⏎ ") };
}, { tabId, rpc: RPC });
const at = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))];
const rows = [];
for (const [name, p] of PAGES) {
  const url = `${env.base}${p}`;
  const ext = await env.extPage();
  // A new tab's first read (nothing compiled yet in its renderer), then warm reads in the last one.
  const firsts = [];
  let page, tabId, shape;
  for (let i = 0; i < NEW_TABS; i++) {
    if (page) await page.close();
    page = await env.open(url);
    tabId = await env.tabIdFor(url);
    await page.waitForTimeout(300);
    const r = await snapshot(ext, tabId);
    firsts.push(r.ms);
    shape = r;
  }
  const warm = [];
  for (let i = 0; i < RUNS; i++) warm.push((await snapshot(ext, tabId)).ms);
  const elements = await page.evaluate(() => document.getElementsByTagName("*").length);
  await page.close();
  rows.push({
    page: `${name} (${elements} el.)`,
    "new tab median / p90 ms": `${at(firsts, 0.5).toFixed(1)} / ${at(firsts, 0.9).toFixed(1)}`,
    "warm median / p90 ms": `${at(warm, 0.5).toFixed(1)} / ${at(warm, 0.9).toFixed(1)}`,
    "snapshot tokens (of page)": `${shape.tokens} (${shape.total}), ${shape.sections} sections, ${shape.outline} outline lines`,
    "page block starts": shape.starts,
  });
}
await env.close();
console.table(rows);
const dist = process.env.DUSK_DIST ? path.resolve(process.env.DUSK_DIST) : new URL("../../dist", import.meta.url).pathname;
const script = readFileSync(path.join(dist, "content.js"));
console.log(`content.js: ${script.length} bytes, ${gzipSync(script, { level: 9 }).length} gzipped`);
