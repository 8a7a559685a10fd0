// Customize this site through the side panel's Customize mode. The model is a scripted
// policy that reads only the requests it gets (agent_policy.mjs); the tests read the page, the
// panel and the options page.
import assert from "node:assert/strict";
import { agentPanel, pickTab } from "./agent_panel.mjs";
import { answer, byText, lastListing, parseRequest, toolCall } from "./agent_policy.mjs";
import { framesDuring } from "../lib/frames.mjs";
import { colourSpot } from "../lib/pixels.mjs";
import { isDark, resetMemory, setSite, until } from "./dark.mjs";
import { writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const PAGE = "/pages/customize.html";
const RED = [224, 0, 0];
const usePolicy = (env, policy) => env.llm.setDefault((req) => policy(parseRequest(req)));
const press = (panel, selector) => panel.locator(selector).dispatchEvent("click");
const bannerShown = (page) => page.evaluate(() => getComputedStyle(document.getElementById("cookie-banner")).display !== "none");
const mainShown = (page) => page.evaluate(() => getComputedStyle(document.getElementById("article")).display !== "none");

/** Stops a run a failed test left going, then forgets every customisation. */
async function cleanUp(env, panel) {
  await panel.evaluate(() => document.querySelector("#agent-run[data-state=stop]")?.click()).catch(() => {});
  await forgetCustomisations(env);
}

async function forgetCustomisations(env) {
  const ext = await env.extPage();
  await ext.evaluate(async () => {
    const all = await chrome.storage.local.get(null);
    await chrome.storage.local.remove(Object.keys(all).filter((k) => k.startsWith("custom")));
  });
  await env.sendToWorker({ type: "custom_list" });
}

/** The panel in Customize mode on the fixture page's tab. */
async function customizePanel(env) {
  await forgetCustomisations(env);
  const ctx = await agentPanel(env, PAGE, { mode: "dom" });
  await press(ctx.panel, "#mode-customize");
  await pickTab(ctx.panel, ctx.tabId);
  return ctx;
}

async function start(panel, request) {
  await panel.evaluate(() => {
    const a = document.querySelector("#agent-answer");
    a.hidden = true;
    a.className = "agent-answer";
  });
  await panel.fill("#agent-task", request);
  await press(panel, "#agent-run");
}

/** The next confirmation card: its step, tool line, detail (diff or code) and Save button text. */
async function nextCard(panel, timeout = 20_000) {
  const h = await panel.waitForFunction(() => document.querySelector(".confirm-card")?.dataset.step, null, { timeout, polling: 50 });
  const step = await h.jsonValue();
  return panel.evaluate((s) => {
    const c = document.querySelector(`.confirm-card[data-step="${s}"]`);
    return { step: s, action: c.querySelector(".confirm-action").textContent, detail: c.querySelector(".confirm-code")?.textContent ?? "", approve: c.querySelector("button.approve").textContent };
  }, step);
}

async function outcome(panel, timeout = 30_000) {
  const el = panel.locator("#agent-answer.done, #agent-answer.failed, #agent-answer.stopped");
  await el.waitFor({ timeout });
  return { state: (await el.getAttribute("class")).split(" ").find((c) => ["done", "failed", "stopped"].includes(c)), text: (await el.textContent()).trim() };
}

/** The banner's container, as a model finds it: the Accept button's selector up to its id'd ancestor. */
const containerOf = (selector) => selector.match(/^#[\w-]+/)?.[0] ?? selector;

/** Finds the banner, previews CSS hiding it, saves it; answers with how it went. */
const hideBannerPolicy = (p) => {
  if (!p.last) return toolCall("read_site_css");
  if (p.last.name === "read_site_css") return toolCall("get_elements", { filter: "button", visible_only: false });
  if (p.last.name === "get_elements") {
    const button = byText(lastListing(p), "Accept cookies");
    return button ? toolCall("get_element_details", { indices: [button.index] }) : answer("I found no cookie banner.");
  }
  const details = p.calls.find((c) => c.name === "get_element_details")?.result?.data?.details?.[0];
  const css = `${containerOf(details.selector)} { display: none !important; }`;
  if (p.last.name === "get_element_details") return toolCall("preview_css", { css });
  if (p.last.name === "preview_css") return p.last.result.success ? toolCall("save_site_css", { css, note: "hide the cookie banner" }) : answer(`The preview failed: ${p.last.result.error}`);
  return answer(p.last.result.success ? "The cookie banner is hidden on every visit." : `Not saved: ${p.last.result.error}`);
};

export const tests = [
  ["hide the cookie banner: preview, diff, Save, and the banner is gone from the first painted frame of a reload", async (env) => {
    const { page, panel } = await customizePanel(env);
    try {
      await page.bringToFront();
      const before = await framesDuring(env.ctx, page, () => page.reload());
      const ext = await env.extPage();
      assert.ok(await colourSpot(ext, before.at(-1), RED, { band: 10_000 }), "control: the red banner is painted before customising");
      usePolicy(env, hideBannerPolicy);
      await start(panel, "hide the cookie banner");
      const card = await nextCard(panel);
      assert.match(card.action, /^What will happen: Save CSS that applies on every visit on 127\.0\.0\.1$/, card.action);
      assert.equal(card.approve, "Save");
      assert.match(card.detail, /\+#cookie-banner \{ display: none !important; \}/, card.detail);
      assert.match(card.detail, /--- CSS before/);
      assert.equal(await bannerShown(page), false, "the preview is on the page while the card waits");
      const saved = await env.sendToWorker({ type: "custom_list" });
      assert.deepEqual(saved.sites, [], "nothing is saved before the click");
      await press(panel, `.confirm-card[data-step="${card.step}"] button.approve`);
      const end = await outcome(panel);
      assert.equal(end.state, "done", end.text);
      const steps = await panel.locator(".agent-step .text").allTextContents();
      assert.ok(steps.some((s) => /Previewed 1 rule\(s\): 2 text element\(s\) hidden, 0 shown, 0 box\(es\) moved/.test(s)), steps.join(" | "));
      assert.ok(steps.some((s) => /Saved the site's CSS \(\+1 −0 lines\)/.test(s)), steps.join(" | "));
      assert.equal(await bannerShown(page), false);
      await page.bringToFront();
      const frames = await framesDuring(env.ctx, page, () => page.reload());
      assert.ok(frames.length > 0, "frames were recorded");
      for (const f of frames) assert.equal(await colourSpot(ext, f, RED, { band: 10_000 }), null, "no frame of the reload shows the banner");
      assert.equal(await bannerShown(page), false, "still hidden after the reload");
      assert.equal(await mainShown(page), true);
    } finally { await cleanUp(env, panel); }
  }],

  ["a preview reports what it shows; the guard refuses one that hides the main text, and nothing is saved", async (env) => {
    const { page, panel } = await customizePanel(env);
    try {
      usePolicy(env, (p) => {
        if (!p.last) return toolCall("preview_css", { css: "#print-note { display: block !important; }" });
        if (p.calls.length === 1) return toolCall("preview_css", { css: "main, body > p { display: none !important; }" });
        if (p.last.name === "preview_css" && !p.last.result.success) return answer(`Refused: ${p.last.result.error}`);
        return toolCall("save_site_css", { css: "main { display: none !important; }" });
      });
      await start(panel, "make the page cleaner");
      const end = await outcome(panel);
      assert.equal(end.state, "done", end.text);
      assert.match(end.text, /refused: this CSS hides \d+ of the page's \d+ visible text elements/);
      const steps = await panel.locator(".agent-step .text").allTextContents();
      assert.ok(/0 text element\(s\) hidden, 1 shown/.test(steps[0]), steps.join(" | "));
      assert.equal(await mainShown(page), true, "the refused preview was taken off the page");
      assert.deepEqual((await env.sendToWorker({ type: "custom_list" })).sites, []);
    } finally { await cleanUp(env, panel); }
  }],

  ...[true, false].map((previewFirst) => [`a save of CSS the guard refuses${previewFirst ? ", right after its preview was refused," : " with no preview before it"} shows no card, stores nothing and tells the model why`, async (env) => {
    const { page, panel } = await customizePanel(env);
    try {
      const css = "main, article { display: none !important; }";
      usePolicy(env, (p) => {
        if (!p.last && previewFirst) return toolCall("preview_css", { css });
        if (!p.calls.some((c) => c.name === "save_site_css")) return toolCall("save_site_css", { css, note: "cleaner" });
        return answer(p.last.result.success ? "Saved." : `Not saved: ${p.last.result.error}`);
      });
      await start(panel, "make the page cleaner");
      const end = await outcome(panel);
      assert.equal(end.state, "done", end.text);
      assert.match(end.text, /^Not saved: blocked: the CSS was not saved: refused: this CSS hides \d+ of the page's \d+ visible text elements/);
      assert.equal(await panel.locator(".confirm-card").count(), 0, "no card was put to the user");
      assert.equal(await mainShown(page), true, "the page's main text is on screen");
      assert.deepEqual((await env.sendToWorker({ type: "custom_list" })).sites, [], "nothing stored");
      await page.reload();
      assert.equal(await mainShown(page), true, "and after a reload");
    } finally { await cleanUp(env, panel); }
  }]),

  ["JS is saved only after a confirmation that shows the code, and runs on reload where user scripts are allowed", async (env) => {
    const { page, panel } = await customizePanel(env);
    // The script reports what it can reach: a user script has no chrome.* privileges.
    const js = 'document.getElementById("script-status").textContent = "customised by a user script; chrome.storage: " + typeof globalThis.chrome?.storage + ", chrome.tabs: " + typeof globalThis.chrome?.tabs;';
    try {
      await env.setUserScripts(true);
      usePolicy(env, (p) => {
        if (!p.last) return toolCall("read_site_js");
        if (p.last.name === "read_site_js") return toolCall("save_site_js", { js, note: "mark the page" });
        return answer(p.last.result.success ? "Saved the script." : `Not saved: ${p.last.result.error}`);
      });
      await start(panel, "add a line saying the page was customised");
      const card = await nextCard(panel);
      assert.match(card.action, /^What will happen: Save a script that runs on every visit on 127\.0\.0\.1$/, card.action);
      assert.ok(card.detail.includes(js), `the card shows the code in full: ${card.detail}`);
      await press(panel, `.confirm-card[data-step="${card.step}"] button.approve`);
      const end = await outcome(panel);
      assert.equal(end.state, "done", end.text);
      await page.reload();
      await until(async () => (await page.textContent("#script-status")).startsWith("customised by a user script"), "the saved script ran on reload");
      assert.equal(await page.textContent("#script-status"), "customised by a user script; chrome.storage: undefined, chrome.tabs: undefined", "the script ran without the extension's privileges");

      // Without user scripts: the same save says how to enable them, and the CSS part keeps working.
      await env.setUserScripts(false);
      usePolicy(env, (p) => {
        if (!p.last) return toolCall("save_site_css", { css: "#cookie-banner { display: none !important; }" });
        if (p.last.name === "save_site_css") return toolCall("save_site_js", { js: js.replace("customised", "changed") });
        return answer("Done.");
      });
      await start(panel, "hide the banner and change the line");
      for (let i = 0; i < 2; i++) {
        const c = await nextCard(panel);
        await press(panel, `.confirm-card[data-step="${c.step}"] button.approve`);
        await panel.locator(`.confirm-card[data-step="${c.step}"]`).waitFor({ state: "detached" });
      }
      assert.equal((await outcome(panel)).state, "done");
      const steps = await panel.locator(".agent-step .text").allTextContents();
      assert.ok(steps.some((s) => /Allow User Scripts/.test(s)), `the step says how to enable user scripts: ${steps.join(" | ")}`);
      await page.reload();
      assert.equal(await bannerShown(page), false, "the CSS part works without user scripts");
    } finally {
      await env.setUserScripts(false);
      await cleanUp(env, panel);
    }
  }],

  ["options: view, edit, disable, revert and delete a site's customisation, live on the open page", async (env) => {
    await forgetCustomisations(env);
    const page = await env.open(`${env.base}${PAGE}`);
    const host = "127.0.0.1";
    try {
      const first = await env.sendToWorker({ type: "custom_save", host, css: "main h1 { letter-spacing: 3px; }", js: "" });
      assert.equal(first.sites[0].versions.length, 1);
      const options = await env.open(env.extUrl("options.html"));
      const site = options.locator(`#custom-sites details[data-host="${host}"]`);
      await site.waitFor({ state: "attached" });
      await site.locator("summary").click();
      assert.equal(await options.inputValue("#custom-css-0"), "main h1 { letter-spacing: 3px; }", "the saved CSS is shown for editing");
      assert.match(await site.locator(".custom-yours").innerText(), /applied as written: the check that keeps a page's main text visible guards only the Customize agent's changes/);
      assert.equal(await bannerShown(page), true);

      await options.fill("#custom-css-0", "#cookie-banner { display: none !important; }");
      await options.click(`#custom-sites .custom-save`);
      await options.waitForFunction(() => /Saved/.test(document.querySelector("#custom-result")?.textContent ?? ""));
      await until(async () => !(await bannerShown(page)), "the edit applies to the open page");
      await page.reload();
      assert.equal(await bannerShown(page), false, "and to the next visit");

      await options.locator(`#custom-sites details[data-host="${host}"] summary`).click();
      await options.uncheck("#custom-enabled-0");
      await until(async () => await bannerShown(page), "disabled: the page is as the site made it");
      await options.locator(`#custom-sites details[data-host="${host}"] summary`).click();
      await options.check("#custom-enabled-0");
      await until(async () => !(await bannerShown(page)), "enabled again");

      await options.locator(`#custom-sites details[data-host="${host}"] summary`).click();
      const history = await options.locator("#custom-history-0 option").allTextContents();
      assert.equal(history.length, 2, `two versions: ${history}`);
      assert.match(history[0], /^#2 .*edited in options/);
      await options.selectOption("#custom-history-0", "0");
      await options.click("#custom-sites .custom-revert");
      await until(async () => await bannerShown(page), "reverted to the first version, which kept the banner");
      await options.locator(`#custom-sites details[data-host="${host}"] summary`).click();
      assert.equal(await options.inputValue("#custom-css-0"), "main h1 { letter-spacing: 3px; }");
      assert.equal(await options.locator("#custom-history-0 option").count(), 3, "a revert is a version of its own");

      options.once("dialog", (d) => d.accept());
      await options.click("#custom-sites .custom-delete");
      await options.waitForFunction(() => !document.querySelector("#custom-sites details"));
      assert.match(await options.locator("#custom-sites").textContent(), /No site is customised yet/);
      await page.reload();
      assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector("main h1")).letterSpacing), "normal", "deleted: nothing is applied any more");
    } finally { await forgetCustomisations(env); }
  }],

  ["customisations go out with the backup and come back with an import", async (env) => {
    await forgetCustomisations(env);
    const page = await env.open(`${env.base}${PAGE}`);
    try {
      await env.sendToWorker({ type: "custom_save", host: "127.0.0.1", css: "#cookie-banner { display: none !important; }", js: "" });
      const options = await env.open(env.extUrl("options.html"));
      await options.click("#data-export");
      await options.waitForFunction(() => document.querySelector("#data-file")?.getAttribute("href"));
      const href = await options.locator("#data-file").getAttribute("href");
      const text = decodeURIComponent(href.slice(href.indexOf(",") + 1));
      assert.ok(JSON.parse(text).data["custom:127.0.0.1"], "the site's customisation is in the file");
      await env.sendToWorker({ type: "custom_delete", host: "127.0.0.1" });
      await page.reload();
      assert.equal(await bannerShown(page), true, "deleted before the import");
      const file = path.join(mkdtempSync(path.join(tmpdir(), "dusk-custom-")), "dusk-backup.json");
      writeFileSync(file, text);
      const fresh = await env.open(env.extUrl("options.html"));
      await fresh.waitForSelector("#data-import");
      await fresh.setInputFiles("#data-import", file);
      await fresh.waitForFunction(() => /Imported/.test(document.querySelector("#data-result")?.textContent ?? ""));
      await fresh.waitForSelector('#custom-sites details[data-host="127.0.0.1"]', { state: "attached" });
      await page.reload();
      assert.equal(await bannerShown(page), false, "the imported customisation applies on the next visit");
    } finally { await forgetCustomisations(env); }
  }],

  ["on a dark site the customisation comes after the dark theme, and a reload stays dark", async (env) => {
    await forgetCustomisations(env);
    await resetMemory(env);
    const url = `${env.base}${PAGE}`;
    const page = await env.open(url);
    try {
      await setSite(env, url, true);
      await until(() => isDark(page, "main"), "dark");
      await env.sendToWorker({ type: "custom_save", host: "127.0.0.1", css: "#cookie-banner { display: none !important; }\nmain h1 { color: rgb(0, 160, 0) !important; }", js: "" });
      await until(async () => (await page.evaluate(() => getComputedStyle(document.querySelector("main h1")).color)) === "rgb(0, 160, 0)", "the customisation wins over the dark theme");
      await page.bringToFront();
      const frames = await framesDuring(env.ctx, page, () => page.reload());
      const ext = await env.extPage();
      const { imageStats } = await import("../lib/pixels.mjs");
      for (const f of frames) assert.ok((await imageStats(ext, f)).luminance <= 0.1, "every frame of the reload is dark");
      assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector("main h1")).color), "rgb(0, 160, 0)");
      assert.equal(await bannerShown(page), false);
    } finally {
      await resetMemory(env);
      await forgetCustomisations(env);
    }
  }],
];
