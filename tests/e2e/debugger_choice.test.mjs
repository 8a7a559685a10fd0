// Options → Browser agent's "Find clickable parts with Chrome's debugger": on by default; off,
// Dusk never attaches the debugger, a run still completes, its listing lacks elements whose only
// sign of being clickable is their own listener, and the panel says so once.
import assert from "node:assert/strict";
import { agentTest, outcome, startRun, usePolicy } from "./agent_panel.mjs";
import { answer, lastListing, toolCall } from "./agent_policy.mjs";

/** Counts the worker's `chrome.debugger.attach` calls from now on. */
async function countAttaches(env) {
  const worker = await env.serviceWorker();
  await worker.evaluate(() => {
    self.duskAttaches = 0;
    if (!self.duskAttach) {
      self.duskAttach = chrome.debugger.attach;
      chrome.debugger.attach = function (...args) {
        self.duskAttaches++;
        return self.duskAttach.apply(this, args);
      };
    }
  });
  return () => worker.evaluate(() => self.duskAttaches);
}

/**
 * Whether Dusk's debugger is attached to `tabId`, asked from its service worker. Playwright's own
 * CDP client makes every target of `chrome.debugger.getTargets()` read `attached: true`, so the
 * test asks Chrome the way Dusk would: an extension can attach to a tab once, and a second attach
 * fails with "already attached". If it succeeds, Dusk was not attached; the test detaches at once.
 */
async function duskAttachedTo(env, tabId) {
  const worker = await env.serviceWorker();
  return worker.evaluate(async (tabId) => {
    const target = (await chrome.debugger.getTargets()).find((t) => t.tabId === tabId);
    if (!target) throw new Error(`no debugger target for tab ${tabId}`);
    const attach = self.duskAttach ?? chrome.debugger.attach;
    try {
      await attach.call(chrome.debugger, { tabId }, "1.3");
    } catch (e) {
      if (/already attached/i.test(String(e?.message ?? e))) return true;
      throw e;
    }
    await chrome.debugger.detach({ tabId });
    return false;
  }, tabId);
}

/** Lists the page, then answers with the names it was shown, slowly, so the run is still alive while the test looks. */
const listThenAnswer = (p) => (p.last ? { ...answer(`Listed: ${lastListing(p).map((e) => e.text).join(" | ")}`), delayMs: 1500 } : toolCall("get_elements", {}));

/** Runs the listing task; returns what the test saw while the model wrote its answer, and after. */
async function listingRun(env, panel, tabId) {
  const attaches = await countAttaches(env);
  usePolicy(env, listThenAnswer);
  await startRun(panel, "List the cards on this page");
  await panel.waitForFunction(() => document.querySelector('.agent-step[data-tool="get_elements"]:not(.running)'), null, { timeout: 20_000 });
  const during = await duskAttachedTo(env, tabId);
  const end = await outcome(panel);
  const notes = await panel.locator(".run-note").allTextContents();
  return { during, end, notes, attaches: await attaches() };
}

export const tests = [
  ["options: the debugger switch is on by default, says what it does and that Chrome shows a bar, and Space turns it off keeping the other agent settings", async (env) => {
    const ext = await env.extPage();
    await ext.evaluate(() => chrome.storage.local.set({ agent_settings: { max_turns: 7, sites: { "bank.example": "block" }, mode: "dom" } }));
    const page = await env.open(env.extUrl("options.html#browser-agent"));
    const toggle = page.locator("#agent-debugger");
    await toggle.waitFor();
    assert.equal(await toggle.getAttribute("role"), "switch");
    assert.equal(await toggle.getAttribute("aria-checked"), "true", "on by default");
    assert.equal(await page.locator("#agent-debugger-label").textContent(), "Find clickable parts with Chrome's debugger");
    const hint = await page.locator(`#${await toggle.getAttribute("aria-describedby")}`).textContent();
    assert.match(hint, /click/i);
    assert.match(hint, /Chrome shows .*bar/);
    await toggle.focus();
    await page.keyboard.press("Space");
    await page.waitForFunction(() => document.querySelector("#agent-result")?.textContent === "Saved.");
    assert.equal(await toggle.getAttribute("aria-checked"), "false");
    const stored = await ext.evaluate(async () => (await chrome.storage.local.get("agent_settings")).agent_settings);
    assert.equal(stored.use_debugger, false);
    assert.deepEqual([stored.max_turns, stored.sites, stored.mode], [7, { "bank.example": "block" }, "dom"], "the other settings are kept");
    // The section's Save keeps the switch's choice too.
    await page.click("#agent-save");
    await page.waitForFunction(() => document.querySelector("#agent-result")?.textContent === "Saved.");
    await page.reload();
    await page.locator("#agent-debugger").waitFor();
    assert.equal(await page.locator("#agent-debugger").getAttribute("aria-checked"), "false", "the choice is kept");
  }],

  agentTest("switched off: a run completes, Dusk attaches the debugger to nothing, the listing lacks the listener-only cards, and the panel says so once", "/pages/listeners.html", { mode: "dom", use_debugger: false }, async (env, { panel, tabId }) => {
    const { during, end, notes, attaches } = await listingRun(env, panel, tabId);
    assert.equal(end.state, "done", end.text);
    assert.equal(during, false, "Dusk's debugger is not attached to the run's tab while it works");
    assert.equal(attaches, 0, "chrome.debugger.attach was never called");
    assert.ok(!end.text.includes("Plain card"), `a card whose only sign is its listener is not listed: ${end.text}`);
    assert.equal(notes.length, 1, JSON.stringify(notes));
    assert.match(notes[0], /debugger is off.*clickable only through their own script/);
  }),

  agentTest("switched on (the default): the listing finds the listener-only cards through the debugger and no note is shown", "/pages/listeners.html", { mode: "dom" }, async (env, { panel, tabId }) => {
    const { during, end, notes, attaches } = await listingRun(env, panel, tabId);
    assert.equal(end.state, "done", end.text);
    assert.equal(during, true, "Dusk's debugger is attached to the run's tab while it works");
    assert.ok(attaches >= 1);
    assert.ok(end.text.includes("Plain card") && end.text.includes("Shadow card"), end.text);
    assert.deepEqual(notes, []);
  }),
];
