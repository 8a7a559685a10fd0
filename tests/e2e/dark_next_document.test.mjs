// Dark from the very next document: once the switch has answered, a reload of the first site
// switched on in a fresh profile paints no light frame, whether it starts 0, 50, 100 or 300 ms later.
import assert from "node:assert/strict";
import { launch } from "./env.mjs";
import { framesDuring } from "../lib/frames.mjs";
import { imageStats } from "../lib/pixels.mjs";
import { fixture, setSite } from "./dark.mjs";

export const tests = [
  ["the first site switched on in a fresh profile: a reload 0, 50, 100 or 300 ms after the answer paints no light frame", async () => {
    const seen = [];
    for (const delay of [0, 50, 100, 300]) {
      const env = await launch();
      try {
        const url = fixture(env, "basic.html");
        const page = await env.open(url);
        const ext = await env.extPage();
        await page.bringToFront();
        const light = await framesDuring(env.ctx, page, () => page.reload(), 300);
        assert.ok((await imageStats(ext, light.at(-1))).luminance > 0.3, "control: the page is light before the switch");
        const frames = await framesDuring(env.ctx, page, async () => {
          await setSite(env, url, true);
          await new Promise((r) => setTimeout(r, delay));
          await page.reload();
        }, 500);
        assert.ok(frames.length > 0, "frames were recorded");
        const lums = [];
        for (const f of frames) lums.push((await imageStats(ext, f)).luminance);
        seen.push(`${delay} ms: ${lums.map((l) => l.toFixed(2)).join(" ")}`);
        assert.ok(lums.every((l) => l < 0.1), `a light frame ${delay} ms after the answer: ${lums.map((l) => l.toFixed(2))}`);
      } finally {
        await env.close();
      }
    }
    console.log(`     ${seen.join(" | ")}`);
  }],
];
