// Per-site memory: a remembered site is dark from its very first painted frame, on reload and on
// navigation, and a forgotten one is not.
import assert from "node:assert/strict";
import { framesDuring } from "../lib/frames.mjs";
import { imageStats } from "../lib/pixels.mjs";
import { fixture, isDark, resetMemory, setSite, state, until } from "./dark.mjs";

async function frameLuminances(env, page, action) {
  const frames = await framesDuring(env.ctx, page, action);
  const ext = await env.extPage();
  const stats = [];
  for (const f of frames) stats.push((await imageStats(ext, f)).luminance);
  return stats;
}

export const tests = [
  ["a remembered site reloads and navigates dark from the first painted frame", async (env) => {
    await resetMemory(env);
    const url = fixture(env, "basic.html");
    const page = await env.open(url);
    try {
      // Control: with dark mode off the recorder does see the white page being painted.
      const light = await frameLuminances(env, page, () => page.reload());
      assert.ok(light.length > 0 && Math.max(...light) > 0.5, `frames seen while off: ${light}`);

      await setSite(env, url, true);
      await until(() => isDark(page), "dark");
      const reload = await frameLuminances(env, page, () => page.reload());
      assert.ok(reload.length > 0, "frames were recorded");
      assert.ok(Math.max(...reload) <= 0.1, `every frame of the reload is dark: ${reload.map((l) => l.toFixed(3))}`);
      assert.ok(await isDark(page), "still dark after reload");

      const next = fixture(env, "vars.html");
      const nav = await frameLuminances(env, page, () => page.goto(next));
      assert.ok(Math.max(...nav) <= 0.1, `every frame of the navigation is dark: ${nav.map((l) => l.toFixed(3))}`);
      assert.equal((await state(env, next)).page.phase, "active");
    } finally { await resetMemory(env); }
  }],

  ["the choice is remembered per site and auto covers sites without one", async (env) => {
    await resetMemory(env);
    const url = fixture(env, "basic.html");
    const page = await env.open(url);
    try {
      let s = await state(env, url);
      assert.equal(s.host, "127.0.0.1");
      assert.equal(s.on, false);
      await env.sendToWorker({ type: "dark_set_auto", on: true });
      await until(() => isDark(page), "auto turns the page dark");
      s = await state(env, url);
      assert.equal(s.on, true);
      assert.equal(s.explicit, false);
      await setSite(env, url, false);
      await until(async () => !(await isDark(page)), "an explicit off beats auto");
      await page.reload();
      assert.equal(await isDark(page), false, "still light after reload");
      assert.equal(await page.evaluate(() => document.documentElement.hasAttribute("data-dusk")), false);
    } finally { await resetMemory(env); }
  }],
];
