// What the browser agent's listing shows a model, end to end through the side panel: icons get
// names, rows that open something are listed with the icons inside them, and a listing says what
// it left out (an inner box's hidden items, the rest of the page). The scripted models read only
// the requests they get, never the page, and act on names from the listing alone.
import assert from "node:assert/strict";
import { agentTest as panelTest, finish as runEnd, startRun, usePolicy } from "./agent_panel.mjs";
import { answer, elementsOf, failure, instruction, lastListing, leftOut, parseRequest, toolCall, toolCalls } from "./agent_policy.mjs";

const MINIWOB_TASK = "Do what the page's instructions say.";

/** These pages have nothing sensitive: a card fails the test. */
const finish = (panel) => runEnd(panel, { onCard: (card) => assert.fail(`unexpected card: ${card.text}`) });
const agentTest = (name, path, body) => panelTest(name, path, { mode: "dom" }, body);

/** Every listing the model was sent in this test, in order (a request shows only its newest whole). */
function listingsSent(env) {
  const out = [];
  for (const req of env.llm.requests()) {
    const data = parseRequest(req).calls.findLast((c) => c.name === "get_elements" && c.result?.success)?.result.data;
    if (typeof data === "string" && !data.startsWith("[superseded") && out.at(-1) !== data) out.push(data);
  }
  return out;
}
const nameOf = (e) => e.text || e.icon || "";
const unnamed = (list) => list.filter((e) => !e.text && !e.icon && !e.row);

/** Lists the page once (`args`) and answers with nothing: the test reads what the model was shown. */
const listOnce = (args = {}) => (p) => (p.last ? answer("Listed.") : toolCall("get_elements", args));

// ---------------------------------------------------------------- inbox: rows and their icons

/** "Open the mail from A and star the mail from B": a row by its sender, a star by the row it sits in. */
function inboxPolicy(p) {
  const m = p.task.match(/open the mail from (\w+) and star the mail from (\w+)/i);
  if (!m) return answer("I did not understand the task.");
  const failed = failure(p);
  if (failed) return failed;
  if (!p.last) return toolCall("get_elements", {});
  if (p.last.name !== "get_elements") return answer(`Opened the mail from ${m[1]} and starred the mail from ${m[2]}.`);
  const list = lastListing(p);
  const row = (who) => list.find((e) => e.text.startsWith(`${who} `) && e.container === undefined);
  const open = row(m[1]), other = row(m[2]);
  if (!open || !other) return answer(`I see no row for ${open ? m[2] : m[1]}.`);
  const star = list.find((e) => e.icon === "star" && e.container === other.index);
  if (!star) return answer(`I see no star in ${m[2]}'s row.`);
  return toolCalls(["click", { index: star.index }], ["click", { index: open.index }]);
}

const inboxTests = [
  agentTest("inbox: rows with handlers of their own are listed; the model opens one and stars another by names from the listing", "/pages/agent/inbox.html", async (env, { page, panel }) => {
    usePolicy(env, inboxPolicy);
    await startRun(panel, "Open the mail from Nanny and star the mail from Dentist.");
    const end = await finish(panel);
    assert.equal(end.state, "done", end.text);
    assert.equal(await page.locator("#status").textContent(), "Open: Nanny");
    assert.equal(await page.locator("#reader-subject").textContent(), "Re: lunch tomorrow?");
    const starred = await page.$$eval(".zA.starred .bog", (els) => els.map((e) => e.textContent));
    assert.deepEqual(starred, ["Dentist"]);
    assert.equal(await page.locator(".zA").count(), 3, "nothing was deleted");

    const [listing] = listingsSent(env);
    const els = elementsOf({ result: { success: true, data: listing } });
    const rows = els.filter((e) => e.tag === "div" && /^(Nanny|Dentist|Bank) /.test(e.text));
    assert.equal(rows.length, 3, `every row is listed:\n${listing}`);
    for (const row of rows) {
      const inside = els.filter((e) => e.container === row.index).map(nameOf).sort();
      assert.deepEqual(inside, ["delete", "star"], `row ${row.text}: its icons are named and show their row\n${listing}`);
    }
    assert.match(listing, /^\[\d+\] span icon="star" in \[\d+\]/m, "a guessed name says it is one");
    assert.deepEqual(unnamed(els), [], `no element without a name:\n${listing}`);
  }),
];

// ---------------------------------------------------------------- one control per naming source

const namesTests = [
  agentTest("names: each source names its control (accessible name, title, alt, an image's label inside, SVG title, symbol, ligature, class, id, test id, row)", "/pages/agent/names.html", async (env, { panel }) => {
    usePolicy(env, listOnce());
    await startRun(panel, "What is on the toolbar?");
    const end = await finish(panel);
    assert.equal(end.state, "done", end.text);
    const [listing] = listingsSent(env);
    const expected = [
      /^\[\d+\] span "Compose mail"(?: new)?$/m,
      /^\[\d+\] span "Refresh inbox"(?: new)?$/m,
      /^\[\d+\] span "Archive all"(?: new)?$/m,
      /^\[\d+\] img "Open calendar"(?: new)?$/m,
      /^\[\d+\] span "Show map"(?: new)?$/m,
      /^\[\d+\] span "Print page"(?: new)?$/m,
      /^\[\d+\] span icon="bookmark"(?: new)?$/m,
      /^\[\d+\] span icon="more vert"(?: new)?$/m,
      /^\[\d+\] i icon="trash"(?: new)?$/m,
      /^\[\d+\] span icon="settings"(?: new)?$/m,
      /^\[\d+\] span icon="retweet"(?: new)?$/m,
      /^\[\d+\] span in "Quarterly report\.pdf"(?: new)?$/m,
    ];
    for (const re of expected) assert.match(listing, re, listing);
    const els = elementsOf({ result: { success: true, data: listing } });
    assert.deepEqual(unnamed(els), [], `no element without a name:\n${listing}`);
  }),
];

