// The chat never answers from nothing: a tab whose content script does not answer still gives its
// text (the worker injects the script and asks again), and a page no extension may read makes the
// panel say why and the model is told.
import assert from "node:assert/strict";
import { answerText, ask, configure, lastUserOf } from "./chat_panel.mjs";

/** The page blocks the model was sent. */
const blocksOf = (req) => [...lastUserOf(req).matchAll(/<page tab="(\d+)"[^>]*>\n([^]*?)\n<\/page>/g)].map((m) => m[2]);

/** Switches Dusk off and on in chrome://extensions, as a user (or an update) does: pages open
 * before keep a script that no longer answers, and no new one is put in them. */
async function restartExtension(env) {
  const extensions = await env.ctx.newPage();
  await extensions.goto("chrome://extensions/");
  await extensions.evaluate(async (id) => {
    await chrome.management.setEnabled(id, false);
    await chrome.management.setEnabled(id, true);
  }, env.extId);
  await extensions.close();
  for (let i = 0; ; i++) {
    const ready = await env.extPage().then((p) => p.evaluate(() => Boolean(chrome.runtime?.id)), () => false);
    if (ready) return;
    if (i === 50) throw new Error("Dusk did not come back after being switched on");
    await env._ext?.close();
    await new Promise((r) => setTimeout(r, 100));
  }
}

const tabIds = (env) => env.extPage().then((p) => p.evaluate(async () => (await chrome.tabs.query({})).map((t) => t.id)));

/** Opens the side panel and ticks these tabs in its tab picker. */
async function panelWith(env, tabIds) {
  const panel = await env.open(env.extUrl("sidepanel.html"));
  await panel.locator("#tab-picker input").first().waitFor({ state: "attached" });
  await panel.locator("details.picker summary").click();
  for (const id of tabIds) await panel.locator(`#tab-picker input[data-tab-id="${id}"]`).check();
  return panel;
}

export const tests = [
  ["a tab whose content script was orphaned (Dusk switched off and on) still gives the chat its text", async (env) => {
    await configure(env);
    const page = await env.open(`${env.base}/pages/chat-a.html`);
    await restartExtension(env);
    const tabId = await env.tabIdFor(page.url());
    const ext = await env.extPage();
    const ping = await ext.evaluate((id) => chrome.tabs.sendMessage(id, { type: "ping" }, { frameId: 0 }).then(() => "answered", (e) => e.message), tabId);
    assert.match(ping, /Receiving end does not exist/, "the tab's script no longer answers");
    env.llm.script({ text: "It ships on Tuesday." });
    const panel = await panelWith(env, [tabId]);
    await ask(panel, "When does it ship?");
    assert.equal(await answerText(panel), "It ships on Tuesday.");
    const [block] = blocksOf(env.llm.lastRequest());
    assert.match(block, /^# Alpha\n## Summary\nThe Alpha project ships on Tuesday\. Its mascot is a red fox\./);
    assert.equal(await panel.locator(".msg.step").count(), 0, "no step says the page could not be read");
  }],

  ["a chrome:// page can't be read: the panel says why and the model is told", async (env) => {
    await configure(env);
    env.llm.script({ text: "I can't see that page." });
    const page = await env.open(`${env.base}/pages/chat-a.html`);
    const before = await tabIds(env);
    await env.open("chrome://version/");
    // Dusk may not see a chrome:// tab's address or title: it is the tab that was not there before.
    const [version] = (await tabIds(env)).filter((id) => !before.includes(id));
    const panel = await panelWith(env, [await env.tabIdFor(page.url()), version]);
    await ask(panel, "What is on these pages?");
    assert.equal(await answerText(panel), "I can't see that page.");
    // Chrome keeps a chrome:// tab's title and address from extensions: its number names it, as in the picker.
    const why = `Dusk could not read “#${version}”: Dusk's script can't run in this page (Cannot access a chrome:// URL); Chrome lets no extension read pages like chrome:// and the Web Store`;
    assert.deepEqual(await panel.locator(".msg.step").allTextContents(), [why]);
    assert.equal(await panel.locator(`#tab-picker input[data-tab-id="${version}"] + span`).textContent(), `#${version}`);
    const user = lastUserOf(env.llm.lastRequest());
    assert.ok(user.includes(`[${why}]`), user);
    assert.match(user, /red fox/, "the readable tab is still read");
  }],
];
