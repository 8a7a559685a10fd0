// The DokuWiki app tests' frame: a fresh wiki per test, the panel in Agent mode on its tab, and
// a scripted model that works through a plan one step a turn, reading only the requests it gets.
import { configure } from "./chat_panel.mjs";
import { cardInfo, finish, pickTab, press, startRun, stopRun } from "./agent_panel.mjs";
import { answer, failure, lastListing, lastTurn, parseRequest, toolCall, toolCalls } from "./agent_policy.mjs";
import { startWiki } from "./dokuwiki.mjs";

export const ALICE = { password: "s3cret-pass", name: "Alice Example", email: "alice@example.test" };

/** Logs alice in with the wiki's login form's fields, as the person at the keyboard did before the task. */
async function logIn(env, wiki) {
  // The context's request client shares the browser's cookies: the session cookie lands there.
  const form = { u: "alice", p: ALICE.password, id: "start", do: "login", sectok: "" };
  const res = await env.ctx.request.post(`${wiki.url}/doku.php`, { form });
  if (!res.ok() || !wiki.loggedIn().includes("alice")) throw new Error(`the test could not log alice in (${res.status()})`);
}

/**
 * A test on its own wiki (`seed`: startWiki's options; alice is always a user), with alice logged
 * in first unless `loggedIn: false`, the task's tab on `start` and the panel in Agent mode on it.
 */
export function wikiTest(name, { seed = {}, loggedIn = true, start = "start" }, body) {
  return [name, async (env) => {
    const t0 = Date.now();
    const wiki = await startWiki({ ...seed, users: { alice: ALICE, ...seed.users } });
    let panel;
    try {
      // Cookies are per host, not port: an earlier wiki's must not reach this one.
      await env.ctx.clearCookies();
      if (loggedIn) await logIn(env, wiki);
      await configure(env);
      const ext = await env.extPage();
      await ext.evaluate(() => chrome.storage.local.set({ agent_settings: { max_turns: 20, sites: {}, mode: "dom" } }));
      await wiki.warm;
      const page = await env.open(wiki.pageUrl(start));
      panel = await env.open(env.extUrl("sidepanel.html"));
      await panel.click("#mode-agent");
      await pickTab(panel, await env.tabIdFor(page.url()));
      const ready = Date.now();
      await body(env, { wiki, page, panel });
      if (process.env.DUSK_TIMES) console.log(`TIMES ${name.slice(0, 30)}: set up ${ready - t0} ms, task ${Date.now() - ready} ms`);
    } catch (e) {
      // What the panel showed: the steps and any card still waiting.
      const shown = await panel?.evaluate(() => [...document.querySelectorAll(".agent-step .text, .confirm-card .confirm-action")].map((el) => el.textContent.trim())).catch(() => []);
      const log = wiki.log().split("\n").filter((l) => /PHP (Fatal|Parse|Warning)|\[[45]\d\d\]/.test(l)).slice(-3);
      const extra = [shown?.length && `panel: ${shown.join(" | ")}`, log.length && `wiki: ${log.join(" | ")}`].filter(Boolean).join("\n");
      if (extra && e.stack) e.stack = e.stack.replace(/\n/, `\n${extra}\n`);
      throw e;
    } finally {
      if (panel) await stopRun(panel);
      await wiki.close();
    }
  }];
}

/**
 * A model with a plan: `steps[k](listing, parsed)` gives step k's `[what, calls]` from the newest
 * listing it was sent, or `{ missing }` when the listing lacks what it needs. Each turn does one
 * step and lists the page again; the model writes "Step k: …" as it goes and counts its own notes
 * to know where it is, as a model keeps track of a plan. What is missing may still be loading:
 * it waits a second and lists again, twice at most, then gives up saying what it lacked.
 * After the last step it answers `done`.
 */
export function planPolicy(steps, done) {
  return (p) => {
    if (!p.last) return toolCall("get_elements", {});
    const notes = p.said.filter((t) => /^(Step \d+|Waiting|Again):/.test(t));
    // A step whose target went stale (the page re-rendered) is done again, from a fresh listing.
    const k = notes.filter((t) => t.startsWith("Step")).length - notes.filter((t) => t.startsWith("Again")).length;
    const stale = lastTurn(p).find((c) => c.result?.success === false && /^stale:/.test(c.result.error ?? ""));
    if (stale && notes.filter((t) => t.startsWith("Again")).length < 2) return { text: `Again: the page changed under step ${k}`, ...toolCall("get_elements", {}) };
    const failed = failure(p);
    if (failed) return failed;
    if (k >= steps.length) return answer(done);
    const list = lastListing(p);
    const step = steps[k](list, p);
    if (step.missing) {
      const waited = notes.length - 1 - notes.findLastIndex((t) => t.startsWith("Step"));
      if (waited < 2) return { text: `Waiting: ${step.missing} is not listed yet`, ...toolCalls(["wait", { seconds: waited + 1 }], ["get_elements", {}]) };
      return answer(`I could not find ${step.missing} on the page, so I stopped.\n${list.map((e) => e.line).join("\n")}`);
    }
    const [what, calls] = step;
    return { text: `Step ${k + 1}: ${what}`, ...toolCalls(...calls, ["get_elements", {}]) };
  };
}

/**
 * Runs `task` to its end, answering each card with `onCard(card)` ("approve" | "deny"); returns
 * finish's `{ state, text, cards }`. A run that never ends fails with the cards it showed so far.
 */
export async function runToEnd(panel, task, onCard, timeout = 40_000) {
  const seen = [];
  await startRun(panel, task);
  try {
    return await finish(panel, { timeout, onCard: async (card) => (seen.push(card.action), typeof onCard === "function" ? onCard(card) : onCard) });
  } catch (e) {
    if (!/Timeout/.test(e.message)) throw e;
    e.message = `the run did not end; cards answered so far: ${JSON.stringify(seen)}. ${e.message}`;
    e.stack = `Error: ${e.message}`;
    throw e;
  }
}

/** The card of `tool` ("click", "dialog", …) once it is shown, or null after `timeout` ms. */
export async function cardOf(panel, tool, timeout = 15_000) {
  const h = await panel.waitForFunction((t) => document.querySelector(`.confirm-card[data-tool="${t}"]`)?.dataset.step, tool, { timeout, polling: 50 }).catch(() => null);
  return h && cardInfo(panel, await h.jsonValue());
}

/** Presses the `tool` card's button ("approve" or "deny") and waits until the card is gone. */
export async function answerCard(panel, tool, choice) {
  await press(panel, `.confirm-card[data-tool="${tool}"] button.${choice}`);
  await panel.locator(`.confirm-card[data-tool="${tool}"]`).waitFor({ state: "detached", timeout: 5000 });
}

/** A step's answer when the listing lacks `what`. */
export const missing = (what) => ({ missing: what });

/** The model's notes and its answer, for a failing test's message. */
export const story = (env, end) => [...parseRequest(env.llm.lastRequest() ?? {}).said, ...(end ? [`${end.state}: ${end.text}`] : [])].join(" → ");
