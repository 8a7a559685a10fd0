// Keyboard shortcuts, the toolbar badge and the context menu, through the very handlers Chrome
// calls (worker.js's duskOnCommand / duskOnMenu): a test can't press a browser shortcut.
import assert from "node:assert/strict";
import { agentPanel, outcome, runTask } from "./agent_panel.mjs";
import { fixture, isDark, resetMemory, state, until } from "./dark.mjs";

const inWorker = async (env, fn, arg) => (await env.serviceWorker()).evaluate(fn, arg);
const tabOf = async (env, url) => inWorker(env, (id) => chrome.tabs.get(id), await env.tabIdFor(url));
const command = (env, name, tab) => inWorker(env, ([n, t]) => globalThis.duskOnCommand(n, t), [name, tab]);
const menu = (env, info, tab) => inWorker(env, ([i, t]) => globalThis.duskOnMenu(i, t), [info, tab]);
const badge = (env, tabId) => inWorker(env, async (id) => ({ text: await chrome.action.getBadgeText({ tabId: id }), title: await chrome.action.getTitle({ tabId: id }) }), tabId);

export const tests = [
  ["the dark-mode shortcut switches the tab's site on and off, and the badge follows per tab", async (env) => {
    await resetMemory(env);
    const url = fixture(env, "basic.html");
    // Another host (loopback by name), whose badge must not change.
    const other = url.replace("127.0.0.1", "localhost");
    const page = await env.open(url);
    await env.open(other);
    const tab = await tabOf(env, url);
    const otherTab = await tabOf(env, other);
    try {
      await command(env, "toggle-dark", tab);
      await until(() => isDark(page), "the page turns dark");
      assert.equal((await state(env, url)).on, true);
      await until(async () => (await badge(env, tab.id)).text === "on", "the badge says on");
      assert.match((await badge(env, tab.id)).title, /dark mode is on for 127\.0\.0\.1/);
      assert.equal((await badge(env, otherTab.id)).text, "", "the other site's tab shows nothing");
      await command(env, "toggle-dark", tab);
      await until(async () => !(await isDark(page)), "the page turns light again");
      await until(async () => (await badge(env, tab.id)).text === "", "the badge clears");
    } finally { await resetMemory(env); }
  }],

  ["the side-panel shortcut opens the panel in the tab's window", async (env) => {
    const url = `${env.base}/pages/simple.html`;
    await env.open(url);
    const tab = await tabOf(env, url);
    const opened = await inWorker(env, async (t) => {
      const real = chrome.sidePanel.open;
      const calls = [];
      chrome.sidePanel.open = (options) => { calls.push(options); return Promise.resolve(); };
      try { await globalThis.duskOnCommand("open-side-panel", t); } finally { chrome.sidePanel.open = real; }
      return calls;
    }, tab);
    assert.deepEqual(opened, [{ windowId: tab.windowId }]);
  }],

  ["the stop shortcut stops the agent working in the tab, whose badge shows it working until then", async (env) => {
    const { panel, url } = await agentPanel(env, "/pages/simple.html");
    env.llm.script(
      { toolCalls: [{ name: "get_elements", args: {} }] },
      { delayMs: 20_000, text: "Too late: the user stops the run first." },
    );
    await runTask(panel, "Look at the page, then wait");
    await env.llm.waitForRequests(2, { timeoutMs: 15_000 });
    const tab = await tabOf(env, url);
    await until(async () => (await badge(env, tab.id)).text === "…", "the badge shows Dusk working");
    assert.match((await badge(env, tab.id)).title, /working in this tab/);
    await command(env, "stop-agent", tab);
    assert.equal((await outcome(panel, 5000)).state, "stopped");
    await until(async () => (await badge(env, tab.id)).text === "", "the badge clears when the run ends");
  }],

  ["Ask Dusk about this puts the selection in the chat box of the tab's window; Dark mode for this site toggles it", async (env) => {
    await resetMemory(env);
    const url = fixture(env, "basic.html");
    const page = await env.open(url);
    const panel = await env.open(env.extUrl("sidepanel.html"));
    await panel.waitForSelector("#question");
    const tab = await tabOf(env, url);
    try {
      const calls = await inWorker(env, async ([t]) => {
        const real = chrome.sidePanel.open;
        const calls = [];
        chrome.sidePanel.open = (options) => { calls.push(options); return Promise.resolve(); };
        try { await globalThis.duskOnMenu({ menuItemId: "ask-dusk", selectionText: "Dusk darkens pages.\nSecond line" }, t); } finally { chrome.sidePanel.open = real; }
        return calls;
      }, [tab]);
      assert.deepEqual(calls, [{ windowId: tab.windowId }], "the panel opens in that window");
      await panel.waitForFunction(() => document.querySelector("#question").value.startsWith("> Dusk darkens pages.\n> Second line"));
      assert.equal(await panel.evaluate(() => document.activeElement?.id), "question", "the cursor is in the chat box, after the quote");
      await menu(env, { menuItemId: "dark-for-site", pageUrl: url }, tab);
      await until(() => isDark(page), "the site turns dark");
    } finally { await resetMemory(env); }
  }],

  ["the first-run page opened on install says what Dusk does and where page data goes", async (env) => {
    assert.ok(env.welcomeOpened, "a welcome tab opened when the extension was installed");
    const page = await env.open(env.extUrl("welcome.html"));
    await page.waitForSelector("#welcome-data");
    const text = await page.locator("main").innerText();
    assert.match(text, /Welcome to Dusk/);
    assert.match(text, /Dark mode needs nothing/);
    assert.match(text, /add a provider/i);
    assert.match(text, /only to the provider you configure/);
    assert.equal(await page.evaluate(() => document.documentElement.lang.length > 0), true, "the page says its language");
  }],
];
