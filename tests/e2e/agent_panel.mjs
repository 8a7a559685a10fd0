// Side-panel helpers for the browser agent's tests: open the panel in Agent mode on a tab, run a
// task, wait for its end, read what the user sees.
import { configure } from "./chat_panel.mjs";

/** Configures the provider (and agent settings), opens `path` and the panel in Agent mode on its tab. */
export async function agentPanel(env, path, settings = { mode: "dom" }) {
  await configure(env);
  const ext = await env.extPage();
  await ext.evaluate((s) => chrome.storage.local.set({ agent_settings: { max_turns: 20, sites: {}, ...s } }), settings);
  const url = `${env.base}${path}`;
  const page = await env.open(url);
  const panel = await env.open(env.extUrl("sidepanel.html"));
  await panel.click("#mode-agent");
  const tabId = await env.tabIdFor(url);
  await pickTab(panel, tabId);
  return { page, panel, url, tabId };
}

export async function pickTab(panel, tabId) {
  await panel.locator("#agent-tab").focus();
  await panel.waitForFunction((id) => [...document.querySelectorAll("#agent-tab option")].some((o) => o.value == id), tabId);
  await panel.selectOption("#agent-tab", String(tabId));
}

export async function runTask(panel, task) {
  await panel.fill("#agent-task", task);
  await panel.click("#agent-run");
  // The previous run's answer stays until this one starts.
  await panel.waitForFunction((t) => document.querySelector(".agent-task")?.textContent === t || !document.querySelector("#agent-answer")?.hidden && document.querySelector("#agent-answer.failed"), task);
}

/** Waits for the run's end; returns { state: done|failed|stopped, text }. */
export async function outcome(panel, timeout = 30_000) {
  const el = panel.locator("#agent-answer.done, #agent-answer.failed, #agent-answer.stopped");
  await el.waitFor({ timeout });
  const state = (await el.getAttribute("class")).split(" ").find((c) => ["done", "failed", "stopped"].includes(c));
  return { state, text: (await el.textContent()).trim() };
}

export const stepTexts = (panel) => panel.locator(".agent-step .text").allTextContents();

/** The run's export, as the Export button downloads it. */
export async function exported(panel) {
  await panel.evaluate(() => document.querySelector("#run-export")?.remove());
  await panel.click("#agent-export");
  await panel.waitForFunction(() => document.querySelector("#run-export")?.getAttribute("href"));
  const href = await panel.locator("#run-export").getAttribute("href");
  return JSON.parse(decodeURIComponent(href.slice(href.indexOf(",") + 1)));
}
