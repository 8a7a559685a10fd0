// Dusk's own pages as a user meets them: the side panel's toolbar stays one row with nothing
// overflowing at Chrome's 360 px minimum and at 480 px on every view; its one button turns from
// Send into Stop and back; the tabs, the More menu, the popup's switches and options' navigation
// work from the keyboard and say their state; the permission chip makes the agent ask first;
// and a kept chat opened while an answer streams leaves that answer going.
import assert from "node:assert/strict";
import { agentPanel, decide, finish, nextCard, startRun, usePolicy } from "./agent_panel.mjs";
import { answer, byText, lastListing, toolCall } from "./agent_policy.mjs";
import { answerText, ask, configure, panelFor } from "./chat_panel.mjs";
import { fixture, isDark, resetMemory, until } from "./dark.mjs";

/** Measures the toolbar and the page: one 44 px row, and no horizontal scroll anywhere. */
const layout = (page) => page.evaluate(() => {
  const bar = document.querySelector(".toolbar").getBoundingClientRect();
  const tops = [...document.querySelectorAll(".toolbar > *:not(h1)")].filter((e) => e.getClientRects().length).map((e) => Math.round(e.getBoundingClientRect().top + e.getBoundingClientRect().height / 2));
  const wide = [...document.querySelectorAll("body *")].filter((e) => e.getClientRects().length && e.getBoundingClientRect().right > innerWidth + 0.5 && !e.closest(".visually-hidden, [hidden], .menu"));
  return {
    height: Math.round(bar.height),
    oneRow: tops.every((t) => Math.abs(t - tops[0]) <= 1),
    overflow: document.documentElement.scrollWidth > innerWidth || document.body.scrollWidth > innerWidth,
    wide: wide.slice(0, 3).map((e) => `${e.tagName}.${e.className}#${e.id}`),
  };
});

async function fits(page, view) {
  for (const width of [360, 480]) {
    await page.setViewportSize({ width, height: 640 });
    await page.waitForTimeout(50);
    const l = await layout(page);
    assert.equal(l.height, 44, `${view} at ${width}px: the toolbar is 44 px (${l.height})`);
    assert.ok(l.oneRow, `${view} at ${width}px: the toolbar is one row`);
    assert.ok(!l.overflow && l.wide.length === 0, `${view} at ${width}px: nothing overflows: ${l.wide}`);
  }
}

const payPolicy = (p) => {
  if (!p.last) return toolCall("get_elements", { filter: "button" });
  const el = p.last.name === "get_elements" && byText(lastListing(p), "Pay now");
  return el ? toolCall("click", { index: el.index }) : answer("Paid.");
};

