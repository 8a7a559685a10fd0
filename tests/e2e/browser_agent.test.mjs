// The browser agent end to end, through the side panel's Agent mode. The model is a scripted
// policy (agent_policy.mjs) that reads only the requests it gets; the tests read the page and the
// panel. MiniWoB tasks, confirmation cards and forged approvals, blocked sites, navigation and
// new tabs, a worker killed mid-task, Stop, and file upload.
import assert from "node:assert/strict";
import { agentPanel as openAgentPanel, agentTest as panelTest, callsIn, decide, exported, finish, lastCallOfRun, nextCard, press, startRun, stopRun, usePolicy } from "./agent_panel.mjs";
import { rpc } from "./page-helpers.mjs";
import { answer, byText, elementsOf, lastListing, parseRequest, policies, toolCall, toolCalls, typePolicy } from "./agent_policy.mjs";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const SEEDS = ["dusk-1", "dusk-2", "dusk-3"];
const MINIWOB_TASK = "Do what the page's instructions say.";
/** Cards a MiniWoB run must show: one per password typed. */
const APPROVALS = { "login-user": 1, "enter-password": 2 };

// ---------------------------------------------------------------- panel helpers

/** Provider and agent settings (dom mode unless `settings` says otherwise), the page, and the panel in Agent mode on its tab. */
const agentPanel = (env, path, settings = {}) => openAgentPanel(env, path, { mode: "dom", ...settings });

const status = (page) => page.locator("#status").textContent();

/** A test with the panel set up in dom mode unless `settings` says otherwise. */
const agentTest = (name, path, settings, body) => panelTest(name, path, (env) => ({ mode: "dom", ...(typeof settings === "function" ? settings(env) : settings) }), body);

// ---------------------------------------------------------------- small policies for the fixture pages

/** List `filter`, click the element with `label`, answer with how it went. */
const clickPolicy = (label, filter = "button") => (p) => {
  if (!p.last) return toolCall("get_elements", { filter });
  if (p.last.name === "get_elements") {
    const el = byText(lastListing(p), label);
    return el ? toolCall("click", { index: el.index }) : answer(`There is no "${label}" on the page.`);
  }
  return answer(p.last.result.success ? `Clicked "${label}".` : `Could not click "${label}": ${p.last.result.error}`);
};


// ---------------------------------------------------------------- MiniWoB

async function miniwob(env, task) {
  usePolicy(env, policies[task]);
  const { page, panel } = await agentPanel(env, `/miniwob/miniwob/${task}.html`, { mode: "dom", max_turns: 12 });
  await page.waitForFunction(() => typeof core === "object" && document.getElementById("sync-task-cover"));
  try {
    for (const seed of SEEDS) {
      await page.evaluate((s) => {
        Math.seedrandom(s);
        core.EPISODE_MAX_TIME = 60000;
        core.startEpisodeReal();
      }, seed);
      const before = env.llm.requests().length;
      await startRun(panel, MINIWOB_TASK);
      const end = await finish(panel, { onCard: "approve" });
      const turns = env.llm.requests().length - before;
      console.log(`TURNS ${task} ${seed} ${turns}`);
      assert.equal(end.state, "done", `${task} ${seed}: the run ended ${end.state}: ${end.text}`);
      assert.equal(await page.evaluate(() => WOB_DONE_GLOBAL), true, `${task} ${seed}: the episode did not end (${end.text})`);
      const reward = await page.evaluate(() => WOB_RAW_REWARD_GLOBAL);
      assert.ok(reward > 0, `${task} ${seed}: reward ${reward} (${await page.evaluate(() => WOB_REWARD_REASON)}); answer: ${end.text}`);
      assert.equal(end.cards.length, APPROVALS[task] ?? 0, `${task} ${seed}: approvals ${JSON.stringify(end.cards.map((c) => c.action))}`);
      assert.ok(turns <= 6, `${task} ${seed}: ${turns} model turns`);
    }
  } finally {
    await stopRun(panel);
  }
}

const miniwobTests = Object.keys(policies).map((task) => [`MiniWoB ${task} through the panel: 3 seeds, reward > 0 each`, (env) => miniwob(env, task)]);

