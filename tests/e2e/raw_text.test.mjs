// No raw text anywhere: every state of every Dusk page, in English and in Chinese, is read as a
// user sees it (visible text, title, placeholder, aria-label) and must hold no template left
// unfilled: {name}, $name$, __MSG_, undefined, NaN, [object Object] or an unpaired brace, and no
// "$0.0000" for a model whose price is unknown.
import assert from "node:assert/strict";
import { launch } from "./env.mjs";
import { finish, pickTab, press, startRun, usePolicy } from "./agent_panel.mjs";
import { answerText, ask, configure } from "./chat_panel.mjs";
import { answer, toolCall } from "./agent_policy.mjs";
import { fixture, openAdjust, resetMemory, setSite, until } from "./dark.mjs";

/** Every text of `page` a user can see or hear, minus code (CSS and JS have their own braces). */
const readable = (page) => page.evaluate(() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || el.closest("pre, code, textarea, script, style, .confirm-code") || !el.checkVisibility?.()) continue;
    const text = n.textContent.trim();
    if (text) out.push(text);
  }
  for (const el of document.querySelectorAll("[title], [placeholder], [aria-label]")) {
    for (const a of ["title", "placeholder", "aria-label"]) if (el.hasAttribute(a)) out.push(`${a}=${el.getAttribute(a)}`);
  }
  out.push(`document.title=${document.title}`);
  return out;
});

// The scripted model has no price: a cost shown as "$0.0000" would be a false figure.
const RAW = [/\{[A-Za-z_]\w*\}/, /\$[A-Za-z_]\w*\$/, /\$\d\b/, /__MSG_/, /\bundefined\b/, /\bNaN\b/, /\[object Object\]/, /\$0\.0+\b/];
const unpaired = (s) => [...s].reduce((d, c) => (d < 0 ? d : c === "{" ? d + 1 : c === "}" ? d - 1 : d), 0) !== 0;

async function check(page, state, problems) {
  for (const text of await readable(page)) {
    const bad = RAW.find((re) => re.test(text));
    if (bad || unpaired(text)) problems.push(`${state}: ${JSON.stringify(text.slice(0, 120))}`);
  }
}

const stage = (popup) => popup.evaluate(() => document.querySelector("#dark-run")?.getAttribute("data-stage") ?? null);
const reload = async (page) => {
  await page.reload();
  await page.waitForLoadState("load");
  await page.waitForTimeout(300);
};

