// Quick and Thorough dark mode in the real extension, with the scripted model reading each request.
import assert from "node:assert/strict";
import { configure } from "./chat_panel.mjs";
import { fixture, isDark, resetMemory, setSite, until } from "./dark.mjs";

const HOST = "127.0.0.1";
const GOOD = "img.diagram { filter: invert(1) hue-rotate(180deg) !important }\npre { background: #0d1117 !important }\nhtml { scrollbar-color: #555 #111 !important }";

async function reset(env) {
  await resetMemory(env);
  const ext = await env.extPage();
  await ext.evaluate((h) => chrome.storage.local.remove([`dark_theme:${h}`, `dark_history:${h}`, "dark_agent"]), HOST);
}

/** The guide page, darkened by Instant, and the popup opened for its tab. */
async function darkPage(env, query = "") {
  await reset(env);
  await configure(env);
  const url = fixture(env, "agent.html", query);
  const page = await env.open(url);
  await setSite(env, url, true);
  await until(() => isDark(page), "Instant to darken the page");
  const tabId = await env.tabIdFor(url);
  await page.bringToFront();
  const popup = await env.ctx.newPage();
  await popup.goto(env.extUrl(`popup.html?tab=${tabId}`));
  await popup.locator("#dark h2").waitFor();
  await page.bringToFront();
  return { page, popup, url, tabId };
}

const stage = (popup) => popup.locator("#dark-run").getAttribute("data-stage").catch(() => null);
const untilStage = (popup, want, ms = 15_000) => until(async () => (await stage(popup)) === want, `the run to be ${want}`, ms);
const filterOf = (page, sel) => page.evaluate((s) => getComputedStyle(document.querySelector(s)).filter, sel);
const history = (env) => env.extPage().then((p) => p.evaluate((h) => chrome.storage.local.get(`dark_history:${h}`).then((r) => r[`dark_history:${h}`]), HOST));

/** Width of a base64 JPEG, read from its SOF marker. */
function jpegWidth(b64) {
  const b = Buffer.from(b64, "base64");
  for (let i = 2; i < b.length - 9; i++) if (b[i] === 0xff && b[i + 1] >= 0xc0 && b[i + 1] <= 0xc2) return b.readUInt16BE(i + 7);
  return -1;
}
const imagesIn = (req) => JSON.stringify(req.body).match(/data:image\/jpeg;base64,([A-Za-z0-9+/=]+)/g)?.map((u) => u.split(",")[1]) ?? [];
const names = (req) => req.body.messages.filter((m) => m.role === "tool").map((m) => JSON.parse(m.content.split(" [")[0]).tool);

const tool = (name, args) => ({ toolCalls: [{ name, args }], omitUsage: true });

