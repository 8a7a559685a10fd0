// The agent runtime in the real extension, through the chat's pass 2: a run survives the worker
// being killed mid-run, Stop ends it within 500 ms, a closed tab interrupts it, and it exports.
import assert from "node:assert/strict";
import { answerText, ask, configure, panelFor } from "./chat_panel.mjs";

const toolResults = (req) => req.body.messages.filter((m) => m.role === "tool").map((m) => JSON.parse(m.content.split(" [")[0]));
const steps = (panel) => panel.locator(".msg.step").allTextContents();

/** Export run, from the toolbar's More menu. */
async function exportRun(panel) {
  await panel.locator("#more").click();
  await panel.locator("#export-run").click();
  await panel.locator("#run-export").waitFor({ state: "attached" });
}

export const tests = [
  ["a multi-step run finishes correctly after the worker is killed mid-run", async (env) => {
    await configure(env);
    env.llm.script(
      { text: "NEED_TOOLS: the treasure is further down" },
      { toolCalls: [{ name: "scroll", args: { direction: "down", screens: 1 } }] },
      { toolCalls: [{ name: "scroll", args: { direction: "down", screens: 1.5 } }] },
      { delayMs: 8000, text: "This reply never arrives: the worker dies while waiting for it." },
      { text: "The treasure is buried under the **old oak**." },
    );
    const { panel, pages } = await panelFor(env, ["/pages/tall.html"]);
    await ask(panel, "Where is the treasure?");
    const reqs = await env.llm.waitForRequests(4, { timeoutMs: 15_000 });
    const scrolledBefore = await pages[0].evaluate(() => window.scrollY);
    assert.ok(scrolledBefore >= 1900, `both scrolls ran before the kill (${scrolledBefore})`);
    await env.stopWorkers();

    assert.equal(await answerText(panel), "The treasure is buried under the old oak.");
    const all = env.llm.requests();
    assert.equal(all.length, 5, "the call in flight was issued again, once");
    assert.equal(all[3].aborted, true, "the killed worker's call was cut off");
    const again = all[4];
    assert.deepEqual(again.body.messages.map((m) => m.role), all[3].body.messages.map((m) => m.role), "the same call, re-issued from the checkpoint");
    assert.deepEqual(toolResults(again).map((r) => [r.tool, r.success]), [["scroll", true], ["scroll", true]]);
    assert.equal(await pages[0].evaluate(() => window.scrollY), scrolledBefore, "finished steps were not redone");
    assert.deepEqual((await steps(panel)).filter((t) => t.includes("Scrolled down")).length, 2, "the reconnected panel shows the steps from the checkpoint");
    assert.equal(await panel.locator("#send").getAttribute("data-state"), "send", "the one button is Send again");
    await panel.reload();
    await panel.locator(".msg.assistant").first().waitFor();
    assert.equal((await panel.locator(".msg.assistant .md").textContent()).trim(), "The treasure is buried under the old oak.");
    assert.equal(await panel.locator(".msg.assistant .note.error").count(), 0, "no 'interrupted' placeholder is left");
    assert.equal(reqs.length >= 4, true);
  }],

  ["Stop ends a pass-2 run within 500 ms and keeps what it did", async (env) => {
    await configure(env);
    const chunks = Array.from({ length: 60 }, (_, i) => `word${i} `);
    env.llm.script(
      { text: "NEED_TOOLS: look further down" },
      { toolCalls: [{ name: "scroll", args: { direction: "down", screens: 1 } }] },
      { chunks, chunkDelayMs: 250 },
    );
    const { panel, pages } = await panelFor(env, ["/pages/tall.html"]);
    await ask(panel, "What is further down?");
    await panel.waitForFunction(() => /word1/.test(document.querySelector(".msg.assistant .md")?.textContent || ""));
    const ms = await panel.evaluate(() => new Promise((resolve) => {
      const t0 = performance.now();
      const done = () => document.querySelector(".msg.assistant .note.stopped") && document.querySelector("#send").dataset.state === "send";
      new MutationObserver(() => done() && resolve(performance.now() - t0)).observe(document.body, { subtree: true, childList: true, attributes: true });
      document.querySelector("#send[data-state=stop]").click();
    }));
    assert.ok(ms <= 500, `stopped in ${ms.toFixed(0)} ms`);
    assert.ok((await pages[0].evaluate(() => window.scrollY)) > 500, "the scroll it already did stays");
    assert.ok((await steps(panel)).some((t) => t.includes("Scrolled down")));
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(env.llm.lastRequest().aborted, true, "the HTTP stream was aborted");
    await exportRun(panel);
    const href = await panel.locator("#run-export").getAttribute("href");
    const run = JSON.parse(decodeURIComponent(href.slice(href.indexOf(",") + 1)));
    assert.equal(run.status.state, "stopped");
    assert.deepEqual(run.steps.map((s) => [s.tool, s.success]), [["scroll", true]]);
  }],

  ["a run whose tab closed before its worker died ends saying so when the worker comes back", async (env) => {
    await configure(env);
    env.llm.script(
      { text: "NEED_TOOLS: scroll" },
      { toolCalls: [{ name: "scroll", args: { direction: "down" } }] },
      { delayMs: 8000, text: "never arrives" },
      { text: "should not be asked" },
    );
    const { panel, pages } = await panelFor(env, ["/pages/tall.html"]);
    await ask(panel, "Where is the treasure?");
    await env.llm.waitForRequests(3, { timeoutMs: 15_000 });
    // The tab goes first: the panel wakes a stopped worker at once, which would race a later close.
    await pages[0].close();
    await env.stopWorkers();
    await panel.locator(".msg.assistant .note.error").waitFor({ timeout: 15_000 });
    assert.match(await panel.locator(".msg.assistant .note.error").textContent(), /interrupted: the tab was closed/);
    assert.equal(env.llm.requests().length, 3, "no model call for a closed tab");
    assert.equal(await panel.locator("#send").getAttribute("data-state"), "send", "the one button is Send again");
  }],

  ["the step list exports as JSON with tools, tokens and timings, never the API key", async (env) => {
    await configure(env);
    env.llm.script(
      { text: "NEED_TOOLS: see it" },
      { toolCalls: [{ name: "screenshot", args: { tab: 1 } }], usage: { input: 1200, output: 20 } },
      { toolCalls: [{ name: "scroll", args: { direction: "sideways" } }] },
      { text: "A tall page with a heading." },
    );
    const { panel } = await panelFor(env, ["/pages/tall.html"]);
    await ask(panel, "What does it look like?");
    assert.equal(await answerText(panel), "A tall page with a heading.");
    const bad = toolResults(env.llm.lastRequest()).at(-1);
    assert.equal(bad.success, false);
    assert.match(bad.error, /field `direction`: unknown variant `sideways`, expected `up` or `down`/);
    await exportRun(panel);
    const href = await panel.locator("#run-export").getAttribute("href");
    const text = decodeURIComponent(href.slice(href.indexOf(",") + 1));
    assert.ok(!text.includes("sk-test"), "no API key in the export");
    const run = JSON.parse(text);
    assert.equal(run.status.state, "finished");
    assert.deepEqual(run.steps.map((s) => [s.tool, s.success]), [["screenshot", true], ["scroll", false]]);
    assert.equal(run.steps[0].input_tokens, 1200);
    assert.ok(run.steps.every((s) => s.tool_ms >= 0 && s.overhead_ms >= 0));
    assert.ok(!JSON.stringify(run).includes("base64"), "screenshots are not in the export");
  }],
];
