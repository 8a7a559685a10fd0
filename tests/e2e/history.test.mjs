// The side panel keeps your conversations: across a browser restart, listed newest first with their
// page and date; reopened and continued, exported and deleted, cleared from options; bounded, and
// says so. Each answer has Copy and Retry; an empty chat has starters; Enter, Shift+Enter and Esc.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { launch } from "./env.mjs";
import { answerText, ask, configure, keepChats, kept, openHistory, panelFor, waitKept } from "./chat_panel.mjs";
import { serious } from "./axe.mjs";

const lastUserOf = (req) => {
  const m = req.body.messages.filter((x) => x.role === "user").pop();
  return typeof m.content === "string" ? m.content : m.content.map((p) => p.text || "").join("");
};
/** The file the last export link holds. */
async function exportedFile(panel, button) {
  await panel.evaluate(() => document.querySelector("#history-file")?.remove());
  await panel.click(button);
  await panel.waitForFunction(() => document.querySelector("#history-file")?.getAttribute("href"));
  const link = panel.locator("#history-file");
  const href = await link.getAttribute("href");
  return { name: await link.getAttribute("download"), text: decodeURIComponent(href.slice(href.indexOf(",") + 1)) };
}

export const tests = [
  ["a conversation survives a browser restart: listed with its page and date, reopened and continued", async () => {
    const profile = mkdtempSync(path.join(tmpdir(), "dusk-restart-"));
    try {
      const first = await launch({ profile });
      try {
        await configure(first);
        first.llm.script({ text: "Alpha ships on Tuesday." });
        const { panel } = await panelFor(first, ["/pages/chat-a.html"]);
        await ask(panel, "When does Alpha ship?");
        assert.equal(await answerText(panel), "Alpha ships on Tuesday.");
        await waitKept(first, 1);
      } finally {
        await first.close();
      }
      const again = await launch({ profile });
      try {
        // The new scripted server listens elsewhere; the kept chat is in the profile.
        await configure(again);
        again.llm.script({ text: "It costs 10 euros." });
        const { panel } = await panelFor(again, ["/pages/chat-a.html"]);
        assert.equal(await panel.locator(".msg.user").count(), 0, "the window's chat starts empty after a restart");
        const items = await openHistory(panel);
        assert.equal(await items.count(), 1);
        assert.equal(await items.first().locator(".history-open").textContent(), "When does Alpha ship?");
        const meta = await items.first().locator(".history-meta").textContent();
        assert.match(meta, /^127\.0\.0\.1 · Alpha facts · /, meta);
        assert.match(meta, /\d{1,2}:\d{2}/, `a time: ${meta}`);
        assert.equal(await panel.locator(".history-group h3").first().textContent(), "Today", "the day is the group's");
        await items.first().locator(".history-open").click();
        assert.equal(await answerText(panel), "Alpha ships on Tuesday.");
        assert.equal(await panel.locator(".msg.user").first().innerText(), "When does Alpha ship?\nAlpha facts");
        await ask(panel, "And what does it cost?");
        assert.equal(await answerText(panel, 2), "It costs 10 euros.");
        const sent = JSON.stringify(again.llm.lastRequest().body.messages);
        assert.match(sent, /When does Alpha ship\?[^]*Alpha ships on Tuesday\.[^]*And what does it cost\?/, "the model gets the kept conversation");
        await waitKept(again, 1);
        const { index } = await kept(again);
        assert.equal(index.items.length, 1, "continuing keeps the same item");
        assert.ok(index.items[0].updated_ms > index.items[0].created_ms);
      } finally {
        await again.close();
      }
    } finally {
      rmSync(profile, { recursive: true, force: true });
    }
  }],

  ["kept chats list newest first; one exports as Markdown and JSON, and is deleted", async (env) => {
    const panel = await keepChats(env, [["What is Alpha?", "Alpha is a **red fox**."], ["What does Beta cost?", "Beta costs 42 euros."]]);
    const items = await openHistory(panel);
    assert.deepEqual(await items.locator(".history-open").allTextContents(), ["What does Beta cost?", "What is Alpha?"], "newest first");
    assert.deepEqual(await items.locator(".history-kind").allTextContents(), ["Chat", "Chat"]);
    const md = await exportedFile(panel, '.history-item:nth-child(2) .history-md');
    assert.match(md.name, /^dusk-chat-chat-\d+\.md$/);
    assert.match(md.text, /^# What is Alpha\?\n\n- Page: \[Alpha facts\]\(http:\/\/127\.0\.0\.1:\d+\/pages\/chat-a\.html\)\n- Date: .+\n\n## You\n\nWhat is Alpha\?\n\n## Dusk\n\nAlpha is a \*\*red fox\*\*\.\n/, md.text);
    const json = await exportedFile(panel, '.history-item:nth-child(2) .history-json');
    const file = JSON.parse(json.text);
    assert.equal(file.format, "dusk-history-item");
    assert.equal(file.item.summary.title, "What is Alpha?");
    assert.equal(file.item.session.entries[1].text, "Alpha is a **red fox**.");
    await panel.locator(".history-item:nth-child(2) .history-delete").click();
    await panel.waitForFunction(() => document.querySelectorAll(".history-item").length === 1);
    assert.equal(await panel.locator(".history-item .history-open").textContent(), "What does Beta cost?");
    const after = await kept(env);
    assert.equal(after.index.items.length, 1);
    assert.equal(after.items.length, 1, "the deleted item's key is gone from storage");
    assert.deepEqual(await serious(panel), [], "axe on the history view");
  }],

  ["options → Data shows the history's size and Clear all history empties it", async (env) => {
    await configure(env);
    env.llm.script({ text: "Kept." });
    const { panel } = await panelFor(env, ["/pages/chat-a.html"]);
    await ask(panel, "Keep this?");
    await answerText(panel);
    await waitKept(env, 1);
    const options = await env.open(env.extUrl("options.html"));
    const line = options.locator('#data-storage li[data-kind="history"]');
    await line.waitFor();
    assert.match(await line.textContent(), /^Kept conversations and runs: \d+(\.\d)? (B|KB)$/);
    options.once("dialog", (d) => d.accept());
    await options.click("#data-clear-history");
    await options.locator("#data-result.ok").waitFor();
    assert.equal(await options.locator("#data-result").textContent(), "History cleared.");
    const after = await kept(env);
    assert.deepEqual([after.index.items.length, after.items.length], [0, 0]);
    assert.ok((await options.evaluate(() => chrome.storage.local.get("settings"))).settings, "settings stay");
    await panel.bringToFront();
    await openHistory(panel);
    assert.match(await panel.locator(".history-empty").textContent(), /Nothing kept yet/);
  }],

  ["Retry asks the last question again and its new answer replaces the old one", async (env) => {
    await configure(env);
    env.llm.script({ text: "First try." }, { text: "Second try." });
    const { panel } = await panelFor(env, ["/pages/chat-a.html"]);
    await ask(panel, "Say something");
    assert.equal(await answerText(panel), "First try.");
    assert.equal(await panel.locator(".msg.assistant .copy").count(), 1, "the answer has Copy");
    await panel.click(".msg.assistant .retry");
    await env.llm.waitForRequests(2);
    await panel.waitForFunction(() => document.querySelector(".msg.assistant .md")?.textContent.trim() === "Second try.");
    assert.equal(await answerText(panel), "Second try.");
    const [a, b] = env.llm.requests();
    assert.equal(lastUserOf(b), lastUserOf(a), "the model sees the same question again");
    assert.equal(JSON.stringify(b.body.messages).split("Say something").length - 1, 1, "once, not twice");
    assert.equal(await panel.locator(".msg.user").count(), 1);
    assert.equal(await panel.locator(".msg.assistant").count(), 1);
  }],

  ["in the panel, Enter sends, Shift+Enter adds a line, Esc stops the answer and the agent", async (env) => {
    await configure(env);
    const { panel } = await panelFor(env, ["/pages/chat-a.html"]);
    await panel.focus("#question");
    await panel.keyboard.type("line one");
    await panel.keyboard.press("Shift+Enter");
    await panel.keyboard.type("line two");
    assert.equal(await panel.inputValue("#question"), "line one\nline two");
    assert.equal(env.llm.requests().length, 0, "Shift+Enter sends nothing");
    env.llm.script({ text: "One two three four five six seven eight.", chunks: ["One ", "two ", "three ", "four ", "five ", "six ", "seven ", "eight."], chunkDelayMs: 700 });
    await panel.keyboard.press("Enter");
    await env.llm.waitForRequests(1);
    assert.match(lastUserOf(env.llm.lastRequest()), /line one\nline two/);
    assert.equal(await panel.inputValue("#question"), "", "sent");
    await panel.waitForFunction(() => document.querySelector(".msg.assistant .md")?.textContent.includes("One"));
    await panel.keyboard.press("Escape");
    await panel.locator(".msg.assistant .note.stopped").waitFor({ timeout: 5000 });
    assert.ok(!(await panel.locator(".msg.assistant .md").textContent()).includes("eight"), "stopped mid-answer");
    await panel.locator("#send[data-state=send]").waitFor();

    await env.extPage().then((p) => p.evaluate(() => chrome.storage.local.set({ agent_settings: { mode: "dom", max_turns: 5, sites: {} } })));
    await panel.click("#mode-agent");
    const tabId = await env.tabIdFor(`${env.base}/pages/chat-a.html`);
    await panel.locator("#agent-tab").focus();
    await panel.waitForFunction((id) => [...document.querySelectorAll("#agent-tab option")].some((o) => o.value == id), tabId);
    await panel.selectOption("#agent-tab", String(tabId));
    env.llm.script({ text: "This reply comes too late.", delayMs: 20_000 });
    await panel.fill("#agent-task", "Wait a while");
    await panel.focus("#agent-task");
    await panel.keyboard.press("Enter");
    await env.llm.waitForRequests(2);
    await panel.keyboard.press("Escape");
    await panel.locator("#agent-answer.stopped").waitFor({ timeout: 5000 });
  }],

  ["an empty chat offers Summarise, Key points and Explain the selection", async (env) => {
    await configure(env);
    env.llm.setDefault({ text: "Done." });
    const { panel, pages } = await panelFor(env, ["/pages/chat-a.html"]);
    await panel.locator("#starters").waitFor();
    assert.deepEqual(await panel.locator("#starters button").allTextContents(), ["Summarise this page", "Key points", "Explain the selection"]);
    assert.deepEqual(await serious(panel), [], "axe on the starters");
    await panel.click("#starter-summarise");
    await answerText(panel);
    assert.equal(await panel.locator("#starters").count(), 0, "gone once the chat began");
    assert.match(lastUserOf(env.llm.lastRequest()), /Summarise this page\./);
    assert.match(lastUserOf(env.llm.lastRequest()), /<page tab="1" title="Alpha facts"/);
    await panel.click("#new-chat");
    await panel.click("#starter-key-points");
    await answerText(panel);
    assert.match(lastUserOf(env.llm.lastRequest()), /List the key points of this page\./);

    await panel.click("#new-chat");
    await panel.click("#starter-selection");
    await panel.locator(".no-selection").waitFor();
    assert.match(await panel.locator(".no-selection").textContent(), /Nothing is selected on the page/);
    assert.equal(env.llm.requests().length, 2, "nothing asked without a selection");
    const chosen = await pages[0].evaluate(() => {
      const p = [...document.querySelectorAll("p")].find((x) => x.textContent.trim().length > 10);
      getSelection().selectAllChildren(p);
      return getSelection().toString().trim();
    });
    await panel.click("#starter-selection");
    await answerText(panel);
    const asked = lastUserOf(env.llm.lastRequest());
    assert.ok(asked.includes(`> ${chosen.split("\n")[0]}`), asked);
    assert.match(asked, /Explain the selected text above\./);
    assert.match(await panel.locator(".msg.user").first().textContent(), /Explain the selected text above\./);
  }],

  ["past 100 kept items the oldest goes first, and the history view says so", async (env) => {
    await configure(env);
    // A long-used profile: 100 kept chats, oldest first.
    await env.extPage().then((p) => p.evaluate(() => {
      const data = { history_index: { items: [], evicted: 0 } };
      for (let i = 1; i <= 100; i++) {
        const summary = { id: `chat-${i}`, kind: "chat", title: `Old question ${i}`, page: { title: "Old", url: "http://old.example/" }, created_ms: i * 1000, updated_ms: i * 1000, bytes: 300 };
        data.history_index.items.push(summary);
        data[`history:chat-${i}`] = { summary, body: "chat", session: { entries: [{ kind: "user", text: `Old question ${i}`, tabs: [] }, { kind: "assistant", text: "Old answer" }] } };
      }
      return chrome.storage.local.set(data);
    }));
    env.llm.script({ text: "A new answer." });
    const { panel } = await panelFor(env, ["/pages/chat-a.html"]);
    const before = await openHistory(panel);
    assert.equal(await before.count(), 100);
    assert.equal(await panel.locator("#history-evicted").isHidden(), true, "nothing removed yet");
    assert.match(await panel.locator("#history-limit").textContent(), /newest 100 conversations and runs, up to 8\.0 MB/);
    await panel.click("#mode-chat");
    await ask(panel, "A new question");
    await answerText(panel);
    for (let i = 0; i < 50 && !(await kept(env)).index.items.some((s) => s.title === "A new question"); i++) await new Promise((r) => setTimeout(r, 100));
    const store = await kept(env);
    assert.equal(store.index.items.length, 100);
    assert.equal(store.index.evicted, 1);
    assert.ok(!store.index.items.some((s) => s.id === "chat-1") && !store.items.includes("history:chat-1"), "the oldest is gone, key and all");
    const items = await openHistory(panel);
    assert.equal(await items.count(), 100);
    assert.equal(await items.first().locator(".history-open").textContent(), "A new question");
    assert.equal(await items.last().locator(".history-open").textContent(), "Old question 2");
    assert.equal(await panel.locator("#history-evicted").textContent(), "1 of the oldest were removed to stay within that limit.");
    assert.deepEqual(await serious(panel), [], "axe on the bounded history");
  }],
];
