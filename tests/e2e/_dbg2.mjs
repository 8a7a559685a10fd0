import { launch } from "/work/wt-page/tests/e2e/env.mjs";
import { rpc } from "/work/wt-page/tests/e2e/page-helpers.mjs";
const env = await launch();
for (const [path, reqs] of JSON.parse(process.argv[2])) {
  const url = `${env.base}${path}`;
  const page = await env.open(url);
  await page.waitForLoadState("load");
  for (const r of reqs) { const t0 = Date.now(); console.log(Date.now() - t0, JSON.stringify(await rpc(env, url, r)).slice(0, 300)); }
  await env.cleanup();
}
await env.close();
