// Standalone runner for tests/e2e/llm_server.test.mjs so the server can be checked without the e2e harness.
import { tests } from '../e2e/llm_server.test.mjs';

let passed = 0;
let failed = 0;
for (const [name, fn] of tests) {
  const t0 = Date.now();
  try {
    await fn({});
    passed++;
    console.log(`ok   ${name} (${Date.now() - t0}ms)`);
  } catch (err) {
    failed++;
    console.log(`FAIL ${name}\n     ${String(err?.stack ?? err).split('\n').join('\n     ')}`);
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
