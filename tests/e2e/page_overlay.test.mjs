// Page layer, overlay: highlights, and a mask that blocks the user but not the agent and never lingers.
import assert from "node:assert/strict";
import { openPage, elements, byText, act } from "./page-helpers.mjs";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const maskedAt = (page, x, y) => page.evaluate(([x, y]) => document.elementFromPoint(x, y)?.tagName === "DUSK-OVERLAY", [x, y]);

export const tests = [
  ["the mask blocks the user's clicks and keys but not the agent's, until unmasked", async (env) => {
    const { page, call } = await openPage(env, "/pages/app.html");
    const far = byText(await elements(call), "Shuffle items");
    const m = await call({ type: "mask", label: "Dusk is filling the form" });
    assert.deepEqual([m.type, m.active], ["mask", true]);
    const [x, y] = [far.rect.x + 5, far.rect.y + 5];
    assert.equal(await maskedAt(page, x, y), true);
    await page.mouse.click(x, y);
    assert.doesNotMatch(await page.locator("#items").textContent(), /Delta/, "the user's click was blocked");
    await page.focus("#name");
    await page.keyboard.type("zz");
    assert.equal(await page.inputValue("#name"), "", "the user's typing was blocked");
    await page.mouse.wheel(0, 400);
    await sleep(100);
    assert.equal(await page.evaluate(() => scrollY), 0, "the user's wheel was blocked");
    const r = await act(call, { type: "click", index: far.index });
    assert.equal(r.success, true, r.message);
    assert.match(await page.locator("#items").textContent(), /Delta/, "the agent's click went through");
    const u = await call({ type: "unmask" });
    assert.equal(u.active, false);
    assert.equal(await maskedAt(page, x, y), false);
    const before = await page.locator("#items").textContent();
    await page.mouse.click(x, y);
    assert.notEqual(await page.locator("#items").textContent(), before, "the user's clicks work again");
  }],

  ["the mask expires without a heartbeat and lasts with one", async (env) => {
    const { page, call } = await openPage(env, "/pages/app.html");
    await call({ type: "mask", ttl_ms: 800 });
    assert.equal(await maskedAt(page, 300, 300), true);
    await sleep(500);
    const hb = await call({ type: "heartbeat", ttl_ms: 800 });
    assert.equal(hb.active, true);
    await sleep(500);
    assert.equal(await maskedAt(page, 300, 300), true, "the heartbeat renewed it");
    await sleep(600);
    assert.equal(await maskedAt(page, 300, 300), false, "it expired on its own");
    const late = await call({ type: "heartbeat" });
    assert.equal(late.active, false, "a heartbeat does not revive an expired mask");
  }],

  ["highlight outlines an indexed element and refuses unknown indices", async (env) => {
    const { call } = await openPage(env, "/pages/app.html");
    const save = byText(await elements(call), "Save");
    const ok = await act(call, { type: "highlight", index: save.index, duration_ms: 300 });
    assert.equal(ok.success, true);
    const bad = await act(call, { type: "highlight", index: 424242 });
    assert.deepEqual([bad.success, bad.reason], [false, "not_found"]);
  }],
];
