// Accessibility of Dusk's own pages: axe-core (npm) finds no serious or critical violation on the
// popup, side panel, options and first-run pages, in the light and the dark colour scheme; every
// control is reachable by keyboard and shows where the focus is.
import assert from "node:assert/strict";
import { serious } from "./axe.mjs";
import { agentPanel, nextCard, startRun, stopRun, usePolicy } from "./agent_panel.mjs";
import { answer, byText, lastListing, toolCall } from "./agent_policy.mjs";
import { answerText, ask, configure, panelFor } from "./chat_panel.mjs";
import { fixture, isDark, openAdjust, resetMemory, setSite, until } from "./dark.mjs";

const PAGES = [
  ["popup", (env, tab) => env.extUrl(`popup.html?tab=${tab}`), "#dark-site"],
  ["side panel", (env) => env.extUrl("sidepanel.html"), "#question"],
  ["options", (env) => env.extUrl("options.html"), "#custom-sites details"],
  ["first-run page", (env) => env.extUrl("welcome.html"), "#welcome-data"],
];

export const tests = [
  ["axe finds no serious or critical violation on Dusk's pages, light and dark", async (env) => {
    const site = await env.open(`${env.base}/pages/simple.html`);
    const tab = await env.tabIdFor(site.url());
    // A customised site (with JS, while user scripts are off), so options shows its editors and notice.
    await env.sendToWorker({ type: "custom_save", host: "a11y.example", css: "p { margin: 0 }", js: "void 0;" });
    const found = [];
    for (const scheme of ["light", "dark"]) {
      for (const [name, url, ready] of PAGES) {
        const page = await env.open(url(env, tab));
        await page.emulateMedia({ colorScheme: scheme });
        await page.waitForSelector(ready);
        await page.waitForTimeout(150);
        for (const v of await serious(page)) found.push(`${name}, ${scheme}: ${v}`);
        await page.close();
      }
    }
    await env.sendToWorker({ type: "custom_delete", host: "a11y.example" });
    assert.deepEqual(found, []);
  }],

  ["axe finds no serious or critical violation on the popup's adjustments, a running Thorough and its result card, light and dark", async (env) => {
    await resetMemory(env);
    await configure(env);
    const url = fixture(env, "agent.html");
    const site = await env.open(url);
    await setSite(env, url, true);
    await until(() => isDark(site), "dark");
    const popup = await env.open(env.extUrl(`popup.html?tab=${await env.tabIdFor(url)}`));
    await openAdjust(popup);
    const stage = () => popup.evaluate(() => document.querySelector("#dark-run")?.getAttribute("data-stage") ?? null);
    const found = [];
    const check = async (state) => {
      for (const scheme of ["light", "dark"]) {
        await popup.emulateMedia({ colorScheme: scheme });
        for (const v of await serious(popup)) found.push(`popup ${state}, ${scheme}: ${v}`);
      }
    };
    try {
      await check("with the adjustments");
      env.llm.script(
        { match: { contains: '"tool":"get_color_palette"' }, reply: { text: "Fine as it is.", delayMs: 300 } },
        { match: { hasTools: true, contains: "Refine the theme" }, reply: { toolCalls: [{ name: "get_color_palette", args: {} }], delayMs: 2500 } },
      );
      await popup.locator("input[value=thorough]").click();
      await until(async () => (await stage()) === "refining", "Thorough to refine", 15_000);
      await check("during Thorough");
      await until(async () => (await stage()) === "done", "Thorough to end", 20_000);
      await check("after Thorough");
    } finally {
      await popup.close();
      await resetMemory(env);
      await (await env.extPage()).evaluate(() => chrome.storage.local.remove(["settings", "dark_history:127.0.0.1", "dark_theme:127.0.0.1"]));
    }
    assert.deepEqual(found, []);
  }],

  ["every control on the popup, side panel, options and first-run page is reached by Tab and shows a focus ring", async (env) => {
    const site = await env.open(`${env.base}/pages/simple.html`);
    const tab = await env.tabIdFor(site.url());
    for (const url of [env.extUrl(`popup.html?tab=${tab}`), env.extUrl("sidepanel.html"), env.extUrl("options.html"), env.extUrl("welcome.html")]) {
      const page = await env.open(url);
      await page.waitForTimeout(300);
      const controls = await page.evaluate(() => [...document.querySelectorAll("button, input, select, textarea, summary, a[href]")]
        .filter((el) => !el.disabled && el.getClientRects().length && getComputedStyle(el).visibility !== "hidden")
        .filter((el) => el.tagName === "SUMMARY" || !el.closest("details:not([open])")).length);
      const unmarked = [];
      for (let i = 0; i < controls + 3; i++) {
        await page.keyboard.press("Tab");
        const f = await page.evaluate(() => {
          const el = document.activeElement;
          if (!el || el === document.body) return null;
          el.setAttribute("data-tabbed", "");
          const ring = (node) => { const s = getComputedStyle(node); return s.outlineStyle !== "none" && parseFloat(s.outlineWidth) > 0; };
          const label = el.closest("label");
          return { key: el.id || el.name + el.value || el.textContent.trim().slice(0, 30), ring: ring(el) || (label && ring(label)) };
        });
        if (f && !f.ring) unmarked.push(f.key);
      }
      const missed = await page.evaluate(() => [...document.querySelectorAll("button, input, select, textarea, summary, a[href]")]
        .filter((el) => !el.disabled && el.getClientRects().length && getComputedStyle(el).visibility !== "hidden" && !el.hasAttribute("data-tabbed"))
        // Inside a closed <details> only its summary is shown; what it folds away is not tabbable.
        .filter((el) => el.tagName === "SUMMARY" || !el.closest("details:not([open])"))
        // A tablist is one Tab stop: its other tabs are reached with the arrow keys (ui.test.mjs).
        .filter((el) => !(el.getAttribute("role") === "tab" && el.getAttribute("tabindex") === "-1"))
        .map((el) => el.id || el.outerHTML.slice(0, 60)));
      assert.deepEqual(missed, [], `${url}: every control is reached by Tab (${controls} controls)`);
      assert.deepEqual(unmarked, [], `${url}: focus is visible on every control`);
      await page.close();
    }
  }],

  ["axe finds no serious or critical violation in every state of the side panel and options, light and dark", async (env) => {
    const found = [];
    const both = async (page, state) => {
      for (const scheme of ["light", "dark"]) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.waitForTimeout(100);
        for (const v of await serious(page)) found.push(`${state}, ${scheme}: ${v}`);
      }
    };
    const empty = await env.open(env.extUrl("sidepanel.html"));
    await empty.locator("#setup-provider").waitFor();
    await both(empty, "side panel, no provider");
    await empty.click("#more");
    await both(empty, "side panel, More menu open");
    await empty.close();
    await configure(env);
    env.llm.setDefault({ text: "It has **three** paragraphs.\n\n```js\nlet a = 1;\n```" });
    const { panel } = await panelFor(env, ["/pages/chat-a.html"]);
    await both(panel, "side panel, starters");
    await ask(panel, "What is here?");
    await answerText(panel);
    await both(panel, "side panel, an answer");
    await panel.click("#mode-customize");
    await both(panel, "side panel, Customize");
    await panel.click("#open-history");
    await panel.locator("#history-list .history-item").first().waitFor();
    await both(panel, "side panel, History");
    const agent = await agentPanel(env, "/pages/agent/checkout.html");
    usePolicy(env, (p) => {
      if (!p.last) return toolCall("get_elements", { filter: "button" });
      const el = p.last.name === "get_elements" && byText(lastListing(p), "Pay now");
      return el ? toolCall("click", { index: el.index }) : answer("Paid.");
    });
    await startRun(agent.panel, "Pay for my order.");
    await nextCard(agent.panel);
    await both(agent.panel, "side panel, an agent run with an approval card");
    await stopRun(agent.panel);
    await agent.panel.locator("#agent-answer.stopped").waitFor();
    await agent.panel.locator(".run-card .run-steps summary").click();
    await both(agent.panel, "side panel, a stopped run, steps unfolded");
    const options = await env.open(env.extUrl("options.html#browser-agent"));
    await options.locator("#data-options").waitFor();
    await both(options, "options, wide");
    await options.setViewportSize({ width: 800, height: 700 });
    await options.click("#nav-toggle");
    await options.locator("#options-nav").waitFor({ state: "visible" });
    await both(options, "options, the drawer open");
    assert.deepEqual(found, []);
  }],
];
