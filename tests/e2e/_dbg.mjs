import { launch } from "/work/wt-page/tests/e2e/env.mjs";
import { rpc } from "/work/wt-page/tests/e2e/page-helpers.mjs";
const env = await launch();
const url = `${env.base}${process.argv[2]}`;
const page = await env.open(url);
await page.waitForLoadState("load");
for (const r of JSON.parse(process.argv[3])) {
  const t0 = Date.now();
  const out = await rpc(env, url, r);
  console.log(Date.now() - t0, "ms", JSON.stringify(out).slice(0, 1500));
}
await env.close();
