// Runs in parallel never cross: an agent in each of two windows and Thorough dark mode in a third
// tab, at once. Cards, approvals, Stop, the toolbar badge and the popup each stay with their run,
// checked on each page. The scripted model reads only its requests.
import assert from "node:assert/strict";
import { cardInfo, pickTab, press, startRun, usePolicy } from "./agent_panel.mjs";
import { answer, byText, lastListing, parseRequest, toolCall } from "./agent_policy.mjs";
import { configure } from "./chat_panel.mjs";
import { fixture, isDark, resetMemory, setSite, until } from "./dark.mjs";

const inWorker = async (env, fn, arg) => (await env.serviceWorker()).evaluate(fn, arg);
const badge = (env, tabId) => inWorker(env, (id) => chrome.action.getBadgeText({ tabId: id }), tabId);
const status = (page) => page.locator("#status").textContent();
/** The popup's run stage, or null when it shows no run. */
const stage = (popup) => popup.evaluate(() => document.querySelector("#dark-run")?.getAttribute("data-stage") ?? null);
const cards = (panel) => panel.evaluate(() => [...document.querySelectorAll(".confirm-card")].map((c) => ({ step: c.dataset.step, runId: c.dataset.runId, target: c.querySelector(".confirm-target")?.textContent ?? "" })));
const answerOf = (panel) => panel.evaluate(() => {
  const a = document.querySelector("#agent-answer");
  return a.hidden ? "" : ["done", "failed", "stopped"].find((c) => a.classList.contains(c)) ?? "";
});

/** Lists buttons, clicks the one labelled `label`, answers with how it went. */
const clickPolicy = (label) => (p) => {
  if (!p.last) return toolCall("get_elements", { filter: "button" });
  if (p.last.name === "get_elements") return toolCall("click", { index: byText(lastListing(p), label).index });
  return answer(p.last.result.success ? `Clicked "${label}".` : `Not clicked: ${p.last.result.error}`);
};

/** A side panel in Agent mode, in the window of `tabId`. */
async function agentPanelIn(panel, tabId) {
  await panel.click("#mode-agent");
  await pickTab(panel, tabId);
  return panel;
}

