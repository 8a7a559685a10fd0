// Page layer, part 2: what only script makes clickable, whole-value inputs, scroll boxes, the
// finer hit-test, exact values, text hygiene, and `new` on the first listing — each asserted on
// what the page ends up with.
import assert from "node:assert/strict";
import { openPage, elements, byText, act } from "./page-helpers.mjs";

const status = (page) => page.locator("#status").textContent();

export const tests = [
  ["get_elements lists what only script makes clickable, and clicking each runs its handler", async (env) => {
    const { page, call } = await openPage(env, "/pages/layer2.html");
    const list = await elements(call);
    for (const [text, want] of [["Documents", "opened docs"], ["Archive", "archive"], ["Like", "liked"], ["Save draft", "draft saved"], ["Lexington, KY (LEX)", "picked Lexington, KY (LEX)"]]) {
      const el = byText(list, text);
      const r = await act(call, { type: "click", index: el.index });
      assert.equal(r.success, true, r.message);
      assert.equal(await status(page), want, `${text} ran its handler`);
    }
    assert.ok(!list.some((e) => /Alexandria, LA \(AEX\)Lexington/.test(e.text)), "autocomplete items are listed one by one");
    assert.ok(list.every((e) => !e.new), "a first listing marks nothing new");
    const again = await elements(call);
    assert.ok(again.every((e) => !e.new), "nothing is new the second time");
  }],

  ["type_text sets date, time, datetime-local, month, week, colour and range inputs whole", async (env) => {
    const { page, call } = await openPage(env, "/pages/layer2.html");
    const cases = [["#date", "04/29/2019", "2019-04-29", /MM\/DD\/YYYY/], ["#time", "2:30 PM", "14:30", /AM\/PM/], ["#dtl", "2019-04-29 14:30", "2019-04-29T14:30", /date and time/],
      ["#month", "04/2019", "2019-04", /MM\/YYYY/], ["#week", "2019-W17", "2019-W17", /YYYY-Www/], ["#color", "rgb(30, 144, 255)", "#1e90ff", /CSS colour/], ["#range", "40", "40", /number/]];
    for (const [selector, text, want, format] of cases) {
      const r = await act(call, { type: "type_text", selector, text });
      assert.equal(r.success, true, r.message);
      assert.match(r.message, format);
      assert.equal(await page.inputValue(selector), want, `${selector} holds ${want}`);
    }
    const bad = await act(call, { type: "type_text", selector: "#date", text: "02/30/2019" });
    assert.deepEqual([bad.success, bad.reason], [false, "rejected"]);
    const clamped = await act(call, { type: "type_text", selector: "#range", text: "90" });
    assert.deepEqual([clamped.success, clamped.reason], [false, "rejected"]);
    assert.match(clamped.message, /holds "50"/);
  }],

  ["a button below the fold of a scroll box is not visible until scrolled, and a click reaches it", async (env) => {
    const { page, call } = await openPage(env, "/pages/layer2.html");
    const deep = byText(await elements(call), "Deep button");
    assert.equal(deep.visible, false, "clipped by its scroll box");
    const r = await act(call, { type: "click", index: deep.index });
    assert.equal(r.success, true, r.message);
    assert.equal(await status(page), "deep");
    assert.ok(await page.evaluate(() => document.getElementById("box").scrollTop) > 0, "the box scrolled");
    assert.equal(byText(await elements(call), "Deep button").visible, true);
  }],

  ["a button covered all but a 5 px strip is clicked on that strip", async (env) => {
    const { page, call } = await openPage(env, "/pages/layer2.html");
    const r = await act(call, { type: "click", selector: "#lower" });
    assert.equal(r.success, true, r.message);
    assert.equal(await status(page), "lower", "the lower button's handler ran, not the upper one's");
  }],

  ["values come back exactly; clipboard shortcuts say they are unsupported", async (env) => {
    const { page, call } = await openPage(env, "/pages/layer2.html");
    assert.equal(byText(await elements(call), "Spaced").value, "  two  spaces   here ");
    const r = await act(call, { type: "press_key", selector: "#spaced", key: "Ctrl+a" });
    assert.deepEqual([r.success, r.reason], [false, "unsupported"]);
    assert.match(r.message, /type_text/);
    assert.equal(await page.inputValue("#spaced"), "  two  spaces   here ", "nothing changed");
  }],

  ["texts leave out style, script, template and hidden text", async (env) => {
    const { call } = await openPage(env, "/pages/layer2.html");
    const submit = byText(await elements(call), "Submit");
    const d = await call({ type: "get_element_details", indices: [submit.index] });
    const parent = d.details[0].parent_text;
    assert.match(parent, /Director:/);
    assert.doesNotMatch(parent, /width|notText|secret|\.x\{/, parent);
  }],
  ["a listing after only an attribute changed sees the change (the kept candidate list is dropped), in a shadow root too", async (env) => {
    const { page, call } = await openPage(env, "/pages/layer2.html");
    await page.evaluate(() => {
      const add = (parent, html) => { const d = document.createElement("div"); d.innerHTML = html; parent.prepend(d); };
      add(document.body, '<div id="later">Later action</div><a id="gone" href="#g">Gone link</a><input id="hide" value="Hide me"><span id="tab">Tab stop</span>');
      const host = document.createElement("div");
      document.body.prepend(host);
      add(host.attachShadow({ mode: "open" }), '<div id="inner">Inner action</div>');
    });
    const names = async () => (await elements(call, "all", true)).map((e) => e.text || e.value);
    const before = await names();
    for (const gone of ["Later action", "Inner action", "Tab stop"]) assert.ok(!before.includes(gone), `${gone} is not interactive yet`);
    for (const there of ["Gone link", "Hide me"]) assert.ok(before.includes(there), `${there} is listed`);
    await names();
    // Attributes only: no node is added or removed.
    await page.evaluate(() => {
      document.getElementById("later").setAttribute("role", "button");
      document.getElementById("gone").removeAttribute("href");
      document.getElementById("hide").type = "hidden";
      document.getElementById("tab").tabIndex = 0;
      document.body.firstElementChild.shadowRoot.getElementById("inner").setAttribute("onclick", "void 0");
    });
    const after = await names();
    for (const there of ["Later action", "Inner action", "Tab stop"]) assert.ok(after.includes(there), `${there} is listed once it became interactive`);
    for (const gone of ["Gone link", "Hide me"]) assert.ok(!after.includes(gone), `${gone} is no longer listed`);
  }],
];
