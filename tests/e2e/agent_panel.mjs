// Side-panel helpers for the browser agent's tests: open the panel in Agent mode on a tab, run a
// task, wait for its end, read what the user sees.
import { configure } from "./chat_panel.mjs";
import { parseRequest } from "./agent_policy.mjs";

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

/** Each request answered by `policy(parseRequest(req))`. */
export const usePolicy = (env, policy) => env.llm.setDefault((req) => policy(parseRequest(req)));

/** Starts a run; the answer box is cleared first so the next `.done` is this run's. */
export async function startRun(panel, task) {
  await panel.evaluate(() => {
    const a = document.querySelector("#agent-answer");
    a.hidden = true;
    a.className = "agent-answer";
    a.textContent = "";
  });
  await panel.fill("#agent-task", task);
  await press(panel, "#agent-run");
}

/**
 * Clicks a panel button without Playwright's "stable" check, which waits on animation frames: once
 * a screenshot or card crop has activated the page's tab, the panel tab is in the background and
 * its frames come about once a second.
 */
export const press = (panel, selector) => panel.locator(selector).dispatchEvent("click");

export async function cardInfo(panel, step) {
  return panel.evaluate((s) => {
    const c = document.querySelector(`.confirm-card[data-step="${s}"]`);
    const t = (sel) => c.querySelector(sel)?.textContent.trim() ?? "";
    return {
      step: c.dataset.step, runId: c.dataset.runId, digest: c.dataset.digest,
      action: t(".confirm-action"), target: t(".confirm-target"), page: t(".confirm-page"), text: c.innerText,
      crop: Boolean(c.querySelector("img.confirm-crop")), file: Boolean(c.querySelector('input[type="file"]')),
    };
  }, step);
}

/** Waits for the next confirmation card not in `seen` (steps) and returns it. */
export async function nextCard(panel, seen = [], timeout = 20_000) {
  const h = await panel.waitForFunction((s) => [...document.querySelectorAll(".confirm-card")].find((c) => !s.includes(c.dataset.step))?.dataset.step, seen, { timeout, polling: 50 });
  return cardInfo(panel, await h.jsonValue());
}

export async function decide(panel, card, choice) {
  await press(panel, `.confirm-card[data-step="${card.step}"] button.${choice}`);
  await panel.locator(`.confirm-card[data-step="${card.step}"]`).waitFor({ state: "detached", timeout: 5000 });
}

/**
 * Waits for the run's end, answering every card with `onCard(card)` ("approve" | "deny"), and
 * returns `{ state: done|failed|stopped, text, cards }`.
 */
export async function finish(panel, { onCard = "approve", timeout = 40_000 } = {}) {
  const cards = [];
  const deadline = Date.now() + timeout;
  for (;;) {
    const h = await panel.waitForFunction((seen) => {
      const a = document.querySelector("#agent-answer");
      if (a && !a.hidden && /\b(done|failed|stopped)\b/.test(a.className)) return "end";
      return [...document.querySelectorAll(".confirm-card")].find((c) => !seen.includes(c.dataset.step))?.dataset.step;
    }, cards.map((c) => c.step), { timeout: Math.max(1, deadline - Date.now()), polling: 50 });
    const step = await h.jsonValue();
    if (step === "end") break;
    const card = await cardInfo(panel, step);
    cards.push(card);
    await decide(panel, card, typeof onCard === "function" ? await onCard(card) : onCard);
  }
  const end = await panel.evaluate(() => {
    const a = document.querySelector("#agent-answer");
    return { state: ["done", "failed", "stopped"].find((c) => a.classList.contains(c)), text: a.textContent.trim() };
  });
  return { ...end, cards };
}

/** Every tool result the model was sent in `req`, as parsed calls. */
export const callsIn = (req) => parseRequest(req).calls;
export const lastCallOfRun = (env) => callsIn(env.llm.lastRequest()).at(-1);

/** Presses Stop if a run is still going (a failed test must not leave the window busy). */
export const stopRun = (panel) => panel.evaluate(() => document.querySelector("#agent-run[data-state=stop]")?.click()).catch(() => {});

/** A test with the panel set up (`settings` may be a function of env); a run still going is stopped afterwards. */
export function agentTest(name, path, settings, body) {
  return [name, async (env) => {
    const ctx = await agentPanel(env, path, typeof settings === "function" ? settings(env) : settings);
    try {
      await body(env, ctx);
    } finally {
      await stopRun(ctx.panel);
    }
  }];
}
