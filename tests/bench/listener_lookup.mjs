// Benchmark (not a test): get_elements as the agent's listing pays for it, with the debugger's
// click-listener lookup, warm (the tab listed once already): on an unchanged page, and after the
// page added one card with its own click listener (an agent step's usual case). Times from an
// extension page through the worker (tab_rpc), each run next to the same listing sent straight to
// the page layer (no lookup), so "lookup" (their difference, median per run) holds up on a loaded
// machine, as does "min" (the fastest run: what the page costs when nothing else is on the CPU).
// Before/after in one run:
//   for d in /tmp/dist-before dist; do DUSK_DIST=$d node tests/bench/listener_lookup.mjs [runs]; done
import { launch } from "../e2e/env.mjs";

const RUNS = Number(process.argv[2] || 15);
const PAGES = [
  ["python stdtypes", "/corpus/python-docs/python3.11-doc/html/library/stdtypes.html"],
  ["node fs", "/corpus/node-docs/nodejs/api/fs.html"],
  ["generated 10k, 690 with click listeners", "/bench/big.html?listeners"],
];
const CALLS = [
  ["get_elements(all, limit 5000)", { type: "get_elements", filter: "all", limit: 5000 }],
  ["get_elements (the agent's default: visible, 100)", { type: "get_elements", visible_only: true, limit: 100 }],
];
const addCard = () => {
  const d = document.createElement("div");
  d.textContent = `Card ${document.querySelectorAll("[data-bench-card]").length}`;
  d.dataset.benchCard = "";
  d.addEventListener("click", () => {});
  document.body.prepend(d);
};

const env = await launch();
const at = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
const rows = [];
for (const [name, path] of PAGES) {
  const url = `${env.base}${path}`;
  const page = await env.open(url);
  const tabId = await env.tabIdFor(url);
  const ext = await env.extPage();
  // [through the worker, straight to the page layer] in ms.
  const time = (rpc) => ext.evaluate(async ({ tabId, rpc }) => {
    let t0 = performance.now();
    const r = await chrome.runtime.sendMessage({ type: "tab_rpc", tab_id: tabId, rpc });
    if (r?.type !== "content" || r.response.type !== "elements") throw new Error(JSON.stringify(r));
    const worker = performance.now() - t0;
    t0 = performance.now();
    const direct = await chrome.tabs.sendMessage(tabId, rpc, { frameId: 0 });
    if (direct?.type !== "elements") throw new Error(JSON.stringify(direct));
    return [worker, performance.now() - t0];
  }, { tabId, rpc });
  await time(CALLS[0][1]);
  await time(CALLS[0][1]);
  for (const [label, rpc] of CALLS) {
    for (const [state, before] of [["unchanged page", null], ["after the page added a card", addCard]]) {
      const times = [], lookups = [];
      for (let i = 0; i < RUNS; i++) {
        if (before) await page.evaluate(before);
        const [worker, direct] = await time(rpc);
        times.push(worker);
        lookups.push(worker - direct);
      }
      times.sort((a, b) => a - b);
      lookups.sort((a, b) => a - b);
      rows.push({ page: name, rpc: label, state, median: at(times, 0.5).toFixed(1), p90: at(times, 0.9).toFixed(1), min: times[0].toFixed(1), lookup: at(lookups, 0.5).toFixed(1) });
    }
  }
  await env.cleanup();
}
await env.close();
console.log(`build: ${process.env.DUSK_DIST || "dist"}`);
console.table(rows);
