// Side-panel helpers shared by the chat and agent-runtime tests.

export async function configure(env) {
  const ext = await env.extPage();
  await ext.evaluate((base) => chrome.storage.local.set({
    settings: { provider: "openai", providers: [{ kind: "openai", model: "test-model", base_url: base, api_key: "sk-test" }] },
  }), `${env.llm.url}/v1`);
}

/** Opens the fixture pages and the side panel, and ticks those pages in the tab picker. */
export async function panelFor(env, paths) {
  const urls = paths.map((p) => `${env.base}${p}`);
  const pages = [];
  for (const u of urls) pages.push(await env.open(u));
  const panel = await env.open(env.extUrl("sidepanel.html"));
  await panel.locator("#tab-picker input").first().waitFor({ state: "attached" });
  await panel.locator("details.picker summary").click();
  for (const u of urls) {
    const id = await env.tabIdFor(u);
    await panel.locator(`#tab-picker input[data-tab-id="${id}"]`).check();
  }
  return { panel, pages };
}

export async function ask(panel, question) {
  await panel.fill("#question", question);
  await panel.click("#send");
}

/** Waits until the answer is complete, then returns its rendered text. */
export async function answerText(panel, n = 1) {
  const answer = panel.locator(".msg.assistant").nth(n - 1);
  await panel.waitForFunction((i) => {
    const el = document.querySelectorAll(".msg.assistant")[i];
    return el && !el.classList.contains("streaming") && document.querySelector("#send").dataset.state !== "stop";
  }, n - 1);
  return (await answer.locator(".md").textContent()).trim();
}

/** What History keeps in storage: the index and the items' keys. */
export const kept = (env) => env.extPage().then((p) => p.evaluate(() => chrome.storage.local.get(null)))
  .then((all) => ({ index: all.history_index ?? { items: [], evicted: 0 }, items: Object.keys(all).filter((k) => k.startsWith("history:")) }));

export async function waitKept(env, n) {
  for (let i = 0; i < 100; i++) {
    if ((await kept(env)).index.items.length >= n) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${n} kept item(s) never appeared`);
}

/** Opens the History view; its listed items. */
export async function openHistory(panel) {
  await panel.click("#open-history");
  await panel.locator("#history-list .history-item, #history-list .history-empty").first().waitFor();
  return panel.locator("#history-list .history-item");
}

/** Keeps one chat per [question, answer] on chat-a.html, each in a new chat of one panel; the panel. */
export async function keepChats(env, exchanges) {
  await configure(env);
  env.llm.script(...exchanges.map(([, answer]) => ({ text: answer })));
  const { panel } = await panelFor(env, ["/pages/chat-a.html"]);
  for (const [i, [question]] of exchanges.entries()) {
    if (i > 0) {
      await panel.click("#new-chat");
      await panel.locator("#starters").waitFor();
    }
    await ask(panel, question);
    await answerText(panel);
    await waitKept(env, i + 1);
  }
  return panel;
}

/** The system prompt of a request. */
export const systemOf = (req) => req.body.messages.find((m) => m.role === "system").content;

/** The text of a request's last user message. */
export const lastUserOf = (req) => {
  const m = req.body.messages.filter((x) => x.role === "user").pop();
  return typeof m.content === "string" ? m.content : m.content.map((p) => p.text || "").join("");
};

/** "Summarise" asked of a harmless page, then, in a new chat, of `path`: both requests, the model answering the same. */
export async function askHarmlessThen(env, path) {
  await configure(env);
  env.llm.setDefault({ text: "A lemon cake recipe." });
  const { panel } = await panelFor(env, ["/pages/chat-a.html"]);
  await ask(panel, "Summarise");
  await answerText(panel);
  const normal = env.llm.lastRequest();
  await panel.locator("#new-chat").click();
  await panel.locator(".msg").first().waitFor({ state: "detached" });
  const other = await panelFor(env, [path]);
  await ask(other.panel, "Summarise");
  const answer = await answerText(other.panel);
  return { normal, req: env.llm.lastRequest(), answer };
}
