// Page layer, CSS: dark-mode detection, extension-owned styles that stay last, rejected-rule reports.
import assert from "node:assert/strict";
import { openPage } from "./page-helpers.mjs";

const bodyBg = (page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

export const tests = [
  ["detect_dark_mode tells light pages from dark ones", async (env) => {
    const light = await openPage(env, "/pages/app.html");
    const l = await light.call({ type: "detect_dark_mode" });
    assert.equal(l.type, "dark_mode");
    assert.deepEqual([l.dark, l.background, l.text], [false, "#fafafa", "#222222"]);
    const dark = await openPage(env, "/pages/dark.html");
    const d = await dark.call({ type: "detect_dark_mode" });
    assert.equal(d.dark, true, JSON.stringify(d));
    assert.equal(d.color_scheme, "dark");
    assert.ok(d.background_luminance < 0.05);
  }],

  ["apply_css applies, reports rejected rules and declarations, and removes", async (env) => {
    const { page, call } = await openPage(env, "/pages/app.html?csp=strict");
    const css = "body { background: rgb(1, 2, 3) } h1 { colr: red; color: rgb(0, 0, 255) } @media (min-width: 1px) { p { color: green } } ##bad { color: red }";
    const r = await call({ type: "apply_css", id: "dark", css });
    assert.equal(r.type, "css_applied", JSON.stringify(r));
    assert.equal(r.rules, 3);
    assert.deepEqual(r.rejected.map((x) => x.text), ["colr: red", "##bad { color: red }"]);
    assert.equal(await bodyBg(page), "rgb(1, 2, 3)", "applies even under a strict page CSP");
    assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector("h1")).color), "rgb(0, 0, 255)");
    const again = await call({ type: "apply_css", id: "dark", css: "body { background: rgb(4, 5, 6) }" });
    assert.deepEqual(again.rejected, []);
    assert.equal(await bodyBg(page), "rgb(4, 5, 6)", "re-applying an id replaces its CSS");
    const removed = await call({ type: "remove_css", id: "dark" });
    assert.deepEqual([removed.type, removed.removed], ["css_removed", true]);
    assert.equal(await bodyBg(page), "rgba(0, 0, 0, 0)", "back to the page's own (unstyled under this CSP) background");
    assert.equal((await call({ type: "remove_css", id: "dark" })).removed, false);
  }],

  ["extension CSS stays last when the page adds styles or re-renders", async (env) => {
    const { page, call } = await openPage(env, "/pages/app.html");
    await call({ type: "apply_css", id: "dark", css: "body { background: rgb(7, 8, 9) }" });
    await page.evaluate(() => {
      const s = document.createElement("style");
      s.textContent = "body { background: rgb(255, 0, 0) }";
      document.documentElement.appendChild(s);
    });
    await page.waitForFunction(() => getComputedStyle(document.body).backgroundColor === "rgb(7, 8, 9)");
    await page.evaluate(() => {
      const head = document.createElement("head");
      head.innerHTML = "<style>body { background: rgb(0, 255, 0) }</style>";
      const body = document.createElement("body");
      body.textContent = "re-rendered";
      document.documentElement.replaceChildren(head, body);
    });
    await page.waitForFunction(() => getComputedStyle(document.body).backgroundColor === "rgb(7, 8, 9)");
    assert.equal(await page.evaluate(() => document.documentElement.lastElementChild.tagName), "STYLE");
  }],
];
