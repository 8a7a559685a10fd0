// The options page in sections: known models offered per provider, the dark-mode site list, and
// Data (export then import round-trips settings, site data and History, never API keys; clear everything).
// Also the popup's layout: site first, the engine as one row, at 320 and 400 px.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { answerText, keepChats, kept, openHistory } from "./chat_panel.mjs";

const SECRET = "sk-test-never-exported-123";

async function seed(env) {
  const ext = await env.extPage();
  await ext.evaluate((key) => chrome.storage.local.set({
    settings: { provider: "openai", providers: [{ kind: "openai", api_key: key, model: "gpt-4.1-mini" }] },
    dark_sites: { "a.example": true, "b.example": false },
    "dark_theme:a.example": "body { background: #111 }",
    agent_settings: { mode: "dom", max_turns: 7, sites: { "bank.example": "block" } },
  }), SECRET);
}

/** Options → Data → Export: the file's text. */
async function exportBackup(page) {
  await page.evaluate(() => document.querySelector("#data-file")?.remove());
  await page.click("#data-export");
  await page.waitForFunction(() => document.querySelector("#data-file")?.getAttribute("href"));
  const href = await page.locator("#data-file").getAttribute("href");
  return decodeURIComponent(href.slice(href.indexOf(",") + 1));
}

/** Options → Data → Import of `text` as a file, on a page freshly opened. */
async function importBackup(env, text) {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "dusk-backup-")), "dusk-backup.json");
  writeFileSync(file, text);
  const page = await env.open(env.extUrl("options.html"));
  await page.waitForSelector("#data-import");
  await page.setInputFiles("#data-import", file);
  await page.waitForFunction(() => /Imported/.test(document.querySelector("#data-result")?.textContent ?? ""));
  return { page, file };
}