// ---------------------------------------------------------------- safety

const safetyTests = [
  agentTest("Pay now asks first: Deny leaves it unpaid and tells the model; a new run's Approve pays", "/pages/agent/checkout.html", { mode: "auto" }, async (env, { page, panel }) => {
    usePolicy(env, clickPolicy("Pay now"));
    await startRun(panel, "Pay for my order.");
    const card = await nextCard(panel);
    assert.match(card.action, /click/i);
    assert.match(card.target, /Pay now/);
    assert.match(card.page, /checkout\.html/);
    assert.equal(await status(page), "Not paid", "nothing happens while the card waits");
    await decide(panel, card, "deny");
    const denied = await finish(panel);
    assert.equal(denied.state, "done", denied.text);
    assert.equal(await status(page), "Not paid");
    const told = env.llm.requests().map(callsIn).find((calls) => calls.some((c) => c.name === "click" && c.result));
    assert.ok(told, "the model got the click's result");
    const click = told.find((c) => c.name === "click");
    assert.equal(click.result.success, false);
    assert.match(click.result.error, /the user declined/);
    assert.ok((await panel.locator(".agent-step.failed").count()) >= 1, "the declined step is shown as failed");

    await startRun(panel, "Pay for my order.");
    const again = await nextCard(panel);
    await decide(panel, again, "approve");
    const paid = await finish(panel);
    assert.equal(paid.state, "done", paid.text);
    assert.equal(await status(page), "Payment sent");
    assert.equal(lastCallOfRun(env).result.success, true);
    assert.ok((await panel.locator(".agent-step img.thumb").count()) >= 1, "auto mode with a vision model shows step screenshots");
  }),

  agentTest("typing a card number asks first; Deny leaves the field empty", "/pages/agent/checkout.html", {}, async (env, { page, panel }) => {
    usePolicy(env, typePolicy("Card number", "4111 1111 1111 1111"));
    await startRun(panel, "Fill in my card number 4111 1111 1111 1111.");
    const card = await nextCard(panel);
    assert.match(card.action, /type/i);
    assert.match(card.target, /Card number|input/);
    assert.match(card.text, /4111 1111 1111 1111/, "the card shows what would be typed");
    await decide(panel, card, "deny");
    const end = await finish(panel);
    assert.equal(end.state, "done", end.text);
    assert.equal(await page.inputValue("#card"), "");
    assert.match(lastCallOfRun(env).result.error, /the user declined/);
  }),

  agentTest("execute_js asks first and shows the script; Approve runs it", "/pages/agent/script.html", {}, async (env, { page, panel }) => {
    const code = 'document.getElementById("status").textContent = "changed by the agent"; return "ok";';
    usePolicy(env, (p) => (p.last ? answer(`The script returned: ${JSON.stringify(p.last.result.data ?? p.last.result.error)}`) : toolCall("execute_js", { code })));
    await startRun(panel, "Set the status with a script.");
    const card = await nextCard(panel);
    assert.match(card.action, /execute_js|script/i);
    assert.ok(card.text.includes('textContent = "changed by the agent"'), `the card shows the code: ${card.text}`);
    assert.equal(await status(page), "untouched");
    await decide(panel, card, "approve");
    const end = await finish(panel);
    assert.equal(end.state, "done", end.text);
    assert.equal(await status(page), "changed by the agent");
    const result = lastCallOfRun(env).result;
    assert.equal(result.success, true, result.error);
    assert.match(JSON.stringify(result.data), /ok/);
  }),

  agentTest("a blocked site is never touched: no card, every call refused as blocked", "/pages/agent/account.html",
    (env) => ({ sites: { [new URL(env.base).host]: "block" } }), async (env, { page, panel, url }) => {
      // The policy is given the index up front, as a model that guessed right would have it.
      const save = (await rpc(env, url, { type: "get_elements", filter: "button", visible_only: false })).elements.find((e) => e.text === "Save profile");
      assert.ok(save, "the page has Save profile");
      usePolicy(env, (p) => {
        if (!p.last) return toolCall("get_elements", { filter: "button" });
        if (p.last.name === "get_elements") return toolCall("click", { index: save.index });
        return answer(`Stopped: ${p.last.result.error}`);
      });
      await startRun(panel, "Save my profile.");
      const end = await finish(panel, { onCard: () => assert.fail("a blocked site showed a confirmation card") });
      assert.equal(end.state, "done", end.text);
      assert.equal(await status(page), "Account active");
      const calls = callsIn(env.llm.lastRequest());
      assert.deepEqual(calls.map((c) => c.name), ["get_elements", "click"]);
      for (const c of calls) {
        assert.equal(c.result.success, false, `${c.name} ran on a blocked site`);
        assert.match(c.result.error, /blocked/);
      }
      assert.equal(await panel.locator(".agent-step.failed").count(), 2);
    }),

  agentTest("a prompt injection on the page still meets the card: Deny keeps the account", "/pages/agent/account.html", {}, async (env, { page, panel }) => {
    // A gullible model: it does what the page text tells it.
    usePolicy(env, (p) => {
      if (!/click Delete account/i.test(p.page.text)) return answer("Nothing to do.");
      return clickPolicy("Delete account")(p);
    });
    await startRun(panel, "Tidy up my account settings.");
    const card = await nextCard(panel);
    assert.match(card.target, /Delete account/);
    await decide(panel, card, "deny");
    const end = await finish(panel);
    assert.equal(end.state, "done", end.text);
    assert.equal(await status(page), "Account active");
    const first = parseRequest(env.llm.requests()[0]);
    assert.match(first.summary, /Note to AI assistants/, "the page text reached the model");
    assert.ok(!first.system.includes("Note to AI assistants"), "page text never goes into the system prompt");
    assert.match(lastCallOfRun(env).result.error, /the user declined/);
  }),

  agentTest("forged approvals (runtime message, another page's port, a wrong token) change nothing", "/pages/agent/checkout.html", {}, async (env, { page, panel, tabId }) => {
    usePolicy(env, clickPolicy("Pay now"));
    await startRun(panel, "Pay for my order.");
    const card = await nextCard(panel);
    assert.ok(card.runId && card.step && card.digest, `the card names its run, step and digest: ${JSON.stringify(card)}`);
    const ext = await env.extPage();
    const windowId = await ext.evaluate((id) => chrome.tabs.get(id).then((t) => t.windowId), tabId);
    const forged = { run_id: card.runId, step: Number(card.step), digest: card.digest, token: "forged" };
    const viaPort = (p, message) => p.evaluate((m) => new Promise((resolve) => {
      const port = chrome.runtime.connect({ name: "agent" });
      const got = [];
      port.onMessage.addListener((x) => got.push(x));
      port.postMessage(m);
      setTimeout(() => { port.disconnect(); resolve(got); }, 500);
    }), message);

    await ext.evaluate((m) => chrome.runtime.sendMessage(m).catch((e) => String(e)), { type: "agent_approve", ...forged, digest: "anything" });
    const fromOptions = await viaPort(ext, { type: "approve", window_id: windowId, ...forged });
    assert.ok(fromOptions.some((m) => m.type === "error"), `a port from another page is refused: ${JSON.stringify(fromOptions)}`);
    const fromPanel = await viaPort(panel, { type: "approve", window_id: windowId, ...forged });
    assert.ok(fromPanel.some((m) => m.type === "error" && /refused/.test(m.message)), `a wrong token is refused: ${JSON.stringify(fromPanel)}`);

    await sleep(1000);
    assert.equal(await status(page), "Not paid");
    assert.equal(await panel.locator(`.confirm-card[data-step="${card.step}"]`).count(), 1, "the card still waits");
    await decide(panel, card, "deny");
    const end = await finish(panel);
    assert.equal(end.state, "done", end.text);
    assert.equal(await status(page), "Not paid");
  }),
];

