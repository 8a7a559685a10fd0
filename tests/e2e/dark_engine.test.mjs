// The instant dark engine as a reader sees it: colours, contrast, and what must stay untouched.
import assert from "node:assert/strict";
import { aaReport, colourSnapshot, layoutSnapshot } from "../lib/wcag.mjs";
import { rgba } from "../lib/pixels.mjs";
import { computed, fixture, isDark, luminance, resetMemory, setSite, state, until } from "./dark.mjs";

async function darkened(env, name, query = "") {
  await resetMemory(env);
  const url = fixture(env, name, query);
  const page = await env.open(url);
  const before = { colours: await page.evaluate(colourSnapshot), layout: await page.evaluate(layoutSnapshot) };
  await setSite(env, url, true);
  await until(() => isDark(page), "the page to turn dark");
  return { page, url, before };
}

export const tests = [
  ["turning a site on darkens it with AA text, and turning it off restores it exactly", async (env) => {
    const { page, url, before } = await darkened(env, "basic.html");
    try {
      const report = await page.evaluate(aaReport);
      assert.equal(report.share, 1, JSON.stringify(report.failures));
      for (const sel of ["#card", "#inline", "#code"]) assert.ok(await isDark(page, sel), `${sel} is dark`);
      assert.ok(luminance(await computed(page, "#text", "color")) > 0.4, "text is light");
      assert.ok(luminance(await computed(page, "#link", "color")) >= 0.3, "links are light (the theme's text floor)");
      assert.match(await computed(page, "html", "color-scheme"), /dark/, "form controls and scrollbars go dark");
      assert.deepEqual(await page.evaluate(layoutSnapshot), before.layout, "nothing moved");
      await setSite(env, url, false);
      await until(async () => !(await isDark(page)), "the page to turn light again");
      assert.deepEqual(await page.evaluate(colourSnapshot), before.colours, "every colour is back");
      assert.equal(await page.evaluate(() => document.documentElement.getAttributeNames().join()), "lang", "no attribute left behind");
    } finally { await resetMemory(env); }
  }],

  ["the switch is one frame on a page with slow colour transitions, which still work afterwards", async (env) => {
    for (const prepared of [true, false]) {
      await resetMemory(env);
      const url = fixture(env, "transitions.html");
      const page = await env.open(url);
      // With the popup open first the page prepares its theme; without it, the switch builds it then.
      if (prepared) await state(env, url);
      await setSite(env, url, true);
      try {
        await until(async () => luminance(await computed(page, "body", "background-color")) < 0.05, "the body to turn dark without fading", 1500);
        const first = await computed(page, "#card", "background-color");
        assert.ok(luminance(first) < 0.05, `card is dark at once (${first}), not fading (prepared: ${prepared})`);
        await page.waitForTimeout(300);
        assert.equal(await computed(page, "#card", "background-color"), first, "nothing is still animating");
        assert.equal(await computed(page, "body", "transition-duration"), "3s, 3s", "the page's own transitions are back");
      } finally { await resetMemory(env); await page.close(); }
    }
  }],

  ["opening the popup readies the theme without touching the page, and the switch then works at once", async (env) => {
    await resetMemory(env);
    const url = fixture(env, "transitions.html");
    const page = await env.open(url);
    // Slow transitions would show any sheet the rehearsal of the switch left on, even for a frame.
    const look = () => page.evaluate(() => ({
      sheets: document.adoptedStyleSheets.length,
      animations: document.getAnimations().length,
      body: getComputedStyle(document.body).backgroundColor,
      card: getComputedStyle(document.getElementById("card")).backgroundColor,
      attributes: document.documentElement.getAttributeNames().join(),
    }));
    const before = await look();
    try {
      const opened = await state(env, url);
      assert.equal(opened.page?.phase, "off", JSON.stringify(opened));
      await page.waitForTimeout(300);
      assert.deepEqual(await look(), before, "the page is as it was");
      const tabId = await env.tabIdFor(url);
      const ext = await env.extPage();
      const reply = await ext.evaluate((id) => chrome.tabs.sendMessage(id, { type: "dark_switch", on: true }), tabId);
      assert.equal(reply.phase, "active", JSON.stringify(reply));
      assert.ok(luminance(await computed(page, "#card", "background-color")) < 0.05, "the card is dark at once");
      assert.equal((await state(env, url)).page?.phase, "active", "the page stays on after its next check");
    } finally { await resetMemory(env); await page.close(); }
  }],

  ["an unsized SVG drawn full width on the default fill stays dark; an icon beside it turns light", async (env) => {
    await resetMemory(env);
    const url = fixture(env, "svg.html");
    const page = await env.open(url);
    await setSite(env, url, true);
    try {
      await until(() => isDark(page), "dark");
      await until(async () => luminance(await computed(page, "#iconpath", "fill")) > 0.4, "the icon to follow the text colour");
      const box = await page.locator("#figure").boundingBox();
      assert.ok(box.width > 600, `the figure is large (${box.width} px)`);
      assert.equal(await computed(page, "#figurepath", "fill"), "rgb(0, 0, 0)", "the figure is not turned into a bright slab");
      await setSite(env, url, false);
      await until(async () => !(await isDark(page)), "light again");
      assert.equal(await page.evaluate(() => document.querySelectorAll("[data-dusk-icon], [data-dusk-large]").length), 0, "no marks left behind");
    } finally { await resetMemory(env); }
  }],

  ["SVG icons with a dark or default fill become light, outline icons stay unfilled, and images keep every pixel", async (env) => {
    await resetMemory(env);
    const url = fixture(env, "basic.html");
    const page = await env.open(url);
    // Clip to whole device pixels: the image sits at a fractional y, and the row it half covers shows page background.
    const box = await page.locator("#img").boundingBox();
    const clip = { x: Math.ceil(box.x), y: Math.ceil(box.y), width: Math.floor(box.width) - 1, height: Math.floor(box.height) - 1 };
    const shot = async () => rgba(await env.extPage(), await page.screenshot({ clip }));
    const pixelsBefore = await shot();
    await setSite(env, url, true);
    try {
      await until(() => isDark(page), "dark");
      assert.ok(luminance(await computed(page, "#iconpath", "fill")) > 0.4, "icon is legible on dark");
      await until(async () => luminance(await computed(page, "#plainpath", "fill")) > 0.4, "an icon on the default black fill to be legible on dark");
      assert.equal(await computed(page, "#outlinepath", "fill"), "none", "an outline icon stays unfilled");
      assert.ok(luminance(await computed(page, "#outlinepath", "stroke")) > 0.4, "its stroke is legible on dark");
      assert.equal(await computed(page, "#img", "filter"), "none");
      const pixelsAfter = await shot();
      assert.deepEqual(pixelsAfter, pixelsBefore, "the image is pixel-identical");
    } finally { await resetMemory(env); }
  }],

  ["CSS custom properties are remapped by the role they play", async (env) => {
    const { page } = await darkened(env, "vars.html");
    try {
      for (const sel of ["#banner", "#local"]) assert.ok(await isDark(page, sel), `${sel} background is dark`);
      assert.ok(luminance(await computed(page, "#banner", "color")) > 0.4, "banner text (var chain) is light");
      assert.ok(luminance(await computed(page, "#banner", "border-top-color")) > 0.02, "border stays visible");
      const report = await page.evaluate(aaReport);
      assert.equal(report.share, 1, JSON.stringify(report.failures));
    } finally { await resetMemory(env); }
  }],

  ["legacy bgcolor tables and <font color> are themed, and a border=1 grid is not a light line round every cell", async (env) => {
    const { page } = await darkened(env, "legacy.html");
    try {
      for (const sel of ["#table", "#row", "#white"]) assert.ok(await isDark(page, sel), `${sel} is dark`);
      for (const sel of ["#table", "#cell"]) {
        const y = luminance(await computed(page, sel, "border-top-color"));
        assert.ok(y > 0.05 && y < 0.3, `${sel}'s border is a visible dark-theme grey, not the light text colour (luminance ${y})`);
      }
      const report = await page.evaluate(aaReport);
      assert.equal(report.share, 1, JSON.stringify(report.failures));
    } finally { await resetMemory(env); }
  }],

  ["a shadow-DOM component is themed inside its shadow root", async (env) => {
    const { page, url } = await darkened(env, "shadow.html");
    try {
      await until(() => isDark(page, "#box"), "the shadow box to turn dark");
      assert.ok(luminance(await computed(page, "#box", "color")) > 0.4);
      const report = await page.evaluate(aaReport);
      assert.equal(report.share, 1, JSON.stringify(report.failures));
      const s = await state(env, url);
      assert.equal(s.page.phase, "active");
      assert.equal(s.page.scopes, 2);
    } finally { await resetMemory(env); }
  }],

  ["stylesheets from another origin, linked or @imported, which the page can't read, are themed too; one that fails to load harms nothing", async (env) => {
    for (const prepared of [false, true]) {
      await resetMemory(env);
      const url = fixture(env, "cross-origin.html");
      const page = await env.open(url);
      try {
        const readable = (sheet) => { try { return Boolean(sheet.cssRules); } catch { return false; } };
        const sheets = await page.evaluate((f) => {
          const readable = eval(f);
          return [...document.styleSheets].flatMap((s) => readable(s)
            ? [...s.cssRules].filter((r) => r.styleSheet).map((r) => (readable(r.styleSheet) ? "import readable" : "import cross-origin"))
            : ["cross-origin"]);
        }, readable.toString());
        assert.ok(sheets.includes("cross-origin") && sheets.includes("import cross-origin"), `the premise: sheets the page can't read (${sheets})`);
        const before = await page.evaluate(colourSnapshot);
        if (prepared) {
          // The popup opened first: the page prepares its theme, fetching the sheet, before the click.
          await state(env, url);
          // Room for the fetch and the rebuild of the prepared theme on a loaded machine.
          await page.waitForTimeout(1000);
          const ext = await env.extPage();
          const tabId = await env.tabIdFor(url);
          await ext.evaluate((id) => chrome.tabs.sendMessage(id, { type: "dark_switch", on: true }), tabId);
          assert.ok(await isDark(page, "#panel"), "the panel is dark in the switch's own frame");
        } else {
          await setSite(env, url, true);
        }
        await until(() => isDark(page, "#panel"), "the cross-origin panel to turn dark");
        await until(() => isDark(page, "#note"), "the note styled by a cross-origin @import to turn dark");
        assert.ok(luminance(await computed(page, "#panel-text", "color")) > 0.4, "its text is light");
        assert.ok(luminance(await computed(page, "#panel", "border-top-color")) < 0.2, "its light border is darkened");
        const report = await page.evaluate(aaReport);
        assert.equal(report.share, 1, JSON.stringify(report.failures));
        await setSite(env, url, false);
        await until(async () => !(await isDark(page, "#panel")), "the panel to turn light again");
        assert.deepEqual(await page.evaluate(colourSnapshot), before, "every colour is back");
      } finally { await resetMemory(env); await page.close(); }
    }
  }],

  ["a strict-CSP page (default-src 'none') is themed", async (env) => {
    const { page } = await darkened(env, "basic.html", "?csp=strict");
    try {
      assert.ok(luminance(await computed(page, "#text", "color")) > 0.4);
      const report = await page.evaluate(aaReport);
      assert.equal(report.share, 1, JSON.stringify(report.failures));
    } finally { await resetMemory(env); }
  }],

  ["a page that is already dark is left alone", async (env) => {
    await resetMemory(env);
    const url = fixture(env, "already-dark.html");
    const page = await env.open(url);
    const before = await page.evaluate(colourSnapshot);
    await setSite(env, url, true);
    try {
      await until(async () => (await state(env, url)).page?.phase === "already_dark", "already_dark");
      assert.deepEqual(await page.evaluate(colourSnapshot), before, "not one colour changed");
    } finally { await resetMemory(env); }
  }],

  ["a site with its own prefers-color-scheme: dark rules gets its own dark theme", async (env) => {
    const { page } = await darkened(env, "own-dark.html");
    try {
      assert.equal(await computed(page, "#dark", "display"), "inline", "the dark logo shows");
      assert.equal(await computed(page, "#light", "display"), "none", "the light logo hides");
      const hue = await computed(page, "body", "background-color");
      const [r, , b] = hue.match(/\d+/g).map(Number);
      assert.ok(b > r, `the site's own navy, not a grey: ${hue}`);
    } finally { await resetMemory(env); }
  }],

  ["content rendered after switching on (styles, inline styles, shadow roots) turns dark too", async (env) => {
    const { page } = await darkened(env, "spa.html");
    try {
      await page.evaluate(() => window.renderMore());
      for (const sel of ["#late", "#inline-late"]) await until(() => isDark(page, sel), `${sel} to turn dark`);
      const shadowBg = () => page.evaluate(() => getComputedStyle(document.querySelector("#late-host").shadowRoot.querySelector("p")).backgroundColor);
      await until(async () => luminance(await shadowBg()) < 0.05, "the late shadow root to turn dark");
      const report = await page.evaluate(aaReport);
      assert.equal(report.share, 1, JSON.stringify(report.failures));
    } finally { await resetMemory(env); }
  }],
];
