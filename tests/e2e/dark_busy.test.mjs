// Dark mode on busy pages (tests/fixtures/busy): what the page keeps adding is dark in the frame
// after it is inserted, whether the theme already covered it or it brought a colour of its own.
import assert from "node:assert/strict";
import { aaReport } from "../lib/wcag.mjs";
import { isDark, resetMemory, setSite, until } from "./dark.mjs";

async function busy(env, name) {
  await resetMemory(env);
  const url = `${env.base}/busy/${name}.html`;
  const page = await env.open(url);
  await setSite(env, url, true);
  await until(() => isDark(page), "the page to turn dark");
  return page;
}

// Each node the page reports is checked at the first frame after the one that follows its
// insertion: its own and its descendants' backgrounds dark, their text light.
async function watchAdded(page, ms) {
  return page.evaluate(async (ms) => {
    const lum = (c) => {
      const m = c.match(/[\d.]+/g);
      const [r, g, b] = m.slice(0, 3).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
      return { l: 0.2126 * r + 0.7152 * g + 0.0722 * b, a: m.length > 3 ? Number(m[3]) : 1 };
    };
    const light = [];
    let checked = 0;
    window.__busyAdded = (el) => requestAnimationFrame(() => requestAnimationFrame(() => {
      checked++;
      for (const e of [el, ...el.querySelectorAll("*")]) {
        const s = getComputedStyle(e);
        const bg = lum(s.backgroundColor), fg = lum(s.color);
        if ((bg.a >= 0.5 && bg.l > 0.06) || fg.l < 0.2) light.push(`${e.localName}.${e.className} ${s.backgroundColor} / ${s.color} style="${e.getAttribute("style") ?? ""}"`);
      }
    }));
    await new Promise((r) => setTimeout(r, ms));
    window.__busyAdded = null;
    return { checked, light };
  }, ms);
}

export const tests = [
  ["every card an infinite feed adds, with inline colours of its own, is dark at its first frame", async (env) => {
    const page = await busy(env, "feed");
    try {
      const { checked, light } = await watchAdded(page, 2000);
      assert.ok(checked >= 15, `cards checked: ${checked}`);
      assert.deepEqual(light.slice(0, 5), []);
      const report = await page.evaluate(aaReport);
      assert.equal(report.share, 1, JSON.stringify(report.failures.slice(0, 3)));
    } finally { await resetMemory(env); }
  }],

  ["a class whose rule the page inserts (a new <style>, or insertRule) is themed in the frame its element appears", async (env) => {
    const page = await busy(env, "rules");
    try {
      const { checked, light } = await watchAdded(page, 1500);
      assert.ok(checked >= 8, `elements checked: ${checked}`);
      assert.deepEqual(light, []);
    } finally { await resetMemory(env); }
  }],

  ["cells recoloured every 100 ms by inline style, and a route that swaps the whole body, stay dark", async (env) => {
    for (const name of ["dashboard", "spa"]) {
      const page = await busy(env, name);
      try {
        const { checked, light } = await watchAdded(page, 1500);
        assert.ok(checked >= 2, `${name}: checked ${checked}`);
        assert.deepEqual(light.slice(0, 5), [], name);
      } finally { await page.close(); }
    }
    await resetMemory(env);
  }],
];
