// Takes the README's screenshots with the real extension (not a test), in light and dark: the
// popup (idle, mid-Thorough, its result card, the adjustments), the side panel at 360 and 480 px
// (empty, mid-answer, its History, an agent run card with an approval card) and a light/dark
// side-by-side of it at 360 px, the options page, and a corpus page before and after dark mode.
// Usage: node tests/screenshots.mjs   (build dist/ first with ./build.sh) → docs/screenshots/*.png
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launch } from "./e2e/env.mjs";
import { startFixtureServer } from "./e2e/fixture-server.mjs";
import { configure } from "./e2e/chat_panel.mjs";
import { agentPanel, nextCard, startRun, usePolicy } from "./e2e/agent_panel.mjs";
import { openAdjust } from "./e2e/dark.mjs";
import { answer, byText, lastListing, toolCall } from "./e2e/agent_policy.mjs";

const out = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../docs/screenshots");
const CSS = "pre { background: #0d1117 !important }\nhtml { scrollbar-color: #555 #111 !important }";
const tool = (name, args) => ({ toolCalls: [{ name, args }], omitUsage: true });

async function popupFor(env, tabId) {
  const popup = await env.open(env.extUrl(`popup.html?tab=${tabId}`));
  await popup.setViewportSize({ width: 360, height: 560 });
  await popup.waitForSelector("#dark-mode .segments");
  return popup;
}