// ---------------------------------------------------------------- a results box with more below its fold

/**
 * Lists; while a box says it has more below, scrolls that box by its index and lists again, noting
 * the cheapest offer seen so far in its own words (older listings reach it only as a note); then
 * books the cheapest of all.
 */
function cheapestPolicy(p) {
  const failed = failure(p);
  if (failed) return failed;
  if (!p.last) return toolCall("get_elements", {});
  if (p.last.name === "click") return answer("Booked the cheapest flight.");
  const price = (e) => Number((e.row ?? "").match(/€(\d+)/)?.[1] ?? Infinity);
  const noted = p.said.map((t) => t.match(/^Cheapest so far: \[(\d+)\] €(\d+)/)).filter(Boolean).at(-1);
  let best = noted ? { index: Number(noted[1]), price: Number(noted[2]) } : null;
  for (const e of lastListing(p).filter((x) => x.text === "Select")) if (price(e) < (best?.price ?? Infinity)) best = { index: e.index, price: price(e) };
  const note = best ? `Cheapest so far: [${best.index}] €${best.price}` : "No offers yet.";
  const box = leftOut(p.last.result.data).find((l) => l.kind === "box" && l.below > 0);
  if (box && p.calls.filter((c) => c.name === "scroll").length < 6) {
    return { text: note, ...toolCalls(["scroll", { index: box.index, direction: "down" }], ["get_elements", {}]) };
  }
  return best ? { text: note, ...toolCall("click", { index: best.index }) } : answer("I found no offers.");
}

const resultsTests = [
  agentTest("results box: the listing says what is below its fold; the model scrolls the box and books the cheapest of all", "/pages/agent/results.html", async (env, { page, panel }) => {
    usePolicy(env, cheapestPolicy);
    await startRun(panel, "Book the cheapest flight.");
    const end = await finish(panel);
    assert.equal(end.state, "done", end.text);
    assert.equal(await page.locator("#status").textContent(), "Booked: Ryanair 18:15 €189");

    const [first, ...later] = listingsSent(env);
    const box = leftOut(first).find((l) => l.kind === "box");
    assert.ok(box, `the first listing names the box with more:\n${first}`);
    assert.equal(box.name, "Results");
    assert.ok(box.below >= 5, `${box.below} more below`);
    const pageLine = leftOut(first).find((l) => l.kind === "page");
    assert.ok(pageLine && pageLine.direction === "below" && pageLine.px > 1500 && pageLine.count >= 1, `the page's rest is told:\n${first}`);
    assert.match(first, /^\d+ elements on screen, of 11 on the page:/, "total counts every element, listed or not (10 offers and a link)");
    const scrolls = parseRequest(env.llm.lastRequest()).calls.filter((c) => c.name === "scroll");
    assert.ok(scrolls.length >= 1 && scrolls.every((c) => c.args.index === box.index && c.result.success), "the box was scrolled by its index");
    assert.equal(leftOut(later.at(-1)).filter((l) => l.kind === "box" && l.below > 0).length, 0, `at the end nothing is left below:\n${later.at(-1)}`);
    assert.equal(await page.evaluate(() => window.scrollY), 0, "the page itself did not scroll");
  }),
];

// ---------------------------------------------------------------- MiniWoB email-inbox-delete: a row's trash icon, in a scroll box

/** "Find the email by X and click the trash icon": X's row, the trash icon in it; scroll the inbox while it is not in sight. */
function trashPolicy(p) {
  const m = instruction(p, /Find the email by (.+?) and click the trash icon/);
  if (!m) return answer("I could not find the page's instructions.");
  const failed = failure(p);
  if (failed) return failed;
  if (!p.last) return toolCall("get_elements", {});
  if (p.last.name === "click") return answer(`Deleted the email from ${m[1]}.`);
  const list = lastListing(p);
  const row = list.find((e) => e.text.startsWith(`${m[1]} `));
  const trash = row && list.find((e) => e.icon === "trash" && e.container === row.index);
  if (trash) return toolCall("click", { index: trash.index });
  const box = leftOut(p.last.result.data).find((l) => l.kind === "box" && l.below > 0);
  if (box && p.calls.filter((c) => c.name === "scroll").length < 4) return toolCalls(["scroll", { index: box.index, direction: "down" }], ["get_elements", {}]);
  return answer(`I could not find the trash icon of ${m[1]}'s email.`);
}

const miniwobTests = [
  agentTest("MiniWoB email-inbox-delete through the panel: 3 seeds, the trash icon found by its row, reward > 0", "/miniwob/miniwob/email-inbox-delete.html", async (env, { page, panel }) => {
    usePolicy(env, trashPolicy);
    await page.waitForFunction(() => typeof core === "object" && document.getElementById("sync-task-cover"));
    for (const seed of ["dusk-1", "dusk-2", "dusk-3"]) {
      await page.evaluate((s) => {
        Math.seedrandom(s);
        core.EPISODE_MAX_TIME = 60000;
        core.startEpisodeReal();
      }, seed);
      await startRun(panel, MINIWOB_TASK);
      const end = await finish(panel);
      assert.equal(end.state, "done", `${seed}: ${end.text}`);
      const reward = await page.evaluate(() => WOB_RAW_REWARD_GLOBAL);
      assert.ok(reward > 0, `${seed}: reward ${reward}; answer: ${end.text}\n${listingsSent(env).join("\n---\n")}`);
    }
  }),
];

export const tests = [...inboxTests, ...namesTests, ...resultsTests, ...miniwobTests];