export const tests = [
  ["options: export then import round-trips settings and site data without the API key", async (env) => {
    await seed(env);
    const page = await env.open(env.extUrl("options.html"));
    for (const id of ["#provider-form", "#dark-options", "#agent-options", "#data-options"]) await page.waitForSelector(id);
    const text = await exportBackup(page);
    assert.ok(!text.includes(SECRET), "the key is not in the file");
    const backup = JSON.parse(text);
    assert.equal(backup.data.dark_sites["a.example"], true);
    assert.equal(backup.data.agent_settings.max_turns, 7);
    assert.match(await page.locator("#data-result").textContent(), /Exported/);

    // Everything forgotten, a key entered again, then the file imported.
    page.once("dialog", (d) => d.accept());
    await page.click("#data-clear");
    await page.waitForLoadState("load");
    const ext = await env.extPage();
    assert.deepEqual(await ext.evaluate(() => chrome.storage.local.get(null)), {}, "clear everything empties the store");
    await ext.evaluate(() => chrome.storage.local.set({ settings: { provider: "openai", providers: [{ kind: "openai", api_key: "sk-new-key", model: "" }] } }));
    const { page: fresh, file } = await importBackup(env, text);
    const stored = await ext.evaluate(() => chrome.storage.local.get(null));
    assert.equal(stored.settings.providers[0].model, "gpt-4.1-mini", "the settings came back");
    assert.equal(stored.settings.providers[0].api_key, "sk-new-key", "the key entered here stays; none came from the file");
    assert.equal(stored.dark_sites["a.example"], true);
    assert.equal(stored["dark_theme:a.example"], "body { background: #111 }");
    assert.equal(stored.agent_settings.sites["bank.example"], "block");
    // A file that isn't a backup is refused with a message, and nothing changes.
    writeFileSync(file, "{\"hello\": 1}");
    await fresh.setInputFiles("#data-import", []);
    await fresh.setInputFiles("#data-import", file);
    await fresh.waitForFunction(() => /not a Dusk backup/.test(document.querySelector("#data-result")?.textContent ?? ""));
  }],

  ["options: History travels in the backup; an import adds what is missing, skips what is kept, stays within the limit", async (env) => {
    const panel = await keepChats(env, [["What is Alpha?", "Alpha is a red fox."], ["What does Beta cost?", "Beta costs 42 euros."]]);

    const options = await env.open(env.extUrl("options.html"));
    await options.waitForSelector("#data-export");
    const text = await exportBackup(options);
    const backup = JSON.parse(text);
    assert.deepEqual(backup.data.history_index.items.map((s) => s.title), ["What does Beta cost?", "What is Alpha?"]);
    const alphaKey = `history:${backup.data.history_index.items[1].id}`;
    assert.equal(backup.data[alphaKey].session.entries[1].text, "Alpha is a red fox.", "the conversation itself is in the file");

    // Alpha deleted in the side panel, then the file imported: Alpha is back, Beta is not doubled.
    const items = await openHistory(panel);
    await items.nth(1).locator(".history-delete").click();
    await panel.waitForFunction(() => document.querySelectorAll(".history-item").length === 1);
    await importBackup(env, text);
    const back = await env.open(env.extUrl("sidepanel.html"));
    const listed = await openHistory(back);
    assert.deepEqual(await listed.locator(".history-open").allTextContents(), ["What does Beta cost?", "What is Alpha?"]);
    await listed.nth(1).locator(".history-open").click();
    // The conversation shown before the click may still be on screen for a moment.
    await back.waitForFunction(() => document.querySelector(".msg.user")?.textContent.includes("What is Alpha?"), null, { timeout: 10_000 });
    assert.equal(await answerText(back), "Alpha is a red fox.", "the imported conversation reopens");
    await importBackup(env, text);
    assert.equal((await kept(env)).index.items.length, 2, "a second import adds nothing");

    // A History one short of its 100 items: only the newest of the file joins, and nothing kept goes.
    await env.extPage().then((p) => p.evaluate(async () => {
      const { history_index: index } = await chrome.storage.local.get("history_index");
      await chrome.storage.local.remove(index.items.map((s) => `history:${s.id}`));
      const data = { history_index: { items: [], evicted: 0 } };
      for (let i = 1; i <= 99; i++) {
        const summary = { id: `old-${i}`, kind: "chat", title: `Old question ${i}`, page: null, created_ms: i * 1000, updated_ms: i * 1000, bytes: 300 };
        data.history_index.items.push(summary);
        data[`history:old-${i}`] = { summary, body: "chat", session: { entries: [{ kind: "user", text: `Old question ${i}`, tabs: [] }] } };
      }
      await chrome.storage.local.set(data);
    }));
    await importBackup(env, text);
    const full = await kept(env);
    assert.equal(full.index.items.length, 100);
    assert.equal(full.index.evicted, 0, "nothing kept was pushed out");
    assert.ok(full.items.includes(`history:${backup.data.history_index.items[0].id}`) && !full.items.includes(alphaKey), "the newer of the two joined");
    const shown = await openHistory(await env.open(env.extUrl("sidepanel.html")));
    assert.equal(await shown.count(), 100);
    assert.equal(await shown.first().locator(".history-open").textContent(), "What does Beta cost?");
  }],

  ["options: the model field offers the kind's known models; a site's choice can be removed", async (env) => {
    await seed(env);
    const page = await env.open(env.extUrl("options.html"));
    await page.waitForSelector("#dark-sites li");
    const models = () => page.evaluate(() => [...document.querySelectorAll("#model-options option")].map((o) => o.value));
    assert.ok((await models()).includes("gpt-4.1-mini"), JSON.stringify(await models()));
    await page.selectOption("#provider", "anthropic");
    await page.waitForFunction(() => [...document.querySelectorAll("#model-options option")].some((o) => o.value.startsWith("claude-")));
    assert.ok((await models()).every((m) => m.startsWith("claude-")));
    assert.deepEqual(await page.locator("#dark-sites .site-host").allTextContents(), ["a.example", "b.example"]);
    await page.click('#dark-sites li[data-host="a.example"] button');
    await page.waitForFunction(() => !document.querySelector('#dark-sites li[data-host="a.example"]'));
    const ext = await env.extPage();
    assert.deepEqual((await ext.evaluate(() => chrome.storage.local.get("dark_sites"))).dark_sites, { "b.example": false });
  }],

  ["popup: the site and its switch come first, the engine is one row of three, no word wraps at 320 or 400 px", async (env) => {
    const site = await env.open(`${env.base}/dark/basic.html`);
    const tab = await env.tabIdFor(site.url());
    for (const width of [320, 400]) {
      const popup = await env.open(env.extUrl(`popup.html?tab=${tab}`));
      await popup.setViewportSize({ width, height: 600 });
      await popup.waitForSelector("#dark-mode .segments");
      const layout = await popup.evaluate(() => {
        const top = (sel) => document.querySelector(sel)?.getBoundingClientRect().top ?? -1;
        const segs = [...document.querySelectorAll("#dark-mode .segments label")].map((l) => l.getBoundingClientRect());
        const lineHeight = parseFloat(getComputedStyle(document.querySelector("#dark-mode .segments label")).lineHeight) || 18;
        return {
          order: [top("#dark-auto"), top("#dark-host"), top("#dark-site"), top("#dark-mode"), top("#open-chat")],
          oneRow: segs.every((r) => Math.abs(r.top - segs[0].top) < 1),
          unwrapped: segs.every((r) => r.height < lineHeight * 2 + 10),
          desc: document.querySelector("#dark-mode-desc")?.textContent,
          overflow: document.documentElement.scrollWidth > innerWidth,
        };
      });
      const [all, host, sw, engine, chat] = layout.order;
      assert.ok(all >= 0 && all < host && host <= sw + 20 && sw < engine && engine < chat, `order at ${width}px: ${layout.order}`);
      assert.ok(layout.oneRow && layout.unwrapped, `segments at ${width}px: ${JSON.stringify(layout)}`);
      assert.match(layout.desc, /Built in/);
      assert.equal(layout.overflow, false, `nothing overflows at ${width}px`);
      await popup.close();
    }
  }],
];