async function takeAll(scheme) {
  const env = await launch({ colorScheme: scheme });
  await env.ctx.route(/^(https?|wss?):\/\/(?!127\.0\.0\.1[:/])/, (r) => r.abort());
  const shot = (page, name, options = {}) => page.screenshot({ path: path.join(out, `${name}-${scheme}.png`), ...options });
  // The docs folder is its origin's root, as on the web, so its root-relative stylesheet loads.
  const site = await startFixtureServer("corpus/python-docs");
  try {
    // A page before and after dark mode (the page's own colours don't follow the scheme).
    const url = `${site.url}/python3.11-doc/html/tutorial/introduction.html`;
    const page = await env.open(url);
    await page.setViewportSize({ width: 1100, height: 700 });
    if (scheme === "light") await page.screenshot({ path: path.join(out, "page-before.png") });
    const tabId = await env.tabIdFor(url);
    await env.sendToWorker({ type: "dark_get_state", tab_id: tabId });
    await env.sendToWorker({ type: "dark_set_site", tab_id: tabId, on: true });
    await page.waitForTimeout(800);
    if (scheme === "light") await page.screenshot({ path: path.join(out, "page-after.png") });

    let popup = await popupFor(env, tabId);
    await popup.waitForTimeout(300);
    await shot(popup, "popup", { fullPage: true });
    await popup.close();

    // The site's own adjustment, as the popup's sliders show it, and the page it previews on.
    await env.sendToWorker({ type: "dark_set_adjust", tab_id: tabId, site: true, adjust: { brightness: 110, contrast: 120, sepia: 25, grayscale: 0 } });
    popup = await popupFor(env, tabId);
    await openAdjust(popup);
    await popup.waitForTimeout(300);
    await shot(popup, "popup-adjust", { fullPage: true });
    if (scheme === "light") await page.screenshot({ path: path.join(out, "page-adjusted.png") });
    await popup.close();
    await env.sendToWorker({ type: "dark_set_adjust", tab_id: tabId, site: true, adjust: null });

    // Thorough, mid-run and after: the scripted model answers in rounds, one of them slowly.
    await configure(env);
    env.llm.script(
      { match: { contains: '"tool":"check_contrast"' }, reply: { text: "Darkened the code blocks and the scrollbar.", omitUsage: true } },
      { match: { contains: '"tool":"apply_css"' }, reply: { ...tool("check_contrast", { foreground: "#e8e6e3", background: "#0d1117" }), delayMs: 2500 } },
      { match: { hasTools: true, contains: "Refine the theme" }, reply: tool("apply_css", { css: CSS }) },
    );
    popup = await popupFor(env, tabId);
    await page.bringToFront();
    await popup.locator("input[value=thorough]").click();
    await popup.waitForFunction(() => document.querySelector("#dark-run")?.dataset.stage === "refining", null, { timeout: 15_000 });
    await env.llm.waitForRequests(2, { timeoutMs: 15_000 });
    await popup.waitForTimeout(300);
    await shot(popup, "popup-thorough", { fullPage: true });
    await popup.waitForFunction(() => document.querySelector("#dark-run")?.dataset.stage === "done", null, { timeout: 30_000 });
    await popup.waitForTimeout(200);
    await shot(popup, "popup-result", { fullPage: true });
    await popup.close();

    // The side panel at both widths: empty with no provider, mid-answer, its History, an agent run.
    const widths = [360, 480];
    await (await env.extPage()).evaluate(() => chrome.storage.local.remove("settings"));
    let panel = await env.open(env.extUrl("sidepanel.html"));
    await panel.locator("#setup-provider").waitFor();
    for (const width of widths) {
      await panel.setViewportSize({ width, height: 640 });
      await shot(panel, `sidepanel-empty-${width}`);
    }
    await panel.close();
    await configure(env);
    env.llm.script({ text: "Python's interactive interpreter works like a calculator: type an expression and it prints the value. The tutorial shows **numbers**, **strings** and **lists**, with `+`, `*` and slicing such as `word[0:2]`.", chunkDelayMs: 120 });
    panel = await env.open(env.extUrl("sidepanel.html"));
    await panel.setViewportSize({ width: 360, height: 640 });
    await page.bringToFront();
    await panel.bringToFront();
    await panel.fill("#question", "What does this page teach?");
    await panel.click("#send");
    await panel.waitForFunction(() => (document.querySelector(".msg.assistant")?.textContent ?? "").length > 60);
    for (const width of widths) {
      await panel.setViewportSize({ width, height: 640 });
      await shot(panel, `sidepanel-${width}`);
    }
    await panel.waitForSelector(".msg.assistant .retry", { timeout: 20_000 });
    await panel.waitForTimeout(1500);
    await panel.click("#open-history");
    await panel.locator("#history-list .history-item").first().waitFor();
    for (const width of widths) {
      await panel.setViewportSize({ width, height: 640 });
      await shot(panel, `sidepanel-history-${width}`);
    }
    await panel.close();

    // An agent run: its card and an approval card with the element's crop.
    const agent = await agentPanel(env, "/pages/agent/checkout.html", { mode: "hybrid" });
    usePolicy(env, (p) => {
      if (!p.last) return toolCall("get_elements", { filter: "button" });
      const el = p.last.name === "get_elements" && byText(lastListing(p), "Pay now");
      return el ? toolCall("click", { index: el.index }) : answer("Paid.");
    });
    await startRun(agent.panel, "Pay for my order.");
    // The panel is a tab here, not a side panel: it is resized only once the card's crop is taken.
    await nextCard(agent.panel);
    await agent.panel.bringToFront();
    for (const width of widths) {
      await agent.panel.setViewportSize({ width, height: 720 });
      await agent.panel.waitForTimeout(300);
      await shot(agent.panel, `agent-card-${width}`);
    }
    await agent.panel.locator("#agent-run[data-state=stop]").dispatchEvent("click").catch(() => {});

    // The options page, with a provider set.
    const options = await env.open(env.extUrl("options.html"));
    await options.setViewportSize({ width: 1100, height: 900 });
    await options.waitForSelector("#data-options");
    await options.waitForTimeout(300);
    await shot(options, "options", { fullPage: true });
  } finally {
    await env.close();
    await site.close();
  }
}

/** The side panel at 360 px, light beside dark, from the two shots just taken. */
async function sideBySide() {
  const env = await launch();
  try {
    const page = await env.ctx.newPage();
    await page.setViewportSize({ width: 360 * 2 + 48, height: 640 + 32 });
    const img = (scheme) => `data:image/png;base64,${readFileSync(path.join(out, `sidepanel-360-${scheme}.png`)).toString("base64")}`;
    await page.setContent(`<body style="margin:0;padding:16px;display:flex;gap:16px;background:#8a8a94">
      <img src="${img("light")}" width="360" height="640"><img src="${img("dark")}" width="360" height="640"></body>`);
    await page.screenshot({ path: path.join(out, "sidepanel-360-side-by-side.png") });
  } finally {
    await env.close();
  }
}

for (const scheme of ["light", "dark"]) await takeAll(scheme);
await sideBySide();
console.log(`screenshots written to ${out}`);
