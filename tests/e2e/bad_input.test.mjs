// Bad input to the worker and the content script gets a clear answer in bounded time, and both
// still answer ping afterwards. The probes (tests/e2e/probes.mjs) also make the README's table.
import assert from "node:assert/strict";
import { runProbes } from "./probes.mjs";
import { rpc } from "./page-helpers.mjs";

export const tests = [
  ["every probe of bad input gets a clear answer within 10 s, and both sides still answer ping", async (env) => {
    const url = `${env.base}/pages/hostile/probe.html`;
    const page = await env.open(url);
    const rows = await runProbes(env, url);
    const bad = rows.filter((r) => !r[4]);
    assert.deepEqual(bad, [], bad.map((r) => `${r[0]}: expected /${r[1]}/, got ${r[2]} in ${r[3]} ms`).join("\n"));
    assert.equal((await rpc(env, url, { type: "ping" })).type, "pong");
    assert.equal((await env.sendToWorker({ type: "ping" })).type, "pong");
    assert.equal(await page.inputValue("#field"), "مرحبا 👋🏽 שלום", "RTL and emoji text arrives exactly");
  }],
];
