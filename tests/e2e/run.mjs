// Runs every tests/e2e/*.test.mjs in one Chromium with the extension loaded; prints "N passed, M failed".
import { readdirSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import path from "node:path";
import { launch } from "./env.mjs";

const dir = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv[2];
const files = readdirSync(dir).filter((f) => f.endsWith(".test.mjs") && (!only || f.includes(only))).sort();

const env = await launch();
let passed = 0, failed = 0;
for (const file of files) {
  const { tests } = await import(pathToFileURL(path.join(dir, file)));
  for (const [name, fn] of tests) {
    const t0 = Date.now();
    try {
      await withTimeout(fn(env), 60_000);
      passed++;
      console.log(`ok   ${file} › ${name} (${Date.now() - t0} ms)`);
    } catch (e) {
      failed++;
      console.log(`FAIL ${file} › ${name}\n     ${String(e?.stack || e).split("\n").slice(0, 6).join("\n     ")}`);
    }
    // A browser that can no longer be reset fails the test it ran, and the run goes on to say so.
    try {
      await env.cleanup();
    } catch (e) {
      failed++;
      console.log(`FAIL ${file} › ${name} (resetting the browser afterwards)\n     ${String(e?.stack || e).split("\n").slice(0, 3).join("\n     ")}`);
    }
  }
}
await env.close().catch((e) => console.log(`closing the browser: ${e?.message || e}`));
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);

function withTimeout(promise, ms) {
  let timer;
  const timeout = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
