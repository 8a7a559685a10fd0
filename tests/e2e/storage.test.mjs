// Storage never fills silently: Dusk holds `unlimitedStorage`, so with 10.5 MB already stored
// (past chrome.storage.local's 10 MB quota) every kind of save still lands; options show what is
// stored, by kind; and a write the browser refuses is said, with what to do, losing nothing.
import assert from "node:assert/strict";
import { answerText, ask, configure, panelFor } from "./chat_panel.mjs";
import { fixture, isDark, resetMemory, setSite, until } from "./dark.mjs";

const MB = 1024 * 1024;
const CSS = "pre { background: #0d1117 !important }";

export const tests = [
  ["with 10.5 MB stored, a site choice, a dark version, a customisation, settings and a conversation all save; options show the use by kind", async (env) => {
    await resetMemory(env);
    await configure(env);
    const ext = await env.extPage();
    try {
      const filled = await ext.evaluate((n) => chrome.storage.local.set({ zz_fill: "x".repeat(n) }).then(() => "ok", (e) => String(e)), 10.5 * MB);
      assert.equal(filled, "ok", "past the 10 MB quota, a write still lands");

      // A site choice, then a dark version from a Quick run in the popup.
      const url = fixture(env, "agent.html");
      const page = await env.open(url);
      await setSite(env, url, true);
      await until(() => isDark(page), "Instant to darken the page");
      const tabId = await env.tabIdFor(url);
      env.llm.script({ match: { hasTools: false, contains: "Refine the theme" }, reply: { text: "```css\n" + CSS + "\n```", omitUsage: true } });
      const popup = await env.ctx.newPage();
      await popup.goto(env.extUrl(`popup.html?tab=${tabId}`));
      await popup.locator("input[value=quick]").click();
      await until(() => popup.evaluate(() => document.querySelector("#dark-run")?.getAttribute("data-stage") === "done"), "the Quick run", 15_000);
      await popup.close();

      // A customisation and settings, through the options page's own requests.
      const custom = await env.sendToWorker({ type: "custom_save", host: "127.0.0.1", css: "h1 { letter-spacing: 1px }", js: "" });
      assert.equal(custom.sites?.[0]?.host, "127.0.0.1", JSON.stringify(custom).slice(0, 200));
      const settings = await env.sendToWorker({ type: "get_settings" });
      assert.equal((await env.sendToWorker({ type: "save_settings", settings: settings.settings })).type, "saved");

      // A conversation in the side panel.
      env.llm.setDefault({ text: "It is a guide page." });
      const { panel } = await panelFor(env, ["/dark/agent.html"]);
      await ask(panel, "What is this page?");
      assert.equal(await answerText(panel), "It is a guide page.");

      const stored = await ext.evaluate(() => chrome.storage.local.get(null));
      assert.equal(stored.zz_fill.length, 10.5 * MB, "nothing already stored was lost");
      assert.ok(JSON.stringify(stored.dark_sites ?? {}).includes("127.0.0.1"), "the site choice");
      assert.match(stored["dark_history:127.0.0.1"]?.versions?.[0]?.css ?? "", /0d1117/, "the dark version");
      assert.match(stored["custom_css:127.0.0.1"] ?? "", /letter-spacing/, "the customisation");
      assert.ok(stored.settings, "the settings");
      const session = await ext.evaluate(() => chrome.storage.session.get(null));
      assert.ok(JSON.stringify(session).includes("It is a guide page."), "the conversation is kept");

      const options = await env.open(env.extUrl("options.html"));
      await options.locator("#data-storage .storage-total").waitFor();
      const total = await options.locator("#data-storage .storage-total").textContent();
      assert.match(total, /^Stored by Dusk: 10\.\d MB — no limit/);
      const kinds = Object.fromEntries(await options.locator("#data-storage li").evaluateAll((lis) => lis.map((li) => [li.dataset.kind, li.textContent])));
      assert.match(kinds.other, /^Other: 10\.5 MB$/);
      for (const k of ["settings", "dark_sites", "dark_themes", "customisations"]) assert.doesNotMatch(kinds[k], /: 0 B$/, `${k}: ${kinds[k]}`);
    } finally {
      await ext.evaluate(() => chrome.storage.local.remove("zz_fill"));
      await resetMemory(env);
    }
  }],

  ["a write the browser refuses is said, with what to do, and the stored value stays", async (env) => {
    const ext = await env.extPage();
    await ext.evaluate(() => chrome.storage.local.set({ dark_agent: { max_turns: 5, max_input_tokens: 25000 } }));
    const options = await env.open(env.extUrl("options.html"));
    await options.locator("#dark-max-turns").waitFor();
    // The browser refuses writes from here on, as a full disk or a quota would.
    await options.evaluate(() => {
      chrome.storage.local.set = () => Promise.reject(new Error("QUOTA_BYTES quota exceeded"));
    });
    await options.fill("#dark-max-turns", "9");
    await options.locator("#dark-max-turns").dispatchEvent("change");
    const said = options.locator("#dark-limits-result.error");
    await said.waitFor();
    assert.match(await said.textContent(), /^Could not save, so nothing changed\. Free some space .* Chrome said: .*QUOTA_BYTES quota exceeded/);
    const kept = await ext.evaluate(() => chrome.storage.local.get("dark_agent").then((r) => r.dark_agent));
    assert.deepEqual(kept, { max_turns: 5, max_input_tokens: 25000 });
    await ext.evaluate(() => chrome.storage.local.remove("dark_agent"));
  }],
];
