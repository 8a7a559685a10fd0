// Benchmark (not a test): where a dark tab's memory goes. One corpus page, opened on a site of its
// own with dark mode off, then on another with it on; for the page's renderer (the one that goes
// when the page closes): its PSS, Chrome's memory-infra dump by allocator (detailed), V8's heap,
// the DOM counters, the compositor's layers, and WebAssembly memory candidates (a read-write
// mapping at the start of a free stretch of V8's sandbox; the dark layer's is the one only "on" has).
// Usage: [PAGE=corpus path] [WAIT=ms before measuring, 3000] [DEPTH=allocator depth, 3]
//        [OWN_DARK=1: the "off" arm gets the page's own dark CSS instead]
//        [OFF_WORLD_JS=expression: run in an isolated world of the "off" arm's page once loaded, to
//        cost a DOM read the layer makes] [ON_LATE=1: the "on" arm loads with dark mode off and is
//        switched on 2 s after load, with no fallback or parse-time batches] node tests/bench/dark_memory_parts.mjs
// The USS is also split by mapping: anonymous (the allocators), Chromium's code (pages of the binary
// only this renderer has touched, e.g. V8's optimising compiler once a hot wasm function tiers up;
// shared, so not per tab, once other renderers run it too), shared memory and other files.
import { mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { launch } from "../e2e/env.mjs";
import { startFixtureServer } from "../e2e/fixture-server.mjs";
import { allocatorDump } from "./memory_dump.mjs";

const PAGE = process.env.PAGE ?? "python-docs/python3.11-doc/html/library/stdtypes.html";
const profile = mkdtempSync(path.join(tmpdir(), "dusk-parts-"));
const env = await launch({ profile });
await env.ctx.route(/^(https?|wss?):\/\/(?!(127\.0\.0\.1|[a-z0-9-]+\.duckdns\.org)[:/])/, (r) => r.abort());
const corpus = await startFixtureServer("corpus");
const port = new URL(corpus.url).port;

const setAuto = async (on) => {
  const page = await env.ctx.newPage();
  await page.goto(env.extUrl("welcome.html"));
  await page.evaluate((m) => chrome.runtime.sendMessage(m), { type: "dark_set_auto", on });
  await page.close();
};

/** The renderers of this browser's tabs (not the extension's), by pid. */
function tabRenderers() {
  const all = readdirSync("/proc").filter((d) => /^\d+$/.test(d)).map((pid) => {
    try { return { pid: Number(pid), cmd: readFileSync(`/proc/${pid}/cmdline`, "utf8"), ppid: Number(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")[1]) }; } catch { return null; }
  }).filter(Boolean);
  const browser = all.find((p) => p.cmd.includes(`--user-data-dir=${profile}`) && !p.cmd.includes("--type="));
  const mine = new Set([browser.pid]);
  for (let grew = true; grew;) { grew = false; for (const p of all) if (!mine.has(p.pid) && mine.has(p.ppid)) { mine.add(p.pid); grew = true; } }
  return all.filter((p) => mine.has(p.pid) && p.cmd.includes("--type=renderer") && !p.cmd.includes("--extension-process")).map((p) => String(p.pid));
}

/** A wasm memory sits at the start of a free stretch of V8's 1 TB sandbox: a read-write mapping
 * (the memory's length) followed by ≥ 1000 GB reserved; its size and PSS. */
function wasmMemories(smaps) {
  const maps = smaps.split(/\n(?=[0-9a-f]+-[0-9a-f]+ )/).map((m) => {
    const [range, perms] = m.split(" ");
    const [start, end] = range.split("-").map((h) => BigInt(`0x${h}`));
    return { start, end, perms, pss: Number(m.match(/^Pss:\s+(\d+)/m)?.[1] ?? 0) / 1024 };
  });
  const out = [];
  for (let i = 1; i < maps.length; i++) {
    const m = maps[i], before = maps[i - 1];
    if (m.perms.startsWith("---") && m.end - before.start >= 1000n << 30n && before.end === m.start && before.perms.startsWith("rw")) out.push(`${(Number(before.end - before.start) / 1048576).toFixed(2)} MB long (reserved ${(Number(m.end - before.start) / 2 ** 30).toFixed(3)} GB), PSS ${before.pss.toFixed(2)} MB`);
  }
  return out;
}

/** PSS of the anonymous executable mappings (V8's JIT code: JavaScript's, and the WebAssembly
 * Liftoff and TurboFan compile), and of the anonymous read-write ones, in MB. */
function anonymous(smaps) {
  let exec = 0, rw = 0;
  for (const m of smaps.split(/\n(?=[0-9a-f]+-[0-9a-f]+ )/)) {
    const [head] = m.split("\n");
    const fields = head.trim().split(/\s+/);
    if (fields.length > 5 && fields[5] !== "[heap]") continue;
    const kb = Number(m.match(/^Pss:\s+(\d+)/m)?.[1] ?? 0);
    if (fields[1].includes("x")) exec += kb;
    else if (fields[1].startsWith("rw")) rw += kb;
  }
  return { exec: exec / 1024, rw: rw / 1024 };
}

/** USS by mapping kind, MB: anonymous, Chromium's code / other parts of its binary, shared memory, other files. */
function ussByKind(smaps) {
  const out = {};
  for (const m of smaps.split(/\n(?=[0-9a-f]+-[0-9a-f]+ )/)) {
    const fields = m.split("\n")[0].trim().split(/\s+/);
    const file = fields.slice(5).join(" ");
    const kind = !file || file === "[heap]" ? "anonymous" : /\/chromium$/.test(file) ? (fields[1].includes("x") ? "Chromium's code" : "Chromium's data") : /^\/(tmp\/\.org\.chromium|dev\/shm|memfd)/.test(file) ? "shared memory" : "other";
    const kb = Number(m.match(/^Private_Clean:\s+(\d+)/m)?.[1] ?? 0) + Number(m.match(/^Private_Dirty:\s+(\d+)/m)?.[1] ?? 0);
    out[kind] = (out[kind] ?? 0) + kb / 1024;
  }
  return out;
}

const rollup = (pid, keys) => { try { const r = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"); return keys.reduce((a, k) => a + Number(r.match(new RegExp(`^${k}:\\s+(\\d+)`, "m"))?.[1] ?? 0), 0) / 1024; } catch { return 0; } };
const pss = (pid) => rollup(pid, ["Pss"]);
/** The process's private memory (USS): Chromium's shared code, divided by PSS among every process mapping it, left out. */
const uss = (pid) => rollup(pid, ["Private_Clean", "Private_Dirty"]);

/** The lengths of the WebAssembly memories held by the extension's isolated world in the page's top frame (the dark layer's). */
async function isolatedWorld(cdp) {
  const contexts = [];
  cdp.on("Runtime.executionContextCreated", (e) => contexts.push(e.context));
  await cdp.send("Runtime.enable");
  await new Promise((r) => setTimeout(r, 200));
  const ext = contexts.find((c) => c.auxData?.type === "isolated" && c.auxData?.isDefault === false && c.origin.startsWith("chrome-extension://") && c.auxData?.frameId && contexts.some((d) => d.auxData?.isDefault && d.auxData.frameId === c.auxData.frameId));
  if (!ext) { await cdp.send("Runtime.disable"); return { memories: [] }; }
  const proto = await cdp.send("Runtime.evaluate", { expression: "WebAssembly.Memory.prototype", contextId: ext.id });
  const found = await cdp.send("Runtime.queryObjects", { prototypeObjectId: proto.result.objectId });
  const lengths = await cdp.send("Runtime.callFunctionOn", { objectId: found.objects.objectId, functionDeclaration: "function () { return this.map((m) => m.buffer.byteLength); }", returnByValue: true });
  await cdp.send("Runtime.disable");
  return { memories: lengths.result.value ?? [] };
}

async function arm(site, dark) {
  await setAuto(dark && !process.env.ON_LATE);
  const page = await env.ctx.newPage();
  // OWN_DARK: the page's own dark CSS instead of Dusk (what any dark page costs Chrome).
  if (!dark && process.env.OWN_DARK) await page.addInitScript(() => document.addEventListener("DOMContentLoaded", () => { const s = document.createElement("style"); s.textContent = ":root { color-scheme: dark } html { background-color: rgb(23, 23, 23); color: rgb(204, 204, 204) }"; document.head.append(s); }));
  await page.goto(`http://site${site}.duckdns.org:${port}/${PAGE}`, { waitUntil: "load" });
  if (dark && process.env.ON_LATE) {
    await new Promise((r) => setTimeout(r, 2000));
    await setAuto(true);
  }
  if (!dark && process.env.OFF_WORLD_JS) {
    const c = await env.ctx.newCDPSession(page);
    const { frameTree } = await c.send("Page.getFrameTree");
    const { executionContextId } = await c.send("Page.createIsolatedWorld", { frameId: frameTree.frame.id, worldName: "bench" });
    const r = await c.send("Runtime.evaluate", { expression: process.env.OFF_WORLD_JS, contextId: executionContextId, returnByValue: true });
    console.log(`OFF_WORLD_JS gave ${JSON.stringify(r.result?.value ?? r.exceptionDetails?.text)}`);
    await c.detach();
  }
  await new Promise((r) => setTimeout(r, Number(process.env.WAIT ?? 3000)));
  const cdp = await env.ctx.newCDPSession(page);
  await cdp.send("HeapProfiler.collectGarbage");
  const heap = await cdp.send("Runtime.getHeapUsage");
  const world = await isolatedWorld(cdp);
  const layers = new Promise((r) => cdp.once("LayerTree.layerTreeDidChange", (e) => r((e.layers ?? []).map((l) => `${l.width}x${l.height}${l.drawsContent ? "" : " (no content)"}`))));
  await cdp.send("LayerTree.enable");
  await page.evaluate(() => window.scrollBy(0, 1)).catch(() => {});
  const layerList = await Promise.race([layers, new Promise((r) => setTimeout(() => r(["?"]), 3000))]);
  await cdp.send("LayerTree.disable");
  const dom = await cdp.send("Memory.getDOMCounters");
  await cdp.detach();
  await new Promise((r) => setTimeout(r, 1000));
  const out = await allocatorDump(await env.ctx.newCDPSession(page));
  const tabs = tabRenderers();
  const pssOf = Object.fromEntries(tabs.map((t) => [t, pss(t)]));
  const ussOf = Object.fromEntries(tabs.map((t) => [t, uss(t)]));
  const smapsOf = Object.fromEntries(tabs.map((t) => { try { return [t, readFileSync(`/proc/${t}/smaps`, "utf8")]; } catch { return [t, ""]; } }));
  const shown = await page.evaluate(() => document.documentElement.hasAttribute("data-dusk") || getComputedStyle(document.body).backgroundColor);
  await page.close();
  // The page's renderer is the one that goes with it.
  await new Promise((r) => setTimeout(r, 1500));
  const left = new Set(tabRenderers());
  const gone = tabs.filter((t) => !left.has(t));
  if (gone.length !== 1) console.error(`renderers gone with the page: ${gone}`);
  const pid = gone[0];
  const big = wasmMemories(smapsOf[pid] ?? "");
  const anon = anonymous(smapsOf[pid] ?? "");
  const kinds = ussByKind(smapsOf[pid] ?? "");
  const row = { kinds, world, anon, layerList, big, dark: shown, pss: pssOf[pid], uss: ussOf[pid], heap, dom, alloc: out[pid] ?? {} };
  return row;
}

const off = await arm(0, false);
const on = await arm(1, true);
await setAuto(false);
const MB = (b) => (b / 1048576).toFixed(2);
console.log(`page ${PAGE} (dark mark off: ${off.dark}, on: ${on.dark})`);
console.log(`PSS off ${off.pss.toFixed(1)} MB, on ${on.pss.toFixed(1)} MB, +${(on.pss - off.pss).toFixed(1)}; USS off ${off.uss.toFixed(1)}, on ${on.uss.toFixed(1)}, +${(on.uss - off.uss).toFixed(1)}`);
const top = (a) => Object.entries(a).filter(([k]) => !k.includes("/") && k !== "shared_memory").reduce((s, [, v]) => s + v, 0);
console.log(`USS by mapping: ${[...new Set([...Object.keys(off.kinds), ...Object.keys(on.kinds)])].map((k) => `${k} off ${(off.kinds[k] ?? 0).toFixed(2)}, on ${(on.kinds[k] ?? 0).toFixed(2)}`).join("; ")}`);
console.log(`memory-infra's allocators (shared memory left out) off ${MB(top(off.alloc))}, on ${MB(top(on.alloc))}, Δ ${MB(top(on.alloc) - top(off.alloc))}`);
console.log(`wasm memories off: ${off.big.join("; ") || "none"}\nwasm memories on: ${on.big.join("; ") || "none"}`);
console.log(`the isolated world's WebAssembly memories: off ${off.world.memories.map(MB).join(", ") || "none"}, on ${on.world.memories.map(MB).join(", ") || "none"} MB`);
console.log(`anonymous executable (JIT code) PSS off ${off.anon.exec.toFixed(2)}, on ${on.anon.exec.toFixed(2)}; anonymous read-write off ${off.anon.rw.toFixed(1)}, on ${on.anon.rw.toFixed(1)}`);
console.log(`layers off: ${off.layerList.join(", ")}\nlayers on: ${on.layerList.join(", ")}`);
console.log(`V8 heap used off ${MB(off.heap.usedSize)} total ${MB(off.heap.totalSize)}; on ${MB(on.heap.usedSize)} total ${MB(on.heap.totalSize)}`);
console.log(`DOM counters off ${JSON.stringify(off.dom)} on ${JSON.stringify(on.dom)}`);
const keys = [...new Set([...Object.keys(off.alloc), ...Object.keys(on.alloc)])].filter((k) => k.split("/").length <= (process.env.DEPTH ?? 3));
const rows = keys.map((k) => [k, off.alloc[k] ?? 0, on.alloc[k] ?? 0]).filter(([, a, b]) => Math.abs(b - a) > 100_000 || b > 2_000_000).sort((x, y) => (y[2] - y[1]) - (x[2] - x[1]));
for (const [k, a, b] of rows) console.log(`${k.padEnd(60)} off ${MB(a).padStart(7)}  on ${MB(b).padStart(7)}  Δ ${MB(b - a)}`);
await env.close();
await corpus.close();