export const tests = [
  ["at 360 and 480 px the toolbar is one row and nothing overflows: empty state, chat, agent card, customize, history", async (env) => {
    const panel = await env.open(env.extUrl("sidepanel.html"));
    await panel.locator("#setup-provider").waitFor();
    assert.match(await panel.locator("#empty-state").textContent(), /Set up a provider/);
    assert.equal(await panel.locator("#status").count(), 0, "no version box in the panel");
    await fits(panel, "empty state");
    await panel.close();

    await configure(env);
    env.llm.script({ text: "A **long** answer. ".repeat(40) + "`" + "x".repeat(300) + "`", chunks: ["A **long** answer. ".repeat(40), "`" + "x".repeat(300) + "`"] });
    const { panel: chat } = await panelFor(env, ["/pages/chat-a.html"]);
    await ask(chat, "Tell me about this page, at length, please, with every detail there is.");
    await answerText(chat);
    await fits(chat, "chat");
    await chat.click("#mode-customize");
    await fits(chat, "customize");
    await chat.click("#open-history");
    await chat.locator("#history-list .history-item").first().waitFor();
    await fits(chat, "history");
    await chat.close();

    const agent = await agentPanel(env, "/pages/agent/checkout.html");
    usePolicy(env, payPolicy);
    await startRun(agent.panel, "Pay for my order.");
    const card = await nextCard(agent.panel);
    assert.equal(card.action, "What will happen: Click “Pay now” on 127.0.0.1", "the card says in words what will happen and where");
    assert.equal(await agent.panel.evaluate(() => document.activeElement?.classList.contains("approve")), false, "Allow does not take the focus");
    await fits(agent.panel, "agent run with a card");
    await decide(agent.panel, card, "deny");
    const end = await finish(agent.panel);
    assert.equal(end.state, "done");
    assert.match(await agent.panel.locator(".run-card .run-steps summary").textContent(), /^Show \d+ steps?$/);
    assert.equal(await agent.panel.locator(".run-card .run-steps").getAttribute("open"), null, "the steps are folded");
    assert.equal(await agent.panel.locator("#agent-answer").isVisible(), true, "the answer stays visible");
    await fits(agent.panel, "agent run done");
  }],

  ["one button: Send, disabled while empty, becomes Stop while the answer streams, and Send again", async (env) => {
    await configure(env);
    const chunks = Array.from({ length: 30 }, (_, i) => `part${i} `);
    env.llm.script({ text: chunks.join(""), chunks, chunkDelayMs: 100 });
    const { panel } = await panelFor(env, ["/pages/chat-a.html"]);
    await panel.waitForFunction(() => document.querySelector("#provider-chip .chip-text")?.textContent === "OpenAI · test-model");
    const button = panel.locator(".composer .send").first();
    assert.equal(await button.getAttribute("id"), "send");
    assert.equal(await button.isDisabled(), true, "nothing to send yet");
    assert.equal(await button.getAttribute("aria-label"), "Send");
    await panel.fill("#question", "Tell me everything");
    assert.equal(await button.isDisabled(), false);
    const box = await button.boundingBox();
    await button.click();
    await panel.waitForFunction(() => document.querySelector("#send").dataset.state === "stop");
    assert.equal(await button.getAttribute("aria-label"), "Stop");
    assert.equal(await button.isDisabled(), false, "Stop works with an empty box");
    assert.deepEqual(await button.boundingBox(), box, "the button never moves");
    await panel.waitForFunction(() => /part1/.test(document.querySelector(".msg.assistant .md")?.textContent || ""));
    await button.click();
    await panel.locator(".msg.assistant .note.stopped").waitFor();
    await panel.waitForFunction(() => document.querySelector("#send").dataset.state === "send");
    assert.equal(await button.getAttribute("aria-label"), "Send");
    assert.equal(await panel.locator(".messages").getAttribute("role"), "log", "streamed text is in a log");
  }],

  ["the tabs move with the arrow keys; More opens a menu that Esc closes, focus back on More", async (env) => {
    const panel = await env.open(env.extUrl("sidepanel.html"));
    await panel.locator("#mode-chat").focus();
    assert.equal(await panel.locator("[role=tablist] [tabindex='0']").count(), 1, "the tablist is one Tab stop");
    await panel.keyboard.press("ArrowRight");
    assert.equal(await panel.evaluate(() => document.activeElement.id), "mode-agent");
    assert.equal(await panel.locator("#mode-agent").getAttribute("aria-selected"), "true");
    assert.equal(await panel.locator("#agent-task").isVisible(), true);
    await panel.keyboard.press("ArrowRight");
    assert.equal(await panel.locator("#mode-customize").getAttribute("aria-selected"), "true");
    await panel.keyboard.press("ArrowRight");
    assert.equal(await panel.locator("#mode-chat").getAttribute("aria-selected"), "true", "wraps around");
    for (const id of ["new-chat", "open-history", "more"]) {
      const b = panel.locator(`#${id}`);
      assert.ok((await b.getAttribute("aria-label")).length > 2, `${id} has a name`);
      assert.equal(await b.getAttribute("data-tip"), await b.getAttribute("aria-label"), `${id} has a tooltip`);
    }
    await panel.locator("#more").focus();
    await panel.keyboard.press("Enter");
    assert.equal(await panel.locator("#more").getAttribute("aria-expanded"), "true");
    assert.equal(await panel.evaluate(() => document.activeElement.id), "export-run", "the menu's first item has the focus");
    assert.deepEqual(await panel.locator("#more-menu [role=menuitem]").allTextContents(), ["Export run", "Settings", "Help"]);
    await panel.keyboard.press("ArrowDown");
    assert.equal(await panel.evaluate(() => document.activeElement.id), "open-settings");
    await panel.keyboard.press("Escape");
    assert.equal(await panel.locator("#more-menu").isHidden(), true);
    assert.equal(await panel.evaluate(() => document.activeElement.id), "more", "focus returns to More");
    await panel.click("#open-history");
    assert.equal(await panel.locator("#history-pane").isVisible(), true);
    assert.equal(await panel.locator("#chat-pane").isVisible(), false, "History replaces the chat");
    await panel.click("#history-back");
    assert.equal(await panel.locator("#chat-pane").isVisible(), true, "Back returns to the chat");
  }],

  ["History: search narrows the list; items group under Today and Earlier", async (env) => {
    // Two kept chats, as the worker stores them: one from today, one from a week ago.
    await env.extPage().then((p) => p.evaluate((now) => {
      const data = { history_index: { items: [], evicted: 0 } };
      for (const [id, title, ms] of [["a", "Alpha today", now - 1000], ["b", "Beta last week", now - 7 * 86_400_000]]) {
        const summary = { id, kind: "chat", title, page: { title: "News", url: "https://news.example/a" }, created_ms: ms, updated_ms: ms, bytes: 300 };
        data.history_index.items.push(summary);
        data[`history:${id}`] = { summary, body: "chat", session: { entries: [{ kind: "user", text: title, tabs: [] }, { kind: "assistant", text: "An answer" }] } };
      }
      return chrome.storage.local.set(data);
    }, Date.now()));
    const panel = await env.open(env.extUrl("sidepanel.html"));
    await panel.click("#open-history");
    await panel.locator("#history-list .history-item").first().waitFor();
    assert.deepEqual(await panel.locator(".history-group h3").allTextContents(), ["Today", "Earlier"]);
    assert.deepEqual(await panel.locator(".history-group").nth(1).locator(".history-open").allTextContents(), ["Beta last week"]);
    await panel.fill("#history-search", "beta");
    await panel.waitForFunction(() => document.querySelectorAll(".history-item").length === 1);
    assert.equal(await panel.locator(".history-item .history-open").textContent(), "Beta last week");
    await panel.fill("#history-search", "nothing like this");
    await panel.locator(".history-empty").waitFor();
    assert.match(await panel.locator(".history-empty").textContent(), /matches/);
  }],

  ["a kept chat opened while an answer streams leaves it streaming; the user returns to it, finished", async (env) => {
    await configure(env);
    env.llm.setDefault({ text: "The first answer." });
    const { panel } = await panelFor(env, ["/pages/chat-a.html"]);
    await ask(panel, "First question");
    assert.equal(await answerText(panel), "The first answer.");
    await panel.click("#new-chat");
    await panel.locator(".msg").first().waitFor({ state: "detached" });
    const chunks = Array.from({ length: 30 }, (_, i) => `w${i} `);
    env.llm.script({ text: chunks.join(""), chunks, chunkDelayMs: 100 });
    await ask(panel, "Second question");
    await panel.waitForFunction(() => /w2 /.test(document.querySelector(".msg.assistant .md")?.textContent || ""));
    await panel.click("#open-history");
    const kept = panel.locator(".history-item", { hasText: "First question" });
    await kept.locator(".history-open").click();
    await panel.locator("#live-banner").waitFor();
    assert.equal(await panel.locator(".msg.user").first().evaluate((e) => e.firstChild.textContent), "First question", "the kept chat is shown");
    assert.equal(await panel.locator("#send").getAttribute("data-state"), "stop", "the live answer goes on");
    await until(() => panel.locator("#continue-kept").isVisible(), "the live answer to finish while the kept chat shows", 15_000);
    assert.equal(env.llm.lastRequest().aborted, false, "the stream was never cut");
    await panel.click("#back-to-live");
    await panel.waitForFunction(() => document.querySelector(".msg.user")?.textContent.startsWith("Second question"));
    assert.equal((await panel.locator(".msg.assistant .md").last().textContent()).trim(), chunks.join("").trim(), "the whole answer, not stopped");
    assert.equal(await panel.locator(".msg.assistant .note.stopped").count(), 0);
  }],

  ["the permission chip: Ask before acting makes even a plain click ask; the other setting lets it run", async (env) => {
    const { panel, page } = await agentPanel(env, "/pages/simple.html");
    const chip = panel.locator("#permission-chip");
    await until(async () => (await chip.getAttribute("data-ask-first")) !== null, "the chip to read the setting");
    assert.equal(await chip.textContent(), "Act, ask for sensitive");
    const clickGo = (p) => {
      if (!p.last) return toolCall("get_elements", {});
      const el = p.last.name === "get_elements" && byText(lastListing(p), "Go");
      return el ? toolCall("click", { index: el.index }) : answer("Clicked.");
    };
    usePolicy(env, clickGo);
    await startRun(panel, "Click Go");
    let end = await finish(panel);
    assert.deepEqual([end.state, end.cards.length], ["done", 0], "a plain click runs without asking");
    await chip.click();
    await until(async () => (await chip.textContent()) === "Ask before acting", "the chip to switch");
    const stored = await (await env.extPage()).evaluate(() => chrome.storage.local.get("agent_settings"));
    assert.equal(stored.agent_settings.ask_before_acting, true);
    assert.equal(stored.agent_settings.max_turns, 20, "the other agent settings are kept");
    usePolicy(env, clickGo);
    await startRun(panel, "Click Go");
    end = await finish(panel, { onCard: "deny" });
    assert.equal(end.cards.length, 1, "the same click now asks");
    assert.equal(end.cards[0].action, "What will happen: Click “Go” on 127.0.0.1");
    assert.ok(page, "page open");
  }],

  ["popup: the switches are role=switch, toggle with Space and report aria-checked; Adjust is folded and reads Off / +10", async (env) => {
    await resetMemory(env);
    const url = fixture(env, "basic.html");
    const site = await env.open(url);
    const tab = await env.tabIdFor(url);
    const popup = await env.open(env.extUrl(`popup.html?tab=${tab}`));
    try {
      const sw = popup.locator("#dark-site");
      await sw.waitFor();
      assert.equal(await sw.getAttribute("role"), "switch");
      assert.equal(await sw.getAttribute("aria-checked"), "false");
      assert.equal(await popup.locator("#dark-reason").textContent(), "Off");
      await sw.focus();
      await popup.keyboard.press("Space");
      await until(() => isDark(site), "Space to turn the site dark");
      await until(async () => (await popup.locator("#dark-site").getAttribute("aria-checked")) === "true", "aria-checked to follow");
      await until(async () => (await popup.locator("#dark-reason").textContent()) === "On", "the reason line to say On");
      assert.equal(await popup.evaluate(() => document.activeElement?.id), "dark-site", "the focus stays on the switch");
      const auto = popup.locator("#dark-auto");
      assert.equal(await auto.getAttribute("role"), "switch");
      assert.equal(await auto.getAttribute("aria-checked"), "false");
      await auto.focus();
      await popup.keyboard.press("Space");
      await until(async () => (await popup.locator("#dark-auto").getAttribute("aria-checked")) === "true", "All sites on");
      const stored = await (await env.extPage()).evaluate(() => chrome.storage.local.get(null));
      assert.ok(JSON.stringify(stored).includes("auto"), "stored");
      await popup.locator("#dark-auto").focus();
      await popup.keyboard.press("Space");
      await until(async () => (await popup.locator("#dark-auto").getAttribute("aria-checked")) === "false", "All sites off");
      const fold = popup.locator("#dark-adjust-fold");
      await fold.waitFor();
      assert.equal(await fold.getAttribute("open"), null, "Adjust is folded");
      await popup.locator("#dark-adjust-fold summary").click();
      assert.equal(await popup.locator("#dark-adjust-brightness-value").textContent(), "Off");
      await popup.locator("#dark-adjust-brightness").focus();
      await popup.keyboard.press("ArrowRight");
      await popup.keyboard.press("ArrowRight");
      assert.equal(await popup.locator("#dark-adjust-brightness-value").textContent(), "+10");
      await popup.keyboard.press("Home");
      assert.equal(await popup.locator("#dark-adjust-brightness-value").textContent(), "\u221250");
      assert.equal(await popup.locator("#dark-adjust-brightness").getAttribute("aria-valuetext"), "\u221250");
      await popup.keyboard.press("End");
      assert.equal(await popup.locator("#dark-adjust-brightness-value").textContent(), "+50");
      // All sites' re-check comes 400 ms after its toggle: it must not take the slider from under the keys.
      await popup.waitForTimeout(600);
      assert.equal(await popup.evaluate(() => document.activeElement?.id), "dark-adjust-brightness", "the slider keeps the focus");
      assert.equal(await popup.locator("#dark-adjust-brightness-value").textContent(), "+50");
      await popup.keyboard.press("PageDown");
      assert.notEqual(await popup.locator("#dark-adjust-brightness-value").textContent(), "+50", "PageDown moves it");
      assert.equal(await popup.locator("#dark-adjust-scope [role=radiogroup] input[type=radio]").count(), 2, "This site / All sites");
      assert.equal(await popup.locator("#dark-mode input[type=radio]").count(), 3, "the engine is a radio group");
    } finally { await popup.close(); await resetMemory(env); }
  }],

  ["options: every section is reached by its URL hash and by keyboard; below 980 px the navigation is a drawer", async (env) => {
    const ids = ["provider", "dark-mode", "browser-agent", "customised-sites", "data", "about"];
    const page = await env.open(env.extUrl("options.html#data"));
    await page.locator("#data-options").waitFor();
    await page.waitForFunction(() => document.querySelector("#nav-data")?.getAttribute("aria-current") === "page");
    await page.waitForFunction(() => { const r = document.querySelector("#sec-data").getBoundingClientRect(); return r.top >= -1 && r.top < innerHeight / 2; });
    for (const id of ids) {
      await page.evaluate((h) => { location.hash = h; }, id);
      await page.waitForFunction((h) => document.querySelector(`#nav-${h}`)?.getAttribute("aria-current") === "page", id);
      await page.waitForFunction((h) => { const r = document.querySelector(`#sec-${h}`).getBoundingClientRect(); return r.top < innerHeight && r.bottom > 0; }, id);
    }
    assert.equal(await page.locator("#agent-debugger[role=switch]").count(), 1, "Browser agent has the debugger switch");
    assert.ok((await page.locator("#sec-provider").boundingBox()).width <= 680, "cards at most 680 px wide");
    // The keyboard: into the navigation, down to Data, Enter.
    await page.locator("#nav-provider").focus();
    for (let i = 0; i < 4; i++) await page.keyboard.press("ArrowDown");
    assert.equal(await page.evaluate(() => document.activeElement.id), "nav-data");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => location.hash === "#data");
    await page.waitForFunction(() => document.activeElement?.id === "sec-data");
    // Narrow: a drawer behind a button.
    await page.setViewportSize({ width: 800, height: 700 });
    await page.locator("#options-nav").waitFor({ state: "hidden" });
    assert.equal(await page.locator("#nav-toggle").isVisible(), true, "the navigation hides in a drawer behind a button");
    await page.click("#nav-toggle");
    await page.locator("#options-nav").waitFor({ state: "visible" });
    assert.equal(await page.locator("#nav-toggle").getAttribute("aria-expanded"), "true");
    await page.click("#nav-about");
    await page.waitForFunction(() => location.hash === "#about");
    await page.locator("#options-nav").waitFor({ state: "hidden" });
    assert.match(await page.locator("#sec-about #status .version").textContent(), /^Version /);
    // The destructive actions come last in their card, each behind a confirmation.
    const last = await page.evaluate(() => [...document.querySelectorAll("#data-options button")].slice(-2).map((b) => b.id));
    assert.deepEqual(last, ["data-clear-history", "data-clear"]);
  }],
];