export const tests = [
  ["two windows, three runs at once: cards, approvals, Stop, badges and the popup each stay with their own run", async (env) => {
    await resetMemory(env);
    await configure(env);
    const ext = await env.extPage();
    await ext.evaluate(() => chrome.storage.local.set({ agent_settings: { mode: "dom", max_turns: 10, sites: {} } }));
    // Agents: each task gets its own policy; Thorough: scripted rules, slow enough to overlap.
    usePolicy(env, (p) => (/Pay for my order/.test(p.task) ? clickPolicy("Pay now")(p) : clickPolicy("Delete account")(p)));
    env.llm.script(
      { match: { contains: '"tool":"get_color_palette"' }, reply: { text: "The theme is fine as it is.", delayMs: 2500, omitUsage: true } },
      { match: { hasTools: true, contains: "Refine the theme" }, reply: { toolCalls: [{ name: "get_color_palette", args: {} }], delayMs: 1500, omitUsage: true } },
    );

    // Window A: the checkout page and its panel; the dark page (Thorough) in a third tab.
    const urlA = `${env.base}/pages/agent/checkout.html`;
    const pageA = await env.open(urlA);
    const tabA = await env.tabIdFor(urlA);
    const panelA = await agentPanelIn(await env.open(env.extUrl("sidepanel.html")), tabA);
    const urlC = fixture(env, "agent.html");
    const pageC = await env.open(urlC);
    await setSite(env, urlC, true);
    await until(() => isDark(pageC), "Instant to darken the Thorough page");
    const tabC = await env.tabIdFor(urlC);

    // Window B: the account page and a panel of its own.
    const urlB = `${env.base}/pages/agent/account.html`;
    const windowB = await ext.evaluate(([a, b]) => chrome.windows.create({ url: [a, b], focused: false }).then((w) => w.id), [urlB, env.extUrl("sidepanel.html")]);
    await until(() => env.ctx.pages().some((p) => p.url() === urlB) && env.ctx.pages().filter((p) => p.url().endsWith("sidepanel.html")).length === 2, "window B's two tabs");
    const pageB = env.ctx.pages().find((p) => p.url() === urlB);
    const panelPageB = env.ctx.pages().filter((p) => p.url().endsWith("sidepanel.html")).find((p) => p !== panelA);
    await pageB.waitForLoadState("load");
    await panelPageB.waitForLoadState("load");
    const tabB = await env.tabIdFor(urlB);
    assert.notEqual(await ext.evaluate((id) => chrome.tabs.get(id).then((t) => t.windowId), tabA), windowB, "two windows");
    const panelB = await agentPanelIn(panelPageB, tabB);
    try {
      // Three runs at once.
      await startRun(panelA, "Pay for my order.");
      await startRun(panelB, "Delete my account.");
      const popupC = await env.ctx.newPage();
      await popupC.goto(env.extUrl(`popup.html?tab=${tabC}`));
      await popupC.locator("input[value=thorough]").click();

      await until(async () => (await cards(panelA)).length === 1 && (await cards(panelB)).length === 1, "a card in each window's panel", 20_000);
      const [cardA] = await cards(panelA);
      const [cardB] = await cards(panelB);
      assert.match(cardA.target, /Pay now/, "window A's panel shows only its own run's card");
      assert.match(cardB.target, /Delete account/, "window B's panel shows only its own run's card");
      assert.notEqual(cardA.runId, cardB.runId);
      await until(async () => (await stage(popupC)) === "refining", "Thorough to be refining");
      assert.deepEqual([await badge(env, tabA), await badge(env, tabB), await badge(env, tabC)], ["…", "…", "…"], "each working tab shows it");
      const popupA = await env.ctx.newPage();
      await popupA.goto(env.extUrl(`popup.html?tab=${tabA}`));
      await popupA.locator("#dark h2").waitFor();
      assert.notEqual(await stage(popupA), "refining", "tab A's popup shows no Thorough run");
      await popupA.close();

      // Stop in window A stops only window A's run.
      await press(panelA, "#agent-run[data-state=stop]");
      await until(async () => (await answerOf(panelA)) === "stopped", "run A to stop");
      assert.equal(await status(pageA), "Not paid");
      assert.equal((await cards(panelB)).length, 1, "window B's card still waits");
      assert.equal(await answerOf(panelB), "", "run B goes on");
      await until(async () => (await badge(env, tabA)) !== "…", "tab A's badge to drop the working mark");
      assert.equal(await badge(env, tabB), "…");

      // Window B's approval answers window B's card only.
      const infoB = await cardInfo(panelB, cardB.step);
      await press(panelB, `.confirm-card[data-step="${infoB.step}"] button.approve`);
      await until(async () => (await answerOf(panelB)) === "done", "run B to finish");
      assert.equal(await status(pageB), "Account deleted");
      assert.equal(await status(pageA), "Not paid", "window A's page is untouched");

      // Thorough finishes on its own page.
      await until(async () => (await stage(popupC)) === "done", "Thorough to finish", 20_000);
      assert.match(await popupC.locator("#dark-run-message").textContent(), /fine as it is/);
      assert.ok(await isDark(pageC), "its page stays dark");
      await until(async () => (await badge(env, tabC)) === "on", "tab C's badge back to on");
      const agentRequests = env.llm.requests().map((r) => parseRequest(r)).filter((p) => /Pay for|Delete my/.test(p.task));
      assert.ok(agentRequests.length >= 3, `${agentRequests.length} agent requests`);
      for (const p of agentRequests) {
        const own = /Pay for my order/.test(p.task) ? urlA : urlB;
        assert.equal(p.page.url, own, `each run reads its own page: ${p.task}`);
      }
      await popupC.close();
    } finally {
      await panelA.evaluate(() => document.querySelector("#agent-run[data-state=stop]")?.click()).catch(() => {});
      await panelB.evaluate(() => document.querySelector("#agent-run[data-state=stop]")?.click()).catch(() => {});
      await ext.evaluate((id) => chrome.windows.remove(id), windowB).catch(() => {});
      await setSite(env, urlC, false).catch(() => {});
      await resetMemory(env);
    }
  }],
];
