// Results say what changed, and repeats are judged by effect, through the side panel with a
// scripted model that reads only its requests: a spinner's arrow clicked five times is progress;
// reading a long page by listing and scrolling is progress until the scrolls stop moving.
import assert from "node:assert/strict";
import { agentTest, callsIn, exported, finish, startRun, usePolicy } from "./agent_panel.mjs";
import { answer, byText, lastListing, toolCall } from "./agent_policy.mjs";

const notes = (calls) => calls.map((c) => c.result?.note ?? "").filter((n) => n.includes("[Dusk:"));

export const tests = [
  agentTest("a spinner: five clicks on the up arrow raise the value five times, each result names the new value, no repeat warning", "/pages/agent/spinner.html", {}, async (env, { page, panel }) => {
    usePolicy(env, (p) => {
      if (!p.last) return toolCall("get_elements", {});
      const up = byText(lastListing(p), "Increase");
      if (!up) return answer("There is no Increase arrow.");
      // The value the last click left, as its result says: `… "Quantity" value "4" → "5"`.
      const changed = p.last.result?.data?.changed ?? [];
      const now = Number(changed.map((l) => l.match(/"Quantity" value "\d+" → "(\d+)"/)?.[1]).find(Boolean) ?? 1);
      return now < 6 ? toolCall("click", { index: up.index }) : answer(`The quantity is ${now}.`);
    });
    await startRun(panel, "Set the quantity to 6");
    const end = await finish(panel, { onCard: () => assert.fail("no card expected") });
    assert.equal(end.state, "done", end.text);
    assert.equal(end.text, "The quantity is 6.");
    assert.equal(await page.inputValue("#qty"), "6");
    const calls = callsIn(env.llm.lastRequest());
    const clicks = calls.filter((c) => c.name === "click");
    assert.equal(clicks.length, 5);
    clicks.forEach((c, i) => {
      assert.ok(c.result.data.changed.some((l) => l.endsWith(`input type=number "Quantity" value "${i + 1}" → "${i + 2}"`)), `click ${i + 1}: ${JSON.stringify(c.result.data)}`);
      assert.ok(c.result.data.changed.some((l) => l === `text appeared: "${i + 2} prints"`), `click ${i + 1} names the text that appeared: ${c.result.data.changed}`);
    });
    assert.deepEqual(notes(calls), [], "no repeat warning");
  }),

  agentTest("a menu that opens and closes: the results name what came on screen and what is no longer shown", "/pages/agent/menu.html", {}, async (env, { panel }) => {
    usePolicy(env, (p) => {
      if (!p.last) return toolCall("get_elements", {});
      if (p.calls.length === 1) return toolCall("click", { index: byText(lastListing(p), "Open menu").index });
      if (p.calls.length === 2) {
        // `shown now: [5] button "Settings", …, [7] button "Close menu"`: the index is in the line.
        const index = (p.last.result.data.changed ?? []).join(" ").match(/\[(\d+)\] button "Close menu"/)?.[1];
        return index ? toolCall("click", { index: Number(index) }) : answer("No menu opened.");
      }
      return answer(p.last.result.data.changed.join(" | "));
    });
    await startRun(panel, "Open the menu and close it again.");
    const end = await finish(panel);
    assert.equal(end.state, "done", end.text);
    const opened = callsIn(env.llm.lastRequest())[1].result.data;
    assert.ok(opened.changed.some((l) => /^shown now: \[\d+\] button "Settings", \[\d+\] button "Sign out", \[\d+\] button "Close menu"$/.test(l)), JSON.stringify(opened));
    assert.match(end.text, /no longer shown: \[\d+\] button "Settings", \[\d+\] button "Sign out"/, end.text);
  }),

  agentTest("a long page read by listing and scrolling: 12 steps are progress; once the scrolls stop moving the run is stopped", "/corpus/python-docs/python3.11-doc/html/library/stdtypes.html", { max_turns: 50 }, async (env, { panel }) => {
    usePolicy(env, (p) => {
      const n = p.calls.length;
      if (n % 2 === 0) return toolCall("get_elements", {});
      // After 12 steps, to the end in one go; then on as before, as a stubborn model would.
      return toolCall("scroll", n === 13 ? { direction: "down", amount: 100000 } : { direction: "down" });
    });
    await startRun(panel, "Which methods of str deal with whitespace? Read the whole page.");
    const end = await finish(panel, { timeout: 55_000 });
    assert.equal(end.state, "failed", end.text);
    assert.match(end.text, /repeating itself/);
    const run = await exported(panel);
    const steps = run.steps;
    assert.ok(steps.length > 14, `${steps.length} steps`);
    const calls = callsIn(env.llm.lastRequest());
    // A scroll that moved says by how much; one at the end fails with "did not move".
    const moved = calls.filter((c) => c.name === "scroll").map((c) => (/did not move/.test(c.result?.error ?? "") ? 0 : Number(c.result?.data?.message?.match(/by (\d+)px/)?.[1] ?? -1)));
    assert.ok(moved.slice(0, 6).every((px) => px > 0), `the first six scrolls moved: ${moved}`);
    assert.deepEqual(notes(calls.slice(0, 13)), [], "no warning while the scrolls moved");
    assert.ok(moved.at(-1) === 0 && moved.at(-2) === 0, `it stopped on scrolls that no longer move: ${moved}`);
    assert.equal(notes(calls).length, 1, "one warning before the stop");
  }),
];
