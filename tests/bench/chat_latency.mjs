// Benchmark (not a test): Send → first answer token shown in the side panel's DOM, and painted (the
// next animation frame after it, on the browser's 16.7 ms frame grid), with the scripted LLM server
// streaming at once. Prints the extension's own overhead. Run: node tests/bench/chat_latency.mjs [runs]
import { launch } from "../e2e/env.mjs";
import { benchProvider, panelOnArticle } from "./chat_panel.mjs";

const runs = Number(process.argv[2] || 30);
// A user reads the answer before asking again; 0 (the default) asks the moment it ends, while the
// worker still saves the last answer.
const pauseMs = Number(process.env.CHAT_PAUSE_MS || 0);
const env = await launch();
await benchProvider(env);

const panel = await panelOnArticle(env);

const shown = [];
const firstToken = [];
const total = [];
for (let i = 0; i < runs; i++) {
  const t = await panel.evaluate((i) => new Promise((resolve) => {
    const before = document.querySelectorAll(".msg.assistant").length;
    let first = 0, dom = 0, painted = false, done = 0;
    const t0 = performance.now();
    const finish = () => { if (first && done) { obs.disconnect(); resolve({ dom, first, total: done }); } };
    const obs = new MutationObserver(() => {
      const el = document.querySelectorAll(".msg.assistant")[before];
      if (!el) return;
      if (!painted && el.querySelector(".md")?.textContent) {
        painted = true;
        dom = performance.now() - t0;
        requestAnimationFrame(() => { first = performance.now() - t0; finish(); });
      }
      if (!done && !el.classList.contains("streaming") && document.querySelector("#send").dataset.state !== "stop") {
        done = performance.now() - t0;
        finish();
      }
    });
    obs.observe(document.querySelector("#messages"), { childList: true, subtree: true, characterData: true, attributes: true });
    // Stop is outside the messages: an answer whose last change there came before Stop hid waited forever.
    obs.observe(document.querySelector("#send"), { attributes: true });
    const q = document.querySelector("#question");
    q.value = `Question ${i}: what is this about?`;
    q.dispatchEvent(new Event("input"));
    document.querySelector("#send").click();
  }), i);
  if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
  shown.push(t.dom);
  firstToken.push(t.first);
  total.push(t.total);
  if (i % 5 === 4) {
    await panel.click("#new-chat");
    // The next question counts answers from an empty conversation, not the old one being cleared.
    await panel.waitForFunction(() => !document.querySelector("#messages .msg"));
  }
}
await env.close();

const q = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
console.log(`chat latency over ${runs} questions (bbc-1 article, scripted server streaming at once, ${pauseMs} ms between an answer and the next question)`);
console.log(`  Send → first token shown:   median ${q(shown, 0.5).toFixed(1)} ms, p90 ${q(shown, 0.9).toFixed(1)} ms, min ${Math.min(...shown).toFixed(1)} ms`);
console.log(`  Send → first token painted: median ${q(firstToken, 0.5).toFixed(1)} ms, p90 ${q(firstToken, 0.9).toFixed(1)} ms, min ${Math.min(...firstToken).toFixed(1)} ms`);
console.log(`  Send → answer complete:     median ${q(total, 0.5).toFixed(1)} ms, p90 ${q(total, 0.9).toFixed(1)} ms`);
// A conversation's first question also reads the page (every 5th here), the rest only the chat's own path.
const later = shown.filter((_, i) => i % 5 !== 0), first = shown.filter((_, i) => i % 5 === 0);
console.log(`  shown, follow-up questions: median ${q(later, 0.5).toFixed(1)} ms, p90 ${q(later, 0.9).toFixed(1)} ms (${later.length}); first questions (page read): median ${q(first, 0.5).toFixed(1)} ms (${first.length})`);
