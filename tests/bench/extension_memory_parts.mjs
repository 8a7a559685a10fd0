// Benchmark (not a test): what Dusk's extension process holds with dark mode on. Dark mode is
// switched on from the popup (as a user does, the popup then closed), three corpus pages load on
// sites of their own, and after SETTLE_MS (10 s) the worker is garbage-collected; then, for the
// extension's renderer: PSS and USS, Chrome's memory-infra dump by allocator, the WebAssembly
// memories (as in dark_memory_parts.mjs) and the JIT code. Again after LATER_MS (35 s) more.
// POPUP=0: the popup is never opened (dark mode stays off), so the process holds the worker alone;
// with DUSK_DIST=<an unpacked extension whose worker only listens>, Chrome's floor for one.
// The first reading's trace leaves Chrome's tracing buffer mapped in every process (memory-infra
// `shared_memory`, about 5 MB), which the later reading's PSS counts in part.
// DUMP_JSON=<prefix>: each reading's PSS, USS and allocators also go to <prefix>.<reading>.json.
// Usage: [POPUP=0] [RESTART=1] [SETTLE_MS=10000] [LATER_MS=35000] [DUMP_JSON=prefix] node tests/bench/extension_memory_parts.mjs
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { launch } from "../e2e/env.mjs";
import { startFixtureServer } from "../e2e/fixture-server.mjs";
import { extensionPid, gcWorker, rollupOf } from "./chromium_processes.mjs";
import { allocatorDump } from "./memory_dump.mjs";
import { setAllSites } from "./popup_switch.mjs";

const profile = mkdtempSync(path.join(tmpdir(), "dusk-ext-parts-"));
// RESTART=1: the browser is started once and closed first, so the run sees a user's later days, not the install's first-run page.
if (process.env.RESTART === "1") await (await launch({ profile })).close();
const env = await launch({ profile });
// Chrome installs a --load-extension folder again at every start, and Dusk's welcome page comes with it.
await new Promise((r) => setTimeout(r, 2000));
for (const p of env.ctx.pages()) if (p.url().endsWith("/welcome.html")) await p.close();
await env.ctx.route(/^(https?|wss?):\/\/(?!(127\.0\.0\.1|[a-z0-9-]+\.duckdns\.org)[:/])/, (r) => r.abort());
const corpus = await startFixtureServer("corpus");
const port = new URL(corpus.url).port;
const PAGES = ["readability/mozilla-1/index.html", "git-docs/git-doc/user-manual.html", "apps/adminlte/index3.html"];

function maps(pid) {
  const smaps = readFileSync(`/proc/${pid}/smaps`, "utf8").split(/\n(?=[0-9a-f]+-[0-9a-f]+ )/).map((m) => {
    const head = m.split("\n")[0].trim().split(/\s+/);
    const [start, end] = head[0].split("-").map((h) => BigInt(`0x${h}`));
    return { start, end, perms: head[1], path: head[5], pss: Number(m.match(/^Pss:\s+(\d+)/m)?.[1] ?? 0) / 1024 };
  });
  const wasm = [];
  for (let i = 1; i < smaps.length; i++) {
    const m = smaps[i], before = smaps[i - 1];
    if (m.perms.startsWith("---") && m.end - before.start >= 1000n << 30n && before.end === m.start && before.perms.startsWith("rw")) wasm.push(`${(Number(before.end - before.start) / 1048576).toFixed(2)} MB long, PSS ${before.pss.toFixed(2)}`);
  }
  const exec = smaps.filter((m) => !m.path && m.perms.includes("x")).reduce((a, m) => a + m.pss, 0);
  return { ...rollupOf(pid), wasm, exec };
}

if (process.env.POPUP !== "0") await setAllSites(env, port, true);
for (const [i, p] of PAGES.entries()) await (await env.ctx.newPage()).goto(`http://site${i}.duckdns.org:${port}/${p}`, { waitUntil: "load" });

const MB = (b) => (b / 1048576).toFixed(2);
for (const [label, ms] of [["after settling", Number(process.env.SETTLE_MS ?? 10_000)], ["later", Number(process.env.LATER_MS ?? 35_000)]]) {
  await new Promise((r) => setTimeout(r, ms));
  const alive = await gcWorker(env);
  const targets = await env.ctx.browser().newBrowserCDPSession().then((c) => c.send("Target.getTargets"));
  console.log(`extension targets: ${targets.targetInfos.filter((t) => t.url.startsWith("chrome-extension://")).map((t) => `${t.type} ${t.url.split("/").pop()}`).join(", ")}`);
  const pid = extensionPid(profile);
  const all = await allocatorDump(await env.ctx.browser().newBrowserCDPSession());
  const a = all[pid] ?? {};
  const m = maps(pid);
  console.log(`== ${label}: extension process PSS ${m.pss.toFixed(1)} MB (USS ${m.uss.toFixed(1)}), worker alive ${alive}; wasm memories: ${m.wasm.join("; ") || "none"}; JIT code PSS ${m.exec.toFixed(2)}`);
  if (process.env.DUMP_JSON) writeFileSync(`${process.env.DUMP_JSON}.${label.replace(/ /g, "_")}.json`, JSON.stringify({ ...m, allocators: a }));
  const keys = Object.keys(a).filter((k) => k.split("/").length <= Number(process.env.DEPTH ?? 3) && a[k] > 200_000 && !k.startsWith("shared_memory/"));
  for (const k of keys.sort((x, y) => a[y] - a[x])) console.log(`${k.padEnd(60)} ${MB(a[k]).padStart(7)}`);
}
await env.close();
await corpus.close();
rmSync(profile, { recursive: true, force: true });