export const tests = [
  ["Quick: the popup's choice, progress, CSS applied (sanitised), stored, and on again with the instant theme after a reload", async (env) => {
    const { page, popup } = await darkPage(env);
    env.llm.script({
      match: { hasTools: false, contains: "Refine the theme" },
      reply: { text: "```css\n@import url(http://127.0.0.1:9/evil.css);\nbody { background-image: url(http://127.0.0.1:9/track.png) }\n" + GOOD + "\n```", omitUsage: true },
    });
    try {
      await popup.locator("input[value=quick]").click();
      await untilStage(popup, "done");
      assert.match(await popup.locator("#dark-run-aa").textContent(), /100\.0% → 100\.0%/);
      assert.match(await popup.locator("#dark-run-stats").textContent(), /^1 turn\(s\) · [\d,]+ tokens · cost unknown$/, "a model with no price says so, with no stray brace");
      assert.match(await popup.locator("#dark-version-label").textContent(), /^The site's current version: Version 1 of 1 · Quick · test-model/);
      assert.match(await filterOf(page, "img.diagram"), /invert\(1\)/);
      assert.ok(await isDark(page, "#intro"), "still dark and readable");
      const req = env.llm.requests().find((r) => r.body.tools === undefined);
      const shots = imagesIn(req);
      assert.equal(shots.length, 1, "one screenshot of the page under Instant");
      assert.ok(jpegWidth(shots[0]) > 0 && jpegWidth(shots[0]) <= 800, `screenshot width ${jpegWidth(shots[0])}`);
      assert.match(JSON.stringify(req.body), /<page url=[^]*Pipeline guide[^]*The guard's baseline/);
      // The model sees the start of the theme in place: the page-wide defaults come first.
      assert.match(JSON.stringify(req.body), /The instant theme's CSS begins:\\n```css\\n:root\{color-scheme:dark!important\}html\{background-color:/);
      const saved = await history(env);
      assert.equal(saved.versions.length, 1);
      assert.ok(!saved.versions[0].css.includes("@import") && !saved.versions[0].css.includes("http:"), saved.versions[0].css);
      assert.ok(saved.versions[0].css.includes("hue-rotate"));
      // The refinement goes on in the same task as the instant theme (which sets data-dusk), so
      // no frame shows Instant without it; the frames before are the pre-paint fallback's.
      await page.addInitScript(() => {
        // Init scripts run before <html> exists, so watch the document.
        new MutationObserver((_, obs) => {
          const html = document.documentElement;
          if (!html?.hasAttribute("data-dusk")) return;
          window.themed = { scrollbar: getComputedStyle(html).scrollbarColor, ready: document.readyState };
          obs.disconnect();
        }).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-dusk"] });
      });
      await page.bringToFront();
      await page.reload();
      const themed = await until(() => page.evaluate(() => window.themed), "the instant theme to go on");
      assert.match(themed.scrollbar, /rgb\(85, 85, 85\)/, "the refinement arrives with the instant theme");
      await until(async () => /invert/.test(await filterOf(page, "img.diagram")), "the refinement after a reload");
    } finally { await popup.close(); await reset(env); }
  }],

  ["Thorough: every tool, the newest screenshot ≤ 800 px in the request, progress by round, kept version stored", async (env) => {
    const { page, popup } = await darkPage(env);
    // Rules are checked in order; each reads what the request holds so far (images after tool
    // results come as a user turn, so the last message is not always a tool result).
    env.llm.script(
      { match: { contains: '"tool":"scroll_and_capture"' }, reply: { text: "Inverted the diagram and darkened code.", omitUsage: true } },
      { match: { contains: '"tool":"apply_css"' }, reply: tool("scroll_and_capture", { y: 600 }) },
      { match: { contains: '"tool":"check_contrast"' }, reply: tool("apply_css", { css: GOOD }) },
      { match: { hasTools: true, contains: "Refine the theme" }, reply: { omitUsage: true, toolCalls: [
        { name: "get_color_palette", args: {} },
        { name: "inspect", args: { selector: "img.diagram" } },
        { name: "query_elements", args: { description: "code block" } },
        { name: "check_contrast", args: { foreground: "#e8e6e3", background: "#0d1117" } },
      ] } },
    );
    try {
      await popup.locator("input[value=thorough]").click();
      await untilStage(popup, "done", 30_000);
      assert.match(await popup.locator("#dark-run-message").textContent(), /Inverted the diagram/);
      assert.match(await popup.locator("#dark-run-stats").textContent(), /^4 turn\(s\)/);
      const reqs = env.llm.requests();
      assert.deepEqual(reqs.at(-1).body.tools.map((t) => t.function.name), ["inspect", "get_color_palette", "query_elements", "check_contrast", "apply_css", "scroll_and_capture"]);
      assert.deepEqual(names(reqs.at(-1)), ["get_color_palette", "inspect", "query_elements", "check_contrast", "apply_css", "scroll_and_capture"]);
      const applied = JSON.parse(reqs[2].body.messages.filter((m) => m.role === "tool").at(-1).content.split(" [")[0]);
      assert.equal(applied.data.kept, true);
      assert.equal(applied.data.quality.aa_share, 1);
      const last = imagesIn(reqs.at(-1));
      assert.equal(last.length, 1, "only the newest screenshot is an image");
      assert.ok(jpegWidth(last[0]) <= 800 && jpegWidth(last[0]) > 0);
      assert.match(JSON.stringify(reqs.at(-1).body), /\[screenshot from step 5\]/);
      assert.match(await filterOf(page, "img.diagram"), /invert/);
      const saved = await history(env);
      assert.equal(saved.versions[0].mode, "thorough");
      assert.equal(saved.versions[0].turns, 4);
    } finally { await popup.close(); await reset(env); }
  }],

  ["the guard reverts white text on white and hidden content, and the popup says why", async (env) => {
    const { page, popup } = await darkPage(env);
    env.llm.script(
      { text: "```css\nmain p, main h1 { color: #fff !important; background: #fff !important }\n```", omitUsage: true },
      { text: "```css\nmain { display: none !important }\n```", omitUsage: true },
    );
    try {
      await popup.locator("input[value=quick]").click();
      await untilStage(popup, "done");
      assert.match(await popup.locator("#dark-run-message").textContent(), /Reverted: text meeting WCAG AA fell from 100\.0%/);
      assert.ok(await isDark(page, "#intro"), "the page is back on Instant");
      assert.equal(await history(env), undefined, "nothing stored");
      await popup.locator("#dark-regenerate").click();
      await until(async () => /hidden/.test(await popup.locator("#dark-run-message").textContent().catch(() => "")), "the second verdict");
      assert.match(await popup.locator("#dark-run-message").textContent(), /text element\(s\) became hidden/);
      assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector("main")).display), "block");
    } finally { await popup.close(); await reset(env); }
  }],

  ["Stop ends a Thorough run; the page keeps its theme", async (env) => {
    const { page, popup } = await darkPage(env);
    env.llm.script({ match: { hasTools: true }, reply: { delayMs: 10_000, text: "too late" } });
    try {
      await popup.locator("input[value=thorough]").click();
      await untilStage(popup, "refining");
      await env.llm.waitForRequests(1, { timeoutMs: 10_000 });
      assert.equal(await popup.locator("#dark-version-label").textContent(), "The site's current version: Instant — built in, no LLM", "under Stop, Instant reads as the current version, not as a fallback");
      await popup.locator("#dark-stop").click();
      const t0 = Date.now();
      await untilStage(popup, "stopped", 3000);
      assert.ok(Date.now() - t0 < 1500, `stopped promptly (${Date.now() - t0} ms)`);
      await until(() => env.llm.lastRequest().aborted, "the model call to be aborted", 2000);
      assert.ok(await isDark(page, "#intro"));
    } finally { await popup.close(); await reset(env); }
  }],

  ["the worker killed mid-Thorough: the run resumes from its checkpoint and finishes", async (env) => {
    const { page, popup } = await darkPage(env);
    env.llm.script(
      { match: { contains: '"tool":"apply_css"' }, times: 1, reply: { delayMs: 8000, text: "never arrives" } },
      { match: { contains: '"tool":"apply_css"' }, reply: { text: "Done after a restart.", omitUsage: true } },
      { match: { hasTools: true, contains: "Refine the theme" }, reply: tool("apply_css", { css: GOOD }) },
    );
    try {
      await popup.locator("input[value=thorough]").click();
      await env.llm.waitForRequests(2, { timeoutMs: 15_000 });
      await env.stopWorkers();
      await untilStage(popup, "done", 20_000);
      assert.match(await popup.locator("#dark-run-message").textContent(), /Done after a restart/);
      const reqs = env.llm.requests();
      assert.equal(reqs.length, 3);
      assert.equal(reqs[1].aborted, true);
      assert.deepEqual(names(reqs[2]), ["apply_css"], "the apply ran once, before the restart");
      assert.equal((await history(env)).versions[0].css, GOOD, "the kept version survived the restart");
      assert.match(await filterOf(page, "img.diagram"), /invert/);
    } finally { await popup.close(); await reset(env); }
  }],

  ["history: Regenerate, Revert and Back to Instant", async (env) => {
    const { page, popup } = await darkPage(env);
    env.llm.script(
      { text: "```css\nimg.diagram { filter: brightness(.5) !important }\n```", omitUsage: true },
      { text: "```css\nimg.diagram { filter: invert(1) !important }\n```", omitUsage: true },
    );
    try {
      await popup.locator("input[value=quick]").click();
      await untilStage(popup, "done");
      await popup.locator("#dark-regenerate").click();
      await until(async () => /Version 2 of 2/.test(await popup.locator("#dark-version-label").textContent().catch(() => "")), "version 2");
      await until(async () => /invert/.test(await filterOf(page, "img.diagram")), "version 2 on the page");
      await popup.locator("#dark-revert").click();
      await until(async () => /Version 1 of 2/.test(await popup.locator("#dark-version-label").textContent()), "version 1");
      await until(async () => /brightness\(0\.5\)/.test(await filterOf(page, "img.diagram")), "version 1 on the page");
      await popup.locator("#dark-instant").click();
      await until(async () => (await filterOf(page, "img.diagram")) === "none", "Instant alone on the page");
      assert.ok(await isDark(page, "#intro"));
      await until(() => popup.locator("#dark-revert").isDisabled(), "Revert to be off with Instant alone");
    } finally { await popup.close(); await reset(env); }
  }],

  ["Quick on a strict-CSP page", async (env) => {
    const { page, popup } = await darkPage(env, "?csp=strict");
    env.llm.script({ text: "```css\n" + GOOD + "\n```", omitUsage: true });
    try {
      await popup.locator("input[value=quick]").click();
      await untilStage(popup, "done");
      assert.match(await filterOf(page, "img.diagram"), /invert/);
    } finally { await popup.close(); await reset(env); }
  }],

  ["Thorough limits come from options; the popup offers Quick and Thorough only with a provider", async (env) => {
    await reset(env);
    const options = await env.open(env.extUrl("options.html"));
    await options.locator("#dark-max-turns").fill("20");
    await options.locator("#dark-max-turns").dispatchEvent("change");
    await until(async () => (await options.locator("#dark-max-turns").inputValue()) === "15", "turns clamped to 15");
    const stored = await options.evaluate(() => chrome.storage.local.get("dark_agent").then((r) => r.dark_agent));
    assert.deepEqual(stored, { max_turns: 15, max_input_tokens: 25000 });
    await options.selectOption("#dark-default-mode", "thorough");
    await until(() => options.evaluate(() => chrome.storage.local.get("dark_mode").then((r) => r.dark_mode === "thorough")), "the default engine to be stored");
    await reset(env);
  }],
];
