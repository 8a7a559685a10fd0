// Takes the README's screenshots with the real extension (not a test): the popup, the side panel
// mid-answer, the options page, and a corpus page before and after dark mode.
// Usage: node tests/screenshots.mjs   (build dist/ first with ./build.sh) → docs/screenshots/*.png
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launch } from "./e2e/env.mjs";
import { configure } from "./e2e/chat_panel.mjs";

const out = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../docs/screenshots");
const env = await launch();
await env.ctx.route(/^(https?|wss?):\/\/(?!127\.0\.0\.1[:/])/, (r) => r.abort());
const shot = (page, name, options = {}) => page.screenshot({ path: path.join(out, `${name}.png`), ...options });

// A page before and after dark mode.
const url = `${env.base}/corpus/python-docs/python3.11-doc/html/tutorial/introduction.html`;
const page = await env.open(url);
await page.setViewportSize({ width: 1100, height: 700 });
await shot(page, "page-before");
const tabId = await env.tabIdFor(url);
await env.sendToWorker({ type: "dark_get_state", tab_id: tabId });
await env.sendToWorker({ type: "dark_set_site", tab_id: tabId, on: true });
await page.waitForTimeout(800);
await shot(page, "page-after");

// The popup for that tab, in its own size.
const popup = await env.open(env.extUrl(`popup.html?tab=${tabId}`));
await popup.setViewportSize({ width: 340, height: 520 });
await popup.waitForSelector("#dark-mode .segments");
await popup.waitForTimeout(300);
await shot(popup, "popup", { fullPage: true });

// The side panel while an answer streams in.
await configure(env);
env.llm.script({ text: "Python's interactive interpreter works like a calculator: type an expression and it prints the value. The tutorial shows **numbers**, **strings** and **lists**, with `+`, `*` and slicing such as `word[0:2]`.", chunkDelayMs: 120 });
const panel = await env.open(env.extUrl("sidepanel.html"));
await panel.setViewportSize({ width: 400, height: 640 });
await page.bringToFront();
await panel.bringToFront();
await panel.waitForSelector("#send:not([disabled])");
await panel.fill("#question", "What does this page teach?");
await panel.click("#send");
await panel.waitForFunction(() => (document.querySelector(".msg.assistant")?.textContent ?? "").length > 60);
await shot(panel, "sidepanel");

// The options page, with a provider set.
const options = await env.open(env.extUrl("options.html"));
await options.setViewportSize({ width: 760, height: 900 });
await options.waitForSelector("#data-options");
await shot(options, "options", { fullPage: true });

await env.close();
console.log(`screenshots written to ${out}`);
