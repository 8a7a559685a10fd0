// Prints the bad-input probes as a Markdown table (probe, expected, observed, ms) for the README.
// Run after ./build.sh: node tests/hardening_table.mjs
import { launch } from "./e2e/env.mjs";
import { runProbes } from "./e2e/probes.mjs";

const env = await launch();
const url = `${env.base}/pages/hostile/probe.html`;
await env.open(url);
const rows = await runProbes(env, url);
await env.close();
const cell = (s) => String(s).replaceAll("|", "\\|").replaceAll("`", "'").replace(/\\"/g, '"');
console.log("| probe | expected (patterns) | observed | ms | |\n|---|---|---|---|---|");
// The sweep of every message type with wrong field types is one row: each answered clearly, the slowest took max ms.
const sweep = rows.filter((r) => r[0].endsWith("with wrong field types"));
const named = rows.filter((r) => !sweep.includes(r));
if (sweep.length) named.push([`all ${sweep.length} content-RPC and worker message types, every field of the wrong type`, "a clear error or a clear answer", `${sweep.filter((r) => r[4]).length} of ${sweep.length} clear; e.g. ${sweep[1][2]}`, Math.max(...sweep.map((r) => r[3])), sweep.every((r) => r[4])]);
for (const [name, expected, observed, ms, ok] of named) console.log(`| ${cell(name)} | ${cell(expected)} | ${cell(observed)} | ${ms} | ${ok ? "ok" : "**FAIL**"} |`);
console.log(`\n${rows.filter((r) => r[4]).length} of ${rows.length} probes answered as expected`);