// ---------------------------------------------------------------- navigation, tabs, worker, Stop, upload

/** nav-a → "Go to page B" → type the name and Save, from the elements the navigation reported. */
const pageBPolicy = (name) => (p) => {
  if (!p.last) return toolCall("get_elements", { filter: "link" });
  const failed = p.calls.find((c) => c.result && !c.result.success);
  if (failed) return answer(`Could not: ${failed.result.error}`);
  if (p.last.name === "get_elements" && !p.calls.some((c) => c.name === "click")) {
    const link = byText(lastListing(p), "Go to page B");
    return link ? toolCall("click", { index: link.index }) : answer("No link to page B.");
  }
  if (p.calls.some((c) => c.name === "type")) return answer(`Saved the name ${name} on page B.`);
  const seen = p.last.name === "get_elements" ? lastListing(p) : elementsOf(p.last);
  const field = byText(seen, "Your name");
  const save = byText(seen, "Save");
  if (!field || !save) return p.last.name === "get_elements" ? answer("Page B has no form.") : toolCall("get_elements", {});
  return toolCalls(["type", { index: field.index, text: name }], ["click", { index: save.index }]);
};

const flowTests = [
  agentTest("navigation: a link to page B, then its form, from what the navigation reported", "/pages/agent/nav-a.html", {}, async (env, { page, panel }) => {
    usePolicy(env, pageBPolicy("Ada"));
    await startRun(panel, "Go to page B and save my name, Ada.");
    const end = await finish(panel);
    assert.equal(end.state, "done", end.text);
    assert.equal(end.text, "Saved the name Ada on page B.");
    assert.match(page.url(), /\/pages\/agent\/nav-b\.html$/);
    assert.equal(await status(page), "Saved: Ada");
    const calls = callsIn(env.llm.lastRequest());
    const nav = calls.find((c) => c.name === "click");
    assert.match(nav.result.data.url ?? "", /nav-b\.html$/, "the click's result names the new URL");
    assert.ok(elementsOf(nav).some((e) => e.text === "Your name"), "and lists page B's elements as new");
    assert.deepEqual(calls.map((c) => [c.name, c.result.success]), [["get_elements", true], ["click", true], ["type", true], ["click", true]]);

    const run = await exported(panel);
    assert.ok(!JSON.stringify(run).includes("sk-test"), "no API key in the export");
    assert.equal(run.status.state, "finished");
    assert.deepEqual(run.steps.map((s) => [s.tool, s.success]), [["get_elements", true], ["click", true], ["type", true], ["click", true]]);
  }),

  agentTest("a link that opens a new tab: the run follows it and answers from it", "/pages/agent/nav-a.html", {}, async (env, { page, panel }) => {
    usePolicy(env, (p) => {
      if (!p.last) return toolCall("get_elements", { filter: "link" });
      if (p.last.name === "get_elements") {
        const link = byText(lastListing(p), "Open help in a new tab");
        return link ? toolCall("click", { index: link.index }) : answer("No help link.");
      }
      const code = JSON.stringify(p.last.result.data ?? "").match(/secret code is (\d+)/i)?.[1];
      return answer(code ? `The secret code is ${code}.` : `I opened help but saw no code: ${JSON.stringify(p.last.result)}`);
    });
    try {
      // As in real use (the panel is beside the page, not a tab): the page is the active tab, so
      // Chrome records it as the new tab's opener. With the panel tab active, the opener would be the panel.
      await page.bringToFront();
      await startRun(panel, "Open the help page in a new tab and tell me the secret code.");
      const end = await finish(panel);
      assert.equal(end.state, "done", end.text);
      assert.match(end.text, /4417/);
      const click = lastCallOfRun(env);
      assert.equal(click.result.success, true);
      assert.ok(click.result.data.tab || /new tab/.test(click.result.data.note ?? ""), `the result says a tab opened: ${JSON.stringify(click.result.data)}`);
      assert.ok(env.ctx.pages().some((p) => p.url().endsWith("/pages/agent/nav-help.html")), "the help tab is open");
      assert.match(page.url(), /nav-a\.html$/, "the first tab stayed on page A");
    } finally {
      for (const p of env.ctx.pages()) if (p.url().endsWith("/nav-help.html")) await p.close().catch(() => {});
    }
  }),

  agentTest("the worker is killed while the model thinks: the run resumes, finishes, and does not redo the Save", "/pages/agent/nav-b.html", {}, async (env, { page, panel }) => {
    await page.evaluate(() => {
      window.saves = 0;
      document.getElementById("save").addEventListener("click", () => window.saves++);
    });
    let slowed = false;
    usePolicy(env, (p) => {
      if (!p.last) return toolCall("get_elements", {});
      if (p.last.name === "get_elements") {
        const list = lastListing(p);
        return toolCalls(["type", { index: byText(list, "Your name").index, text: "Grace" }], ["click", { index: byText(list, "Save").index }]);
      }
      const reply = answer("Saved Grace.");
      if (slowed) return reply;
      slowed = true;
      return { ...reply, delayMs: 8000 };
    });
    await startRun(panel, "Save my name, Grace.");
    await env.llm.waitForRequests(3, { timeoutMs: 20_000 });
    assert.equal(await status(page), "Saved: Grace");
    await env.stopWorkers();

    const end = await finish(panel, { timeout: 30_000 });
    assert.equal(end.state, "done", end.text);
    assert.equal(end.text, "Saved Grace.");
    const all = env.llm.requests();
    assert.equal(all.length, 4, "the call in flight was issued once more");
    assert.equal(all[2].aborted, true, "the killed worker's call was cut off");
    assert.deepEqual(callsIn(all[3]).map((c) => [c.name, c.result?.success]), callsIn(all[2]).map((c) => [c.name, c.result?.success]), "the same call, from the checkpoint");
    assert.equal(await page.evaluate(() => window.saves), 1, "Save was clicked once");
    assert.equal(await status(page), "Saved: Grace");
  }),

  agentTest("Stop while the model thinks ends the run within 1 s and no model call follows", "/pages/agent/nav-b.html", {}, async (env, { panel }) => {
    usePolicy(env, (p) => (p.last ? { ...toolCall("get_elements", { filter: "button" }), delayMs: 6000 } : toolCall("get_elements", {})));
    await startRun(panel, "Look around.");
    await env.llm.waitForRequests(2, { timeoutMs: 20_000 });
    await sleep(200);
    const ms = await panel.evaluate(() => new Promise((resolve) => {
      const t0 = performance.now();
      const done = () => {
        const a = document.querySelector("#agent-answer");
        return a && !a.hidden && a.classList.contains("stopped");
      };
      new MutationObserver(() => done() && resolve(performance.now() - t0)).observe(document.body, { subtree: true, childList: true, attributes: true });
      document.querySelector("#agent-run[data-state=stop]").click();
    }));
    assert.ok(ms <= 1000, `stopped in ${ms.toFixed(0)} ms`);
    assert.equal(await panel.locator("#agent-run").getAttribute("data-state"), "send");
    await sleep(1500);
    assert.equal(env.llm.requests().length, 2, "no model call after Stop");
    assert.equal(env.llm.requests()[1].aborted, true, "the slow call was cut off");
  }),

  agentTest("upload_file: the card takes the file, Approve puts it into the page's input", "/pages/agent/upload.html", {}, async (env, { page, panel }) => {
    usePolicy(env, (p) => {
      if (!p.last) return toolCall("get_elements", { filter: "input" });
      if (p.last.name === "get_elements") {
        const input = lastListing(p).find((e) => e.type === "file");
        return input ? toolCall("upload_file", { index: input.index }) : answer("No file input.");
      }
      return answer(p.last.result.success ? "Attached the file you picked." : `Not attached: ${p.last.result.error}`);
    });
    await startRun(panel, "Attach a file to the form.");
    const card = await nextCard(panel);
    assert.equal(card.file, true, "an upload card has a file picker");
    await panel.setInputFiles(`.confirm-card[data-step="${card.step}"] input[type="file"]`, {
      name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello dusk"),
    });
    await decide(panel, card, "approve");
    const end = await finish(panel);
    assert.equal(end.state, "done", end.text);
    assert.equal(end.text, "Attached the file you picked.");
    assert.equal(await status(page), "Attached: notes.txt (10 bytes)");
  }),
];

export const tests = [...miniwobTests, ...safetyTests, ...flowTests];
