// No trace in pages: with Dusk installed, a page's own checks (tests/fixtures/pages/detector.js) get
// the browser's answers in the top frame and in its iframe, before, while and after an agent lists
// elements; and the agent still lists what only the page's own click listener makes clickable.
import assert from "node:assert/strict";
import { openPage, elements, byText } from "./page-helpers.mjs";

// The main-world probe Dusk had (extension/listeners.js until 2026-11-26), as a page sees it.
const OLD_PROBE = `(() => {
  const kinds = new Set(["click", "mousedown", "pointerdown", "mouseup", "pointerup"]);
  const known = new WeakSet(), refs = new Set(), add = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function (type, ...rest) {
    if (kinds.has(type) && this instanceof Element && !known.has(this)) { known.add(this); refs.add(new WeakRef(this)); }
    return add.call(this, type, ...rest);
  };
})();`;
// The best a wrapper can do: a Proxy, and a toString that answers for it.
const PROXY_PROBE = `(() => {
  const add = EventTarget.prototype.addEventListener, str = Function.prototype.toString, real = new WeakMap();
  const wrap = new Proxy(add, { apply: (t, self, args) => Reflect.apply(t, self, args) });
  const toString = new Proxy(str, { apply: (t, self, args) => Reflect.apply(t, real.get(self) ?? self, args) });
  real.set(wrap, add); real.set(toString, str);
  EventTarget.prototype.addEventListener = wrap;
  Function.prototype.toString = toString;
})();`;

async function detectorFrames(page) {
  const inner = page.frames().find((f) => f.url().endsWith("/detector-frame.html"));
  assert.ok(inner, "the detector's iframe loaded");
  await inner.waitForFunction(() => window.detector);
  return [["top frame", page.mainFrame()], ["iframe", inner]];
}

export const tests = [
  ["a page's checks get native answers in every frame, before, while and after an agent lists elements", async (env) => {
    const { page, call } = await openPage(env, "/pages/detector.html");
    const frames = await detectorFrames(page);
    for (const [name, f] of frames) assert.deepEqual(await f.evaluate(() => detector.check()), [], `${name}, at load`);
    for (const [, f] of frames) await f.evaluate(() => detector.watch());
    const list = await elements(call);
    await elements(call, "all", true);
    for (const [name, f] of frames) {
      const { during, seen, touched } = await f.evaluate(() => detector.stop());
      assert.deepEqual(touched, [], `${name}: DOM getters of the page's world that something ran while the agent listed elements`);
      assert.deepEqual(during, [], `${name}, while the agent listed elements`);
      assert.deepEqual(seen, [], `${name}: events the page saw while the agent listed elements`);
      assert.deepEqual(await f.evaluate(() => detector.check()), [], `${name}, after`);
    }
    // Their only clue is the page's own click listener, in the top frame and in the iframe.
    byText(list, "Open drawer");
    byText(list, "Frame drawer");
  }],

  ["the detector catches the old main-world probe and a Proxy wrapper, so the test above can fail", async (env) => {
    for (const [probe, catches] of [[OLD_PROBE, /addEventListener\.name/], [PROXY_PROBE, /a clean realm's toString\(addEventListener\)/]]) {
      const page = await env.ctx.newPage();
      await page.addInitScript(probe);
      await page.goto(`${env.base}/pages/detector.html`);
      for (const [name, f] of await detectorFrames(page)) {
        const fails = await f.evaluate(() => detector.check());
        assert.ok(fails.some((x) => catches.test(x)), `${name}: ${JSON.stringify(fails)}`);
      }
      await page.close();
    }
  }],
];