/** Visits every state of every page; returns the problems found. */
async function sweep(env) {
  const problems = [];
  await resetMemory(env);
  const ext = await env.extPage();
  await ext.evaluate(() => chrome.storage.local.remove("settings"));
  const url = fixture(env, "agent.html");
  const page = await env.open(url);
  const tabId = await env.tabIdFor(url);
  const popup = await env.open(env.extUrl(`popup.html?tab=${tabId}`));
  const panel = await env.open(env.extUrl("sidepanel.html"));
  const options = await env.open(env.extUrl("options.html"));
  const welcome = await env.open(env.extUrl("welcome.html"));
  const panelModes = async (what) => {
    await panel.bringToFront();
    for (const mode of ["chat", "agent", "customize"]) {
      await press(panel, `#mode-${mode}`);
      await panel.waitForTimeout(150);
      await check(panel, `side panel (${mode}), ${what}`, problems);
    }
  };
  for (const p of [popup, panel, options, welcome]) await p.waitForTimeout(400);
  await check(popup, "popup, no provider", problems);
  await panelModes("no provider");
  await check(options, "options, no provider", problems);
  await check(welcome, "welcome, no provider", problems);

  await configure(env);
  await ext.evaluate(() => chrome.storage.local.set({ agent_settings: { mode: "dom", max_turns: 5, sites: {} } }));
  for (const p of [popup, panel, options, welcome]) await reload(p);
  await check(popup, "popup, with a provider", problems);
  await panelModes("with a provider");
  await check(options, "options, with a provider", problems);
  await check(welcome, "welcome, with a provider", problems);

  // Quick and Thorough, during and after.
  await setSite(env, url, true);
  await reload(popup);
  await popup.bringToFront();
  env.llm.script({ match: { hasTools: false, contains: "Refine the theme" }, reply: { text: "```css\npre { background: #111 !important }\n```", delayMs: 1500 } });
  await popup.locator("input[value=quick]").click();
  await until(async () => ["analyzing", "generating"].includes(await stage(popup)), "Quick to run");
  await check(popup, "popup, during Quick", problems);
  await until(async () => (await stage(popup)) === "done", "Quick to end", 15_000);
  await check(popup, "popup, after Quick", problems);
  env.llm.script(
    { match: { contains: '"tool":"get_color_palette"' }, reply: { text: "Fine as it is.", delayMs: 800 } },
    { match: { hasTools: true, contains: "Refine the theme" }, reply: { toolCalls: [{ name: "get_color_palette", args: {} }], delayMs: 1500 } },
  );
  await popup.locator("input[value=thorough]").click();
  await until(async () => (await stage(popup)) === "refining", "Thorough to refine", 15_000);
  await check(popup, "popup, during Thorough", problems);
  await until(async () => (await stage(popup)) === "done", "Thorough to end", 20_000);
  await check(popup, "popup, after Thorough", problems);
  // The site's own adjustment (the scope line and Reset change).
  await openAdjust(popup);
  await popup.locator("#dark-adjust-brightness").focus();
  await popup.keyboard.press("ArrowRight");
  await until(() => popup.locator("#dark-adjust-reset").isVisible(), "the site's own adjustment");
  await check(popup, "popup, with the site's own adjustment", problems);
  await ext.evaluate(() => chrome.storage.local.remove(["dark_adjust", "dark_adjust_sites"]));
  await setSite(env, url, false);

  // A chat answer.
  await panel.bringToFront();
  await press(panel, "#mode-chat");
  env.llm.setDefault({ text: "It is **a guide** page." });
  await ask(panel, "What is this?");
  await answerText(panel);
  await check(panel, "side panel, after a chat answer", problems);

  // An agent run that ends, one that fails, one that is stopped.
  await press(panel, "#mode-agent");
  await pickTab(panel, tabId);
  usePolicy(env, (p) => (p.last ? answer("Looked around.") : toolCall("get_elements", {})));
  await startRun(panel, "Look around.");
  await finish(panel);
  await check(panel, "side panel, after an agent run", problems);
  env.llm.setDefault({ status: 400, message: "The model does not exist." });
  await startRun(panel, "Look again.");
  await finish(panel);
  await check(panel, "side panel, after a failed run", problems);
  env.llm.setDefault({ text: "late", delayMs: 8000 });
  await startRun(panel, "Look once more.");
  await panel.waitForTimeout(500);
  await press(panel, "#agent-run[data-state=stop]");
  await finish(panel);
  await check(panel, "side panel, after a stopped run", problems);

  // History: the list, a kept chat reopened, a kept run reopened; the empty chat's starters.
  await press(panel, "#open-history");
  await panel.locator(".history-item").nth(3).waitFor();
  await check(panel, "side panel, history", problems);
  await panel.locator('.history-item[data-kind="agent"] .history-open').first().dispatchEvent("click");
  await panel.locator("#agent-steps.kept").waitFor();
  await check(panel, "side panel, a kept run", problems);
  await press(panel, "#open-history");
  await panel.locator('.history-item[data-kind="chat"] .history-open').first().dispatchEvent("click");
  await panel.locator(".msg.assistant .retry").waitFor();
  await check(panel, "side panel, a kept chat", problems);
  await press(panel, "#new-chat");
  await panel.locator("#starters").waitFor();
  await check(panel, "side panel, an empty chat's starters", problems);
  await reload(options);
  await check(options, "options, after everything", problems);
  await resetMemory(env);
  return problems;
}

export const tests = [
  ["no raw text in any state of any Dusk page, in English", async (env) => {
    const problems = await sweep(env);
    assert.deepEqual(problems, []);
  }],
  ["no raw text in any state of any Dusk page, in Chinese", async () => {
    const zh = await launch({ lang: "zh-CN" });
    try {
      const problems = await sweep(zh);
      const ext = await zh.extPage();
      assert.equal(await ext.evaluate(() => chrome.i18n.getUILanguage()), "zh-CN");
      assert.deepEqual(problems, []);
    } finally {
      await zh.close();
    }
  }],
];
