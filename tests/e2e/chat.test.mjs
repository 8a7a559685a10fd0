// Side panel chat: two passes, streaming, Stop, multi-tab, markdown, prompt injection, worker restart.
import assert from "node:assert/strict";
import { answerText, ask, askHarmlessThen, configure, lastUserOf, panelFor, systemOf } from "./chat_panel.mjs";


export const tests = [
  ["pass 1 answers about a Readability article, streaming, with no tools", async (env) => {
    await configure(env);
    env.llm.script({ text: "Obama calls **gun laws** his biggest frustration.", chunks: ["Obama calls ", "**gun laws** his ", "biggest frustration."] });
    const { panel } = await panelFor(env, ["/corpus/readability/bbc-1/index.html"]);
    await ask(panel, "What is this article about?");
    assert.equal(await answerText(panel), "Obama calls gun laws his biggest frustration.");
    assert.equal(await panel.locator(".msg.assistant .md strong").textContent(), "gun laws");
    const reqs = env.llm.requests();
    assert.equal(reqs.length, 1, "pass 1 alone");
    assert.equal(reqs[0].body.tools, undefined, "no tools in pass 1");
    assert.equal(reqs[0].stream, true);
    assert.match(lastUserOf(reqs[0]), /<page tab="1" title="Obama admits US gun laws/);
    assert.match(lastUserOf(reqs[0]), /biggest frustration/);
    assert.match(await panel.locator("#usage").textContent(), /tokens/);
    assert.match(await panel.locator(".msg.user .tabs").textContent(), /Obama admits/);
  }],

  ["a question over 3 tabs sends each tab and shows attributed answers", async (env) => {
    await configure(env);
    env.llm.script({ text: "Alpha ships on Tuesday [Tab 1]. Beta costs 42 euros [Tab 2]. Gamma is from Lisbon [Tab 3]." });
    const { panel } = await panelFor(env, ["/pages/chat-a.html", "/pages/chat-b.html", "/pages/chat-c.html"]);
    await ask(panel, "Summarise each product");
    const text = await answerText(panel);
    for (const t of ["[Tab 1]", "[Tab 2]", "[Tab 3]"]) assert.ok(text.includes(t), text);
    const req = env.llm.lastRequest();
    const user = lastUserOf(req);
    assert.match(user, /<page tab="1" title="Alpha facts"[^]*red fox[^]*<page tab="2" title="Beta facts"[^]*42 euros[^]*<page tab="3" title="Gamma facts"[^]*Lisbon/);
    assert.match(systemOf(req), /say which tab it came from/);
    assert.equal(await panel.locator(".msg.user .tabs").textContent(), "Alpha facts · Beta facts · Gamma facts");
  }],

  ["an @mention adds a tab to the question", async (env) => {
    await configure(env);
    await env.open(`${env.base}/pages/chat-b.html`);
    const { panel } = await panelFor(env, ["/pages/chat-a.html"]);
    await ask(panel, "Compare with @beta please");
    await answerText(panel);
    assert.match(lastUserOf(env.llm.lastRequest()), /Alpha facts[^]*Beta facts/);
  }],

  ["pass 2 takes a screenshot when the model needs to see the page", async (env) => {
    await configure(env);
    env.llm.script(
      { text: "NEED_TOOLS: I need to see the page layout" },
      { toolCalls: [{ name: "screenshot", args: { tab: 1 } }] },
      { text: "The page has a big **Alpha** heading." },
    );
    const { panel } = await panelFor(env, ["/pages/chat-a.html"]);
    await ask(panel, "What does the page look like?");
    assert.equal(await answerText(panel), "The page has a big Alpha heading.");
    assert.equal(await panel.locator(".msg.assistant").count(), 1, "the NEED_TOOLS reply was never shown as an answer");
    assert.match(await panel.locator(".msg.step").first().textContent(), /Looking closer/);
    const src = await panel.locator(".msg.step img.shot").getAttribute("src");
    assert.match(src, /^data:image\/jpeg;base64,.{1000,}/);
    const reqs = env.llm.requests();
    assert.equal(reqs.length, 3);
    assert.deepEqual(reqs[1].body.tools.map((t) => t.function.name), ["screenshot", "scroll", "refresh_page_state", "read_page_part"]);
    assert.match(JSON.stringify(reqs[2].body.messages), /data:image\/jpeg;base64,/, "the model got the image");
  }],

  ["pass 2 scrolls the page", async (env) => {
    await configure(env);
    env.llm.script(
      { text: "NEED_TOOLS: content further down" },
      { toolCalls: [{ name: "scroll", args: { direction: "down", screens: 2 } }] },
      { text: "Scrolled; the treasure is under the oak." },
    );
    const { panel, pages } = await panelFor(env, ["/pages/tall.html"]);
    await ask(panel, "Where is the treasure?");
    assert.equal(await answerText(panel), "Scrolled; the treasure is under the oak.");
    assert.ok(await pages[0].evaluate(() => window.scrollY) > 500, "the page really scrolled");
    assert.ok((await panel.locator(".msg.step").allTextContents()).some((t) => t.includes("Scrolled down")));
  }],

  ["pass 2 refreshes the page state after it changed", async (env) => {
    await configure(env);
    const { panel, pages } = await panelFor(env, ["/pages/tall.html"]);
    await pages[0].evaluate(() => document.body.insertAdjacentHTML("beforeend", "<p>Late news: the oak was cut down.</p>"));
    env.llm.script(
      { text: "NEED_TOOLS: the page may have changed" },
      { toolCalls: [{ name: "refresh_page_state", args: {} }] },
      { text: "The oak was cut down." },
    );
    await ask(panel, "Any news?");
    assert.equal(await answerText(panel), "The oak was cut down.");
    const toolResult = env.llm.lastRequest().body.messages.find((m) => m.role === "tool");
    assert.match(toolResult.content, /Late news: the oak was cut down/);
  }],

  ["Stop ends the stream and keeps the partial answer", async (env) => {
    await configure(env);
    const chunks = Array.from({ length: 40 }, (_, i) => `part${i} `);
    env.llm.script({ text: chunks.join(""), chunks, chunkDelayMs: 100 });
    const { panel } = await panelFor(env, ["/pages/chat-a.html"]);
    await ask(panel, "Tell me everything");
    await panel.waitForFunction(() => /part1/.test(document.querySelector(".msg.assistant .md")?.textContent || ""));
    await panel.click("#send[data-state=stop]");
    await panel.locator(".msg.assistant .note.stopped").waitFor();
    const shown = await panel.locator(".msg.assistant .md").textContent();
    assert.match(shown, /part0 part1/);
    assert.ok(!shown.includes("part39"), "stopped before the end");
    assert.equal(await panel.locator("#send").getAttribute("data-state"), "send");
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(env.llm.lastRequest().aborted, true, "the HTTP stream was aborted");
  }],

  ["a follow-up question continues the conversation", async (env) => {
    await configure(env);
    env.llm.script({ text: "Alpha ships on Tuesday." }, { text: "Its mascot is a red fox." });
    const { panel } = await panelFor(env, ["/pages/chat-a.html"]);
    await ask(panel, "When does Alpha ship?");
    await answerText(panel);
    await ask(panel, "And its mascot?");
    assert.equal(await answerText(panel, 2), "Its mascot is a red fox.");
    const msgs = env.llm.lastRequest().body.messages;
    assert.deepEqual(msgs.map((m) => m.role), ["system", "user", "assistant", "user"]);
    assert.equal(msgs[1].content, "When does Alpha ship?");
    assert.equal(msgs[2].content, "Alpha ships on Tuesday.");
  }],

  ["markdown renders code blocks and tables, never raw HTML", async (env) => {
    await configure(env);
    env.llm.script({ text: "Here:\n\n```js\nconst x = 1;\n```\n\n| Name | Price |\n|---|---|\n| Beta | 42 |\n\n<img src=x onerror=\"document.title='hacked'\">" });
    const { panel } = await panelFor(env, ["/pages/chat-b.html"]);
    await ask(panel, "Show code and a table");
    await answerText(panel);
    const md = panel.locator(".msg.assistant .md");
    assert.equal(await md.locator("pre code.language-js").textContent(), "const x = 1;\n");
    assert.equal(await md.locator("table td").nth(1).textContent(), "42");
    assert.equal(await md.locator("img").count(), 0);
    assert.match(await md.textContent(), /<img src=x onerror/);
    assert.notEqual(await panel.title(), "hacked");
    await panel.locator(".msg.assistant .copy").click();
    assert.equal(await panel.locator(".msg.assistant .copy").textContent(), "Copied");
  }],

  ["a page saying 'ignore previous instructions' changes nothing", async (env) => {
    const { normal, req, answer } = await askHarmlessThen(env, "/pages/injection.html");
    assert.equal(answer, "A lemon cake recipe.");
    assert.equal(systemOf(req), systemOf(normal), "the system prompt is the same as for a harmless page");
    assert.ok(!systemOf(req).includes("PWNED"));
    const user = lastUserOf(req);
    const inside = user.slice(user.indexOf("<page "), user.indexOf("</page>"));
    assert.match(inside, /ignore previous instructions/, "the page text stays inside its quoted block");
    assert.ok(!JSON.stringify(req.body).includes("sk-test"), "the key is never in the prompt");
  }],

  ["text no one can see on the page (font-size 0, its background's colour, opacity 0, clipped) reaches no request", async (env) => {
    await configure(env);
    env.llm.script({ text: "A memory game." });
    const { panel } = await panelFor(env, ["/pages/agent/hidden-text.html"]);
    await ask(panel, "What is on this page?");
    assert.equal(await answerText(panel), "A memory game.");
    const sent = JSON.stringify(env.llm.lastRequest().body);
    assert.ok(sent.includes("Find the pairs"), "the page's visible text was sent");
    for (const n of ["ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX"]) assert.ok(!sent.includes(`AGENT NOTE ${n}`), `hidden note ${n} reached the model`);
  }],

  ["a page longer than the chat's budget is read to it: its first sections' text, and the later headings in the line saying it continues", async (env) => {
    await configure(env);
    env.llm.script({ text: "Built-in types." });
    const { panel } = await panelFor(env, ["/corpus/python-docs/python3.11-doc/html/library/stdtypes.html"]);
    await ask(panel, "What does this page cover?");
    await answerText(panel);
    const user = lastUserOf(env.llm.lastRequest());
    assert.match(user, /Truth Value Testing/, "an early section");
    assert.match(user, /Any object can be tested for truth value/, "an early section's text");
    const more = user.match(/\[The main content continues[^\]]*\]/)?.[0] ?? "";
    for (const h of ["Other Built-in Types", "Special Attributes"]) assert.ok(more.includes(h), `the late heading ${h} is named: ${more.slice(0, 300)}`);
  }],

  ["after a worker restart the conversation is still there and the next question works", async (env) => {
    await configure(env);
    env.llm.script({ text: "Beta costs 42 euros." }, { text: "It runs on Linux." });
    const { panel } = await panelFor(env, ["/pages/chat-b.html"]);
    await ask(panel, "How much is Beta?");
    await answerText(panel);
    await env.stopWorkers();
    await new Promise((r) => setTimeout(r, 300));
    await ask(panel, "What does it run on?");
    assert.equal(await answerText(panel, 2), "It runs on Linux.");
    assert.deepEqual(env.llm.lastRequest().body.messages.map((m) => m.role), ["system", "user", "assistant", "user"]);
    await panel.reload();
    await panel.locator(".msg.assistant").nth(1).waitFor();
    assert.deepEqual(await panel.locator(".msg.user").evaluateAll((els) => els.map((e) => e.firstChild.textContent)), ["How much is Beta?", "What does it run on?"]);
  }],

  ["with no provider the panel says so and links to settings", async (env) => {
    const { panel } = await panelFor(env, ["/pages/chat-a.html"]);
    await panel.locator("#setup-provider").waitFor();
    assert.match(await panel.locator("#empty-state").textContent(), /Set up a provider/);
    await ask(panel, "hello?");
    await panel.locator(".msg.assistant .note.error").waitFor();
    assert.match(await panel.locator(".msg.assistant .note.error").textContent(), /No LLM provider is configured/);
    assert.equal(await panel.locator("#provider-chip").textContent(), "Set up a provider");
    await panel.click("#more");
    assert.equal(await panel.locator("#open-settings").isVisible(), true);
    assert.equal(env.llm.requests().length, 0);
  }],

  ["the popup's chat button opens the real side panel", async (env) => {
    const page = await env.open(`${env.base}/pages/chat-a.html`);
    const popup = await env.open(env.extUrl("popup.html"));
    await popup.locator("#open-chat").click();
    const cdp = await env.ctx.newCDPSession(page);
    let panels = [];
    for (let i = 0; i < 30 && !panels.length; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const { targetInfos } = await cdp.send("Target.getTargets");
      panels = targetInfos.filter((t) => t.url === env.extUrl("sidepanel.html"));
    }
    await cdp.detach();
    assert.equal(panels.length, 1, "Chromium opened sidepanel.html in the side panel");
  }],

  ["the Agent switch shows the agent's pane and hides the chat's", async (env) => {
    const panel = await env.open(env.extUrl("sidepanel.html"));
    await panel.click("#mode-agent");
    assert.equal(await panel.locator("#agent-task").isVisible(), true);
    assert.equal(await panel.locator("#question").isVisible(), false);
    await panel.click("#mode-chat");
    assert.equal(await panel.locator("#question").isVisible(), true);
    assert.equal(await panel.locator("#agent-task").isVisible(), false);
  }],
];
