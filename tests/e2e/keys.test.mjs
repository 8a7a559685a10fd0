// The API key goes to the provider in the auth header and nowhere else: not into any page's DOM,
// any console, any content-script reply, chrome.storage.session, or an exported run.
import assert from "node:assert/strict";
import { agentPanel, exported, outcome, runTask } from "./agent_panel.mjs";
import { rpc } from "./page-helpers.mjs";

const KEY = "sk-test-SECRET-7f3a9c2e";

export const tests = [
  ["the API key reaches only the provider's auth header", async (env) => {
    const consoles = [];
    const listen = (target, where) => target.on("console", (m) => consoles.push(`${where}: ${m.text()}`));
    env.ctx.serviceWorkers().forEach((w) => listen(w, "worker"));
    env.ctx.on("page", (p) => listen(p, p.url()));
    env.ctx.pages().forEach((p) => listen(p, p.url()));

    const { page, panel, url } = await agentPanel(env, "/pages/simple.html");
    const ext = await env.extPage();
    await ext.evaluate((key) => chrome.storage.local.get("settings").then(({ settings }) => {
      settings.providers[0].api_key = key;
      return chrome.storage.local.set({ settings });
    }), KEY);

    // An agent run with a step, so there is a transcript to export and a checkpoint in session storage.
    env.llm.script({ toolCalls: [{ name: "get_elements", args: {} }] }, { text: "Listed." });
    await runTask(panel, "List the elements");
    assert.equal((await outcome(panel)).state, "done");
    const run = await exported(panel);
    // The options page shows the settings as the worker hands them out.
    const options = await env.open(env.extUrl("options.html"));
    await options.waitForSelector("input");
    const replies = [
      await rpc(env, url, { type: "ping" }),
      await rpc(env, url, { type: "page_summary" }),
      await rpc(env, url, { type: "get_elements" }),
      await env.sendToWorker({ type: "get_settings" }),
      await env.sendToWorker({ type: "get_status" }),
    ];

    const places = {
      "exported run": JSON.stringify(run),
      "storage.session": JSON.stringify(await ext.evaluate(() => chrome.storage.session.get(null))),
      "content-script and worker replies": JSON.stringify(replies),
      consoles: consoles.join("\n"),
    };
    for (const p of [page, panel, options, ext]) {
      places[`DOM of ${p.url()}`] = await p.evaluate(() => document.documentElement.outerHTML + [...document.querySelectorAll("input, textarea")].map((i) => i.value).join("\n"));
    }
    for (const [where, text] of Object.entries(places)) assert.ok(!text.includes(KEY), `the key leaked into ${where}`);

    const requests = env.llm.requests();
    assert.ok(requests.length >= 2);
    for (const r of requests) {
      assert.equal(r.headers.authorization, `Bearer ${KEY}`, "sent in the auth header");
      const elsewhere = JSON.stringify({ body: r.body, path: r.path, query: r.query }) + JSON.stringify(Object.entries(r.headers).filter(([k]) => k !== "authorization"));
      assert.ok(!elsewhere.includes(KEY), "and nowhere else in the request");
    }
  }],
];
