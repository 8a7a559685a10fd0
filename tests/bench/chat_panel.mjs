// What the chat benches share: the scripted provider answering at once, and a side panel asking
// about the bbc-1 article.

/** Stores an OpenAI provider pointing at the scripted server, which streams two chunks at once. */
export async function benchProvider(env) {
  await (await env.extPage()).evaluate((base) => chrome.storage.local.set({
    settings: { provider: "openai", providers: [{ kind: "openai", model: "bench", base_url: base, api_key: "sk-bench" }] },
  }), `${env.llm.url}/v1`);
  env.llm.setDefault({ text: "First token, then the rest of the answer.", chunks: ["First", " token, then the rest of the answer."] });
}

/** Opens the article and a side panel with that tab picked; returns the panel. */
export async function panelOnArticle(env) {
  const page = await env.open(`${env.base}/corpus/readability/bbc-1/index.html`);
  const panel = await env.open(env.extUrl("sidepanel.html"));
  await panel.locator("#tab-picker input").first().waitFor({ state: "attached" });
  const tabId = await env.tabIdFor(page.url());
  await panel.locator("details.picker summary").click();
  await panel.locator(`#tab-picker input[data-tab-id="${tabId}"]`).check();
  return panel;
}
