// The popup's run card: while Thorough works, its stage, round and Stop, with the site's current
// version on its own labelled line outside the card; after it, one result card with AA before →
// after, turns, tokens, the cost of a priced model, and the version with working buttons.
import assert from "node:assert/strict";
import { fixture, isDark, resetMemory, setSite, until } from "./dark.mjs";

const HOST = "127.0.0.1";
const CSS = "img.diagram { filter: invert(1) hue-rotate(180deg) !important }";
// A priced model (gpt-4.1-mini: $0.40 in, $1.60 out per million) on the scripted server.
const USAGE = { input: 20_000, output: 500 };

async function reset(env) {
  await resetMemory(env);
  const ext = await env.extPage();
  await ext.evaluate((h) => chrome.storage.local.remove([`dark_theme:${h}`, `dark_history:${h}`, "dark_agent", "settings"]), HOST);
}

const stage = (popup) => popup.evaluate(() => document.querySelector("#dark-run")?.getAttribute("data-stage") ?? null);
const inCard = (popup, sel) => popup.evaluate((s) => !!document.querySelector(`#dark-run ${s}`), sel);
const text = (popup, sel) => popup.locator(sel).textContent();
const filterOf = (page) => page.evaluate(() => getComputedStyle(document.querySelector("img.diagram")).filter);

export const tests = [
  ["Thorough in the popup: stage, round and Stop while it works; one result card with AA, turns, tokens, cost and the version buttons after", async (env) => {
    await reset(env);
    const ext = await env.extPage();
    await ext.evaluate((base) => chrome.storage.local.set({
      settings: { provider: "openai", providers: [{ kind: "openai", model: "gpt-4.1-mini", base_url: base, api_key: "sk-test" }] },
    }), `${env.llm.url}/v1`);
    const url = fixture(env, "agent.html");
    const page = await env.open(url);
    await setSite(env, url, true);
    await until(() => isDark(page), "dark");
    const popup = await env.open(env.extUrl(`popup.html?tab=${await env.tabIdFor(url)}`));
    await popup.locator("#dark h2").waitFor();
    await page.bringToFront();
    env.llm.script(
      { match: { contains: '"tool":"apply_css"' }, reply: { text: "Inverted the diagram.", usage: USAGE, delayMs: 300 } },
      { match: { hasTools: true, contains: "Refine the theme" }, reply: { toolCalls: [{ name: "apply_css", args: { css: CSS } }], usage: USAGE, delayMs: 1500 } },
    );
    try {
      await popup.locator("input[value=thorough]").click();
      await until(async () => (await stage(popup)) === "refining", "Thorough to refine", 15_000);
      assert.match(await text(popup, "#dark-run-stage"), /^Thorough · Refining \(round 1 of 5\)…$/);
      assert.ok(await inCard(popup, "#dark-stop"), "Stop sits in the run card");
      assert.equal(await text(popup, "#dark-version-label"), "The site's current version: Instant — built in, no LLM");
      assert.equal(await inCard(popup, "#dark-version-label"), false, "the current version is its own line, not part of the run");
      assert.equal(await popup.locator("#dark-regenerate").count(), 0, "no version buttons while the run works");

      await until(async () => (await stage(popup)) === "done", "Thorough to end", 20_000);
      assert.match(await text(popup, "#dark-run-stage"), /^Thorough · Done$/);
      assert.match(await text(popup, "#dark-run-aa"), /^Text meeting AA: \d+\.\d% → \d+\.\d%$/);
      assert.equal(await text(popup, "#dark-run-stats"), "2 turn(s) · 41,000 tokens · $0.02");
      assert.match(await text(popup, "#dark-version-label"), /^The site's current version: Version 1 of 1 · Thorough · gpt-4\.1-mini · AA \d+\.\d%$/);
      for (const id of ["#dark-run-aa", "#dark-run-stats", "#dark-version-label", "#dark-regenerate", "#dark-revert", "#dark-instant"]) {
        assert.ok(await inCard(popup, id), `${id} is in the one result card`);
      }
      assert.equal(await popup.locator(".run.card").count(), 1);
      assert.match(await filterOf(page), /invert/);

      await popup.locator("#dark-instant").click();
      await until(async () => /Instant — built in/.test(await text(popup, "#dark-version-label")), "Back to Instant");
      await until(async () => (await filterOf(page)) === "none", "Instant alone on the page");
      await until(() => popup.locator("#dark-revert").isDisabled(), "Revert off with Instant alone");

      // Regenerate runs Thorough again (the same script): a second version, shown in the card.
      await popup.locator("#dark-regenerate").click();
      await until(async () => /Version 2 of 2/.test(await text(popup, "#dark-version-label").catch(() => "")), "the regenerated version", 20_000);
      assert.equal(await stage(popup), "done");
      assert.ok(await inCard(popup, "#dark-version-label"));
      await until(async () => /invert/.test(await filterOf(page)), "version 2 on the page");
    } finally { await popup.close(); await reset(env); }
  }],
];
