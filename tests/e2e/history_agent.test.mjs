// Agent runs in the panel: a timeline of steps with small screenshots, an approval card with the
// element's crop and what will happen, and the run kept in History (thumbnails small in storage).
import assert from "node:assert/strict";
import { agentTest, decide, finish, nextCard, startRun, usePolicy } from "./agent_panel.mjs";
import { answer, byText, lastListing, toolCall } from "./agent_policy.mjs";
import { serious } from "./axe.mjs";

/** List the buttons, click "Pay now", answer with how it went. */
const payPolicy = (p) => {
  if (!p.last) return toolCall("get_elements", { filter: "button" });
  if (p.last.name === "get_elements") {
    const el = byText(lastListing(p), "Pay now");
    return el ? toolCall("click", { index: el.index }) : answer("There is no Pay now button.");
  }
  return answer(p.last.result.success ? "Paid." : `Could not pay: ${p.last.result.error}`);
};

const imageSize = (panel, src) => panel.evaluate(async (s) => {
  const img = new Image();
  img.src = s;
  await img.decode();
  return [img.naturalWidth, img.naturalHeight];
}, src);

export const tests = [
  agentTest("a run shows a timeline with thumbnails and a card with the crop and what will happen; History keeps it", "/pages/agent/checkout.html", { mode: "hybrid" }, async (env, { panel }) => {
    usePolicy(env, payPolicy);
    await startRun(panel, "Pay for my order.");
    const card = await nextCard(panel);
    assert.ok(card.crop, "the card shows the element's crop");
    assert.match(card.action, /^What will happen: Click “.+” on 127\.0\.0\.1$/, card.action);
    assert.match(card.target, /Pay now/);
    const crop = await panel.locator(`.confirm-card[data-step="${card.step}"] img.confirm-crop`).getAttribute("src");
    assert.match(crop, /^data:image\/jpeg;base64,/);
    assert.match(await panel.locator(`.confirm-card[data-step="${card.step}"] img.confirm-crop`).getAttribute("alt"), /highlighted/);
    assert.deepEqual(await serious(panel), [], "axe on the approval card and the live timeline");
    await decide(panel, card, "approve");
    const end = await finish(panel);
    assert.equal(end.state, "done", end.text);
    assert.ok(await panel.locator(".agent-step img.thumb").count() >= 1, "the live timeline shows screenshots");

    // Kept: thumbnails small (≤ 160 px wide, a few KB each).
    let item;
    for (let i = 0; i < 50 && !item; i++) {
      const all = await (await env.extPage()).evaluate(() => chrome.storage.local.get(null));
      item = Object.entries(all).find(([k]) => k.startsWith("history:browser-"))?.[1];
      if (!item) await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(item, "the run is kept");
    assert.equal(item.summary.kind, "agent");
    assert.equal(item.run.status.state, "finished");
    const thumbs = item.run.steps.map((s) => s.thumb).filter(Boolean);
    assert.ok(thumbs.length >= 1, "kept steps carry thumbnails");
    for (const t of thumbs) {
      assert.match(t, /^data:image\/jpeg;base64,/);
      assert.ok(t.length < 20_000, `a thumbnail of ${t.length} chars`);
      const [w] = await imageSize(panel, t);
      assert.ok(w <= 160 && w >= 100, `thumbnail ${w} px wide`);
    }

    // Reopened from History: the same timeline, read-only, with how it ended.
    await panel.click("#open-history");
    const row = panel.locator(".history-item").first();
    await row.waitFor();
    assert.equal(await row.locator(".history-kind").textContent(), "Agent");
    assert.equal(await row.locator(".history-open").textContent(), "Pay for my order.");
    assert.match(await row.locator(".history-meta").textContent(), /^127\.0\.0\.1 · Checkout — Dusk Shop · /);
    await panel.evaluate(() => { document.querySelector("#agent-steps").innerHTML = ""; });
    await row.locator(".history-open").click();
    await panel.locator("#agent-steps.kept .agent-task").waitFor();
    assert.equal(await panel.locator("#agent-pane").isVisible(), true);
    assert.equal(await panel.locator("#agent-steps .agent-task").textContent(), "Pay for my order.");
    assert.equal(await panel.locator("#agent-steps .agent-step").count(), item.run.steps.length);
    assert.equal(await panel.locator("#agent-steps .agent-step img.thumb").count(), thumbs.length);
    assert.match(await panel.locator("#agent-answer.done").textContent(), /Paid\./);
    assert.match(await panel.locator("#agent-status").textContent(), /A kept run · .+ · \d+ tokens/);
    assert.deepEqual(await serious(panel), [], "axe on a kept run");
  }),
];
