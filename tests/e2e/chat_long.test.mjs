// A long chat stays bounded: once earlier questions and answers pass the history budget, the oldest
// stop being sent to the model, whole, and the panel says so; the panel itself keeps everything.
import assert from "node:assert/strict";
import { answerText, ask, configure, panelFor } from "./chat_panel.mjs";

export const tests = [
  ["fifteen long answers: later requests stay within the budget, the panel says what the model no longer gets, and shows every answer", async (env) => {
    await configure(env);
    let n = 0;
    env.llm.setDefault(() => ({ text: `Answer ${++n}: ${"details ".repeat(400)}` }));
    const { panel } = await panelFor(env, ["/pages/chat-a.html"]);
    for (let q = 1; q <= 15; q++) {
      await ask(panel, `Question ${q}?`);
      assert.match(await answerText(panel, q), new RegExp(`^Answer ${q}:`));
    }
    const sizes = env.llm.requests().map((r) => JSON.stringify(r.body.messages).length);
    const note = await panel.locator(".msg.step").first().textContent();
    assert.match(note, /^To stay within its budget, the model no longer gets the \d+ oldest question\(s\) of this chat and their answers; they stay here for you\.$/);
    const last = env.llm.requests().at(-1).body.messages.map((m) => (typeof m.content === "string" ? m.content : "")).join("\n");
    assert.ok(!last.includes("Question 1?") && last.includes("Question 15?"), "the oldest question is no longer sent");
    assert.ok(sizes.at(-1) < sizes[9] * 1.5, `requests stop growing: ${sizes.join(", ")}`);
    assert.equal(await panel.locator(".msg.assistant").count(), 15, "the panel keeps every answer");
  }],
];
