// The browser agent as the user sees it while it acts: the mask and its Stop, labelled screenshots
// in hybrid mode, and clear endings for bad input (no provider, a page Dusk can't read, a
// malformed reply).
import assert from "node:assert/strict";
import { agentPanel, outcome, runTask, stepTexts } from "./agent_panel.mjs";
import { colourSpot } from "../lib/pixels.mjs";

/** Where the mask's pink Stop button (#ff3d7f) is painted, found in a screenshot of the page. */
async function stopButtonAt(env, page) {
  return colourSpot(await env.extPage(), await page.screenshot(), [255, 61, 127]);
}

export const tests = [
  ["the page shows the mask while the agent acts, and its Stop ends the run", async (env) => {
    const { page, panel } = await agentPanel(env, "/pages/simple.html");
    env.llm.script(
      { toolCalls: [{ name: "get_elements", args: {} }] },
      { toolCalls: [{ name: "scroll", args: { direction: "down", amount: 50 } }] },
      { delayMs: 20_000, text: "This reply comes too late: the user stops the run first." },
    );
    await runTask(panel, "Scroll a little, then wait");
    await env.llm.waitForRequests(3, { timeoutMs: 15_000 });
    await page.bringToFront();
    // The mask outlives the model's long think: the worker's heartbeat renews it.
    await new Promise((r) => setTimeout(r, 2500));
    const stop = await stopButtonAt(env, page);
    assert.ok(stop, "the mask with its Stop button is on the page while the model thinks");
    const t0 = Date.now();
    await page.mouse.click(stop.x, stop.y);
    const end = await outcome(panel, 5000);
    assert.equal(end.state, "stopped");
    assert.ok(Date.now() - t0 < 2000, `stopped in ${Date.now() - t0} ms`);
    assert.equal(env.llm.lastRequest().aborted, true, "the model call in flight was cut off");
    await new Promise((r) => setTimeout(r, 600));
    assert.equal(env.llm.requests().length, 3, "no model call after Stop");
    assert.equal(await stopButtonAt(env, page), null, "the mask is gone once the run ended");
  }],

  ["hybrid mode sends labelled screenshots at most 1024 px wide and shows them as thumbnails", async (env) => {
    const { page, panel } = await agentPanel(env, "/pages/tall.html", { mode: "hybrid" });
    await page.setViewportSize({ width: 1600, height: 900 });
    env.llm.script(
      { toolCalls: [{ name: "get_elements", args: {} }] },
      { toolCalls: [{ name: "scroll", args: { direction: "down", amount: 300 } }] },
      { text: "Looked." },
    );
    await runTask(panel, "Look at the page");
    assert.deepEqual(await outcome(panel), { state: "done", text: "Looked." });
    const reqs = env.llm.requests();
    const images = (req) => req.body.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((c) => c.type === "image_url").map((c) => c.image_url.url);
    assert.equal(images(reqs[0]).length, 1, "the first message carries a screenshot");
    const [shot] = images(reqs[2]);
    assert.ok(shot, "the action's result carries a screenshot");
    const size = await panel.evaluate(async (src) => {
      const img = new Image();
      img.src = src;
      await img.decode();
      return [img.width, img.height];
    }, shot);
    assert.ok(size[0] <= 1024 && size[0] >= 600, `screenshot ${size}`);
    assert.ok(await panel.locator(".agent-step img.thumb").count() >= 1, "the step list shows a thumbnail");
  }],

  ["without a provider the panel says what to do, and nothing runs", async (env) => {
    const { panel } = await agentPanel(env, "/pages/simple.html");
    await (await env.extPage()).evaluate(() => chrome.storage.local.remove("settings"));
    await runTask(panel, "Click Go");
    const end = await outcome(panel);
    assert.equal(end.state, "failed");
    assert.match(end.text, /settings/i);
    assert.equal(env.llm.requests().length, 0);
    assert.equal(await panel.locator("#agent-run").getAttribute("data-state"), "send", "Stop turned back into Send");
    await panel.fill("#agent-task", "Click Go");
    assert.equal(await panel.locator("#agent-run").isDisabled(), false, "the task can be run again");
  }],

  ["a malformed model reply ends with a clear message and the panel is ready again", async (env) => {
    const { panel } = await agentPanel(env, "/pages/simple.html");
    env.llm.setDefault({ malformed: true });
    await runTask(panel, "Click Go");
    const end = await outcome(panel);
    assert.equal(end.state, "failed");
    assert.ok(end.text.length > 10, end.text);
    assert.equal(await panel.locator("#agent-run").getAttribute("data-state"), "send");
    env.llm.setDefault({ text: "Fine now." });
    await runTask(panel, "Try again");
    await panel.waitForFunction(() => document.querySelector("#agent-answer.done")?.textContent.includes("Fine now."));
  }],

  ["the model's arguments are checked against each tool's schema and a mistake names the field", async (env) => {
    const { panel } = await agentPanel(env, "/pages/simple.html");
    env.llm.script(
      { toolCalls: [{ name: "scroll", args: { direction: "sideways" } }] },
      { text: "I will stop here." },
    );
    await runTask(panel, "Scroll");
    await outcome(panel);
    const result = env.llm.requests()[1].body.messages.at(-1).content;
    assert.match(result, /direction/);
    assert.match((await stepTexts(panel))[0], /^scroll.* — .*direction/i, "the step says what was tried and why it failed");
  }],

  ["a model without function calling drives the agent with JSON in its replies", async (env) => {
    const { page, panel } = await agentPanel(env, "/pages/simple.html");
    await page.evaluate(() => document.querySelector("#go").addEventListener("click", () => (document.title = "went")));
    const strings = (req) => JSON.stringify(req.body);
    env.llm.setDefault((req) => {
      if (req.hasTools) return { rejectTools: true };
      const body = strings(req);
      const go = body.match(/\[(\d+)\] button \\*"Go/);
      if (!go) return { text: "Listing first.\n```json\n{\"tool\": \"get_elements\", \"args\": {}}\n```" };
      if (!/clicked/i.test(body)) return { text: `\`\`\`json\n{"tool": "click", "args": {"index": ${go[1]}}}\n\`\`\`` };
      return { text: "Clicked Go." };
    });
    await runTask(panel, "Click Go");
    const end = await outcome(panel);
    assert.deepEqual(end, { state: "done", text: "Clicked Go." });
    assert.equal(await page.title(), "went", "the click the model wrote as JSON happened");
    assert.ok(env.llm.requests().some((r) => r.body.messages[0].content.includes("You call tools by writing JSON")), "the tools were described in the prompt");
    // Remembered for the browser session: the next task describes them at once, with no second refusal.
    const before = env.llm.requests().length;
    await runTask(panel, "Click Go again");
    assert.deepEqual(await outcome(panel), { state: "done", text: "Clicked Go." });
    const again = env.llm.requests().slice(before);
    assert.ok(again.length > 0 && again.every((r) => !r.body.tools), "no request of the second task offered tools natively");
  }],

  ["navigate, go_back, go_forward and refresh each answer once the page they lead to is ready", async (env) => {
    const { page, panel } = await agentPanel(env, "/pages/agent/nav-a.html");
    // A page the user never touched is skipped by Back (Chromium's history intervention), as it would be for them.
    await page.bringToFront();
    await page.click("h1");
    const b = `${env.base}/pages/agent/nav-b.html`;
    env.llm.script(
      { toolCalls: [{ name: "navigate", args: { url: b } }] },
      { toolCalls: [{ name: "go_back", args: {} }] },
      { toolCalls: [{ name: "go_forward", args: {} }] },
      { toolCalls: [{ name: "refresh", args: {} }] },
      { text: "Back on page B." },
    );
    await runTask(panel, "Visit B, go back, forward, and reload");
    assert.deepEqual(await outcome(panel), { state: "done", text: "Back on page B." });
    const results = env.llm.lastRequest().body.messages.filter((m) => m.role === "tool").map((m) => JSON.parse(m.content));
    assert.deepEqual(results.map((r) => r.success), [true, true, true, true], JSON.stringify(results));
    assert.equal(results[0].data.url, b);
    assert.match(results[0].data.page, /<<<PAGE\nURL: .*nav-b\.html[\s\S]*Your name/, "the new page's summary, read after it loaded");
    assert.match(results[1].data.url, /nav-a\.html$/);
    assert.equal(results[2].data.url, b);
    assert.match(results[3].data.message, /^Reloaded: .*nav-b\.html/);
    assert.match(results[3].data.new_elements, /"Your name"/, "the reloaded page's elements are new");
    assert.equal(page.url(), b);
  }],

  ["closing the panel mid-run loses nothing: reopened, it shows the steps and the answer arrives", async (env) => {
    const { panel } = await agentPanel(env, "/pages/tall.html");
    env.llm.script(
      { toolCalls: [{ name: "scroll", args: { direction: "down", amount: 400 } }] },
      { delayMs: 2500, text: "Scrolled, and done." },
    );
    await runTask(panel, "Scroll once");
    await env.llm.waitForRequests(2, { timeoutMs: 10_000 });
    await panel.close();
    const again = await env.open(env.extUrl("sidepanel.html"));
    await again.click("#mode-agent");
    await again.locator(".agent-step").first().waitFor({ state: "attached" });
    assert.match((await stepTexts(again))[0], /^Scrolled down/);
    assert.equal(await again.locator("#agent-run").getAttribute("data-state"), "stop", "the reopened panel knows the run is going");
    assert.deepEqual(await outcome(again), { state: "done", text: "Scrolled, and done." });
    assert.equal(await again.locator(".agent-task").textContent(), "Scroll once");
  }],

  ["go_back onto a page Dusk can't read says so at once", async (env) => {
    const { page, panel } = await agentPanel(env, "/pages/agent/nav-a.html");
    env.llm.script(
      { toolCalls: [{ name: "navigate", args: { url: `${env.base}/pages/agent/nav-b.html` } }] },
      { toolCalls: [{ name: "go_back", args: {} }] },
      { text: "Ended up somewhere unreadable." },
    );
    // nav-a had no user activation, so Back skips it and lands on the tab's first page, about:blank.
    const t0 = Date.now();
    await runTask(panel, "Go to B and back");
    assert.equal((await outcome(panel)).state, "done");
    const back = env.llm.lastRequest().body.messages.filter((m) => m.role === "tool").map((m) => JSON.parse(m.content))[1];
    assert.equal(back.success, false);
    assert.match(back.error, /can't read/, back.error);
    assert.ok(Date.now() - t0 < 8000, `answered in ${Date.now() - t0} ms, not after a 15 s timeout`);
    assert.ok(page);
  }],

  ["execute_js works on a strict-CSP page through user scripts; without them it says how to allow them", async (env) => {
    const { page, panel } = await agentPanel(env, "/pages/agent/script.html?csp=strict");
    const code = 'document.getElementById("status").textContent = "scripted"; return document.title;';
    const policy = (req) => {
      const tools = req.body.messages.filter((m) => m.role === "tool");
      return tools.length ? { text: `Result: ${tools.at(-1).content}` } : { toolCalls: [{ name: "execute_js", args: { code } }] };
    };
    env.llm.setDefault(policy);
    const approveNext = async () => {
      await panel.locator(".confirm-card button.approve").waitFor();
      await panel.locator(".confirm-card button.approve").dispatchEvent("click");
    };
    await runTask(panel, "Mark the page");
    await approveNext();
    const first = await outcome(panel);
    assert.match(first.text, /"success":true/, first.text);
    assert.equal(await page.locator("#status").textContent(), "scripted", "ran in the page's main world despite its CSP");
    await page.evaluate(() => (document.getElementById("status").textContent = "untouched"));
    await env.setUserScripts(false);
    try {
      await runTask(panel, "Mark the page again");
      await approveNext();
      const second = await outcome(panel);
      assert.match(second.text, /Allow User Scripts/, second.text);
      assert.equal(await page.locator("#status").textContent(), "untouched");
    } finally {
      await env.setUserScripts(true);
    }
  }],

  ["options: the agent's mode, turn limit and per-site policies are saved, and a bad line is named", async (env) => {
    const options = await env.open(env.extUrl("options.html"));
    await options.selectOption("#agent-mode", "vision");
    await options.fill("#agent-max-turns", "12");
    await options.fill("#agent-sites", "bank.example = block\nshop.example = sometimes");
    await options.click("#agent-save");
    await options.waitForFunction(() => /line 2/.test(document.querySelector("#agent-result").textContent));
    await options.fill("#agent-sites", "https://Bank.example/ = block\nshop.example = ask");
    await options.click("#agent-save");
    await options.waitForFunction(() => document.querySelector("#agent-result").classList.contains("ok"));
    const stored = await options.evaluate(() => chrome.storage.local.get("agent_settings").then((s) => s.agent_settings));
    assert.deepEqual(stored, { mode: "vision", max_turns: 12, sites: { "bank.example": "block", "shop.example": "always_ask" }, ask_before_acting: false, use_debugger: true });
    await options.reload();
    assert.equal(await options.inputValue("#agent-max-turns"), "12");
    assert.equal(await options.inputValue("#agent-sites"), "bank.example = block\nshop.example = ask");
  }],
];
