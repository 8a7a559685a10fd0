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
for (const [name, expected, observed, ms, ok] of rows) console.log(`| ${cell(name)} | ${cell(expected)} | ${cell(observed)} | ${ms} | ${ok ? "ok" : "**FAIL**"} |`);
console.log(`\n${rows.filter((r) => r[4]).length} of ${rows.length} probes answered as expected`);
