// Page layer, analysis: colour palette across colour syntaxes, semantic queries and text snapshots on real pages.
import assert from "node:assert/strict";
import { openPage } from "./page-helpers.mjs";

const PY = "/corpus/python-docs/python3.11-doc/html";
const rgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
const near = (a, b) => rgb(a).every((v, i) => Math.abs(v - rgb(b)[i]) <= 2);

export const tests = [
  ["get_color_palette parses every colour syntax and groups by role", async (env) => {
    const { call } = await openPage(env, "/pages/palette.html");
    const p = await call({ type: "get_color_palette" });
    assert.equal(p.type, "color_palette", JSON.stringify(p));
    const fills = [...p.backgrounds, ...p.accents].map((c) => c.hex);
    const expected = {
      "rgb()": "#0a141e", "color(srgb)": "#336699", "color(display-p3)": "#808080", "oklch()": "#ff0000",
      "oklab()": "#008000", "lab()": "#0000ff", "lch()": "#ffff00", "hsl()": "#800080",
    };
    for (const [syntax, hex] of Object.entries(expected)) {
      assert.ok(fills.some((h) => near(h, hex)), `${syntax} ${hex} missing from ${fills}`);
    }
    assert.equal(p.backgrounds[0].hex, "#ffffff", "the page background weighs most");
    assert.ok(p.backgrounds[0].weight > 0.3);
    assert.ok(p.text.some((c) => c.hex === "#111111"));
    assert.ok(p.text.some((c) => near(c.hex, "#5e5e5e") && c.css.startsWith("lab(")), JSON.stringify(p.text));
    assert.ok(p.borders.some((c) => c.css.startsWith("color(display-p3")), JSON.stringify(p.borders));
    assert.ok(p.accents.some((c) => c.css.startsWith("oklch(0.55")), "the link colour is an accent");
    assert.ok(p.sampled > 10);
  }],

  ["query_elements finds the navigation sidebar, code blocks and the search input", async (env) => {
    const { page, call } = await openPage(env, `${PY}/library/stdtypes.html`);
    const q = async (description) => {
      const r = await call({ type: "query_elements", description, limit: 5 });
      assert.equal(r.type, "query_results", JSON.stringify(r));
      assert.ok(r.matches.length > 0, `nothing for ${description}: ${JSON.stringify(r)}`);
      return r.matches;
    };
    const classOf = (sel) => page.evaluate((s) => document.querySelectorAll(s).length === 1 && document.querySelector(s).className, sel);
    const [nav] = await q("navigation sidebar");
    assert.equal(await classOf(nav.selector), "sphinxsidebar");
    assert.ok(nav.reasons.includes("role=navigation"), nav.reasons);
    assert.ok(nav.style.display && nav.rect.width > 0);
    const code = await q("code blocks");
    const tags = await Promise.all(code.map((m) => page.evaluate((s) => document.querySelector(s).closest("pre, .highlight") !== null, m.selector)));
    assert.ok(tags.every(Boolean), JSON.stringify(code.map((m) => m.selector)));
    const [search] = await q("search input");
    assert.equal(search.tag, "input");
    assert.equal(await page.evaluate((s) => document.querySelector(s).name, search.selector), "q");
    const none = await call({ type: "query_elements", description: "the" });
    assert.equal(none.type, "error");
  }],

  ["text_snapshot keeps the main content's first sections under their headings within the budget, and names the later ones", async (env) => {
    const { call } = await openPage(env, `${PY}/tutorial/introduction.html`);
    const s = await call({ type: "text_snapshot", token_budget: 600 });
    assert.equal(s.type, "text_snapshot");
    assert.match(s.title, /Informal Introduction/);
    assert.ok(s.truncated && s.tokens <= 600 && s.total_tokens > 2000, `${s.tokens}/${s.total_tokens}`);
    const headings = s.sections.map((x) => x.heading);
    assert.deepEqual(headings.slice(0, 2), ["3. An Informal Introduction to Python¶", "3.1. Using Python as a Calculator¶"]);
    assert.ok(s.sections[0].text.length > 20, "the first section keeps its text");
    assert.match(s.block, /^# 3\. An Informal Introduction to Python¶\n/);
    const full = await call({ type: "text_snapshot", token_budget: 100000 });
    // At a large budget the main content is whole (only the outline, capped, may leave parts out).
    assert.equal(full.more ?? null, null, "nothing of the main content is left out");
    // The first heading past the last section kept is named in the line saying the content continues.
    const all = full.sections.map((x) => x.heading);
    const next = all[all.indexOf(headings.at(-1)) + 1];
    assert.ok(next && !headings.includes(next), `a heading after ${headings.at(-1)}`);
    assert.match(s.more, /^\[The main content continues: about \d+ more tokens/);
    assert.ok(s.more.includes(`under the headings: ${next}`), `${next} is named first in: ${s.more}`);
    assert.ok(full.sections.find((x) => x.heading?.startsWith("3.1.1.")).text.includes("interpreter acts as a simple calculator"));
  }],
];
