// Page layer, actions: click, type, select, keys, scroll, hover, drag, with clear failure reasons.
import assert from "node:assert/strict";
import { openPage, elements, byText, act } from "./page-helpers.mjs";

export const tests = [
  ["click reports disabled, covered and hidden elements with the reason", async (env) => {
    const { page, call } = await openPage(env, "/pages/app.html");
    const list = await elements(call);
    const disabled = await act(call, { type: "click", index: byText(list, "Delete account").index });
    assert.deepEqual([disabled.success, disabled.reason], [false, "disabled"]);
    assert.match(disabled.message, /button#disabled-btn "Delete account" is disabled/);
    const covered = await act(call, { type: "click", selector: "#covered" });
    assert.deepEqual([covered.success, covered.reason], [false, "covered"]);
    assert.match(covered.message, /covered by div "Cookie banner"/);
    const hidden = await act(call, { type: "click", index: byText(list, "Invisible").index });
    assert.deepEqual([hidden.success, hidden.reason], [false, "hidden"]);
    const terms = byText(list, "Accept terms");
    assert.equal(terms.visible, false, "the styled checkbox's input is transparent");
    const styled = await act(call, { type: "click", index: terms.index });
    assert.equal(styled.success, true, styled.message);
    assert.match(styled.message, /clicked label "Accept terms"/);
    assert.equal(await page.isChecked("#terms"), true);
    const missing = await act(call, { type: "click", selector: "#nope" });
    assert.deepEqual([missing.success, missing.reason], [false, "not_found"]);
    assert.equal(await page.locator("#status").textContent(), "Nothing happened yet.", "no failed click did anything");
  }],

  ["click scrolls a far element into view; shadow and frame buttons work", async (env) => {
    const { page, call } = await openPage(env, "/pages/app.html");
    const list = await elements(call);
    const far = await act(call, { type: "click", index: byText(list, "Far below").index });
    assert.equal(far.success, true, far.message);
    assert.equal(await page.locator("#status").textContent(), "far button clicked");
    assert.ok(await page.evaluate(() => scrollY) > 500);
    await act(call, { type: "click", index: byText(list, "Shadow action").index });
    assert.equal(await page.locator("#status").textContent(), "shadow button clicked");
    const frame = await act(call, { type: "click", index: byText(list, "Frame button").index });
    assert.equal(frame.success, true, frame.message);
    assert.equal(await page.frameLocator("#same").locator("#frame-status").textContent(), "frame button clicked");
  }],

  ["click by coordinates hits the topmost element there", async (env) => {
    const { page, call } = await openPage(env, "/pages/app.html");
    const cover = byText(await elements(call), "Shuffle items").rect;
    const r = await act(call, { type: "click", x: cover.x + cover.width / 2, y: cover.y + cover.height / 2 });
    assert.equal(r.success, true, r.message);
    assert.match(await page.locator("#items").textContent(), /^Delta/);
  }],

  ["type_text fills inputs through the native setter, clears, and types into contenteditable", async (env) => {
    const { page, call } = await openPage(env, "/pages/app.html?csp=strict");
    const list = await elements(call);
    const name = byText(list, "Full name").index;
    let r = await act(call, { type: "type_text", index: name, text: "Ada" });
    assert.equal(r.success, true, r.message);
    assert.equal(await page.locator("#status").textContent(), "name is Ada", "input events fired");
    r = await act(call, { type: "type_text", index: name, text: "Grace", clear: true });
    assert.equal(await page.inputValue("#name"), "Grace");
    r = await act(call, { type: "type_text", selector: "#editor", text: "hello world" });
    assert.equal(r.success, true, r.message);
    assert.equal(await page.locator("#editor").textContent(), "Draft.hello world");
    r = await act(call, { type: "type_text", selector: "#editor", text: "New", clear: true });
    assert.equal(await page.locator("#editor").textContent(), "New");
    assert.equal(await page.locator("#status").textContent(), "editor input");
    const shadow = await act(call, { type: "type_text", index: byText(list, "Shadow field").index, text: "deep" });
    assert.equal(shadow.success, true, shadow.message);
    assert.equal(await page.evaluate(() => document.querySelector("#shadow-host").shadowRoot.querySelector("input").value), "deep");
    const notEditable = await act(call, { type: "type_text", selector: "h1", text: "x" });
    assert.deepEqual([notEditable.success, notEditable.reason], [false, "not_editable"]);
  }],

  ["type_text: a page's listeners see each character's keydown, keypress, beforeinput, input and keyup in order, then change; a cancelled keydown types nothing", async (env) => {
    const { page, call } = await openPage(env, "/pages/app.html");
    await page.evaluate(() => {
      const field = document.querySelector("#name");
      field.value = "x";
      window.seen = [];
      for (const type of ["keydown", "keypress", "beforeinput", "input", "keyup", "change"]) {
        field.addEventListener(type, (e) => {
          const k = e instanceof KeyboardEvent ? ` ${e.key} ${e.code} ${e.keyCode}/${e.charCode}` : "";
          const i = e instanceof InputEvent ? ` ${e.inputType} ${JSON.stringify(e.data)}` : "";
          window.seen.push(`${type}${k}${i} =${field.value} ${e.bubbles ? "bubbles" : ""}${e.cancelable ? " cancelable" : ""}`);
          if (type === "keydown" && e.key === "!") e.preventDefault();
        });
      }
    });
    const r = await act(call, { type: "type_text", selector: "#name", text: "Hi!5", clear: true });
    assert.equal(r.success, true, r.message);
    assert.equal(await page.inputValue("#name"), "Hi5");
    const key = (c, code, n, value) => [
      `keydown ${c} ${code} ${n}/0 =${value.slice(0, -1)} bubbles cancelable`,
      `keypress ${c} ${code} ${c.charCodeAt(0)}/${c.charCodeAt(0)} =${value.slice(0, -1)} bubbles cancelable`,
      `beforeinput insertText "${c}" =${value.slice(0, -1)} bubbles cancelable`,
      `input insertText "${c}" =${value} bubbles`,
      `keyup ${c} ${code} ${n}/0 =${value} bubbles cancelable`,
    ];
    assert.deepEqual(await page.evaluate(() => window.seen), [
      "input deleteContentBackward null = bubbles",
      ...key("H", "KeyH", 72, "H"),
      ...key("i", "KeyI", 73, "Hi"),
      "keydown !  0/0 =Hi bubbles cancelable",
      "keyup !  0/0 =Hi bubbles cancelable",
      ...key("5", "Digit5", 53, "Hi5"),
      "change =Hi5 bubbles",
    ]);
  }],

  ["select picks by text or value, fires change, refuses disabled options", async (env) => {
    const { page, call } = await openPage(env, "/pages/app.html");
    let r = await act(call, { type: "select", selector: "#color", text: "green" });
    assert.equal(r.success, true, r.message);
    assert.equal(await page.locator("#status").textContent(), "color changed to g");
    r = await act(call, { type: "select", selector: "#color", value: "r" });
    assert.equal(await page.inputValue("#color"), "r");
    r = await act(call, { type: "select", selector: "#color", text: "Blue" });
    assert.deepEqual([r.success, r.reason], [false, "disabled"]);
    r = await act(call, { type: "select", selector: "#color", text: "Purple" });
    assert.equal(r.reason, "no_option");
    assert.match(r.message, /Red, Green, Blue/);
  }],

  ["Enter in a text field submits its form; checkbox toggles on click", async (env) => {
    const { page, call } = await openPage(env, "/pages/app.html");
    const list = await elements(call);
    await act(call, { type: "click", index: byText(list, "Newsletter").index });
    assert.equal(await page.isChecked("#news"), true);
    await act(call, { type: "type_text", selector: "#name", text: "Lin" });
    const r = await act(call, { type: "press_key", key: "Enter" });
    assert.equal(r.success, true, r.message);
    assert.match(r.message, /submitted/);
    assert.equal(await page.locator("#status").textContent(), "submitted name=Lin news=true");
    await act(call, { type: "type_text", selector: "#q", text: "dusk" });
    const search = await act(call, { type: "press_key", key: "Enter" });
    assert.match(search.message, /submitted form#search/, "a form without a submit button is submitted with requestSubmit");
    assert.equal(await page.locator("#status").textContent(), "searched dusk");
    const tab = await act(call, { type: "press_key", key: "Tab" });
    assert.match(tab.message, /focus moved to/);
    const bad = await act(call, { type: "press_key", key: "Hyper+q" });
    assert.equal(bad.success, false);
  }],

  ["scroll moves the page and reports the edge", async (env) => {
    const { page, call } = await openPage(env, "/pages/app.html");
    let r = await act(call, { type: "scroll", direction: "down", amount: 300 });
    assert.equal(r.success, true, r.message);
    assert.equal(await page.evaluate(() => scrollY), 300);
    r = await act(call, { type: "scroll", direction: "up", amount: 1000 });
    assert.equal(await page.evaluate(() => scrollY), 0);
    r = await act(call, { type: "scroll", direction: "up" });
    assert.deepEqual([r.success, r.reason], [false, "at_edge"]);
  }],

  ["hover and drag dispatch pointer events where a user would", async (env) => {
    const { page, call } = await openPage(env, "/pages/drag.html");
    const r = await act(call, { type: "hover", selector: "#tip" });
    assert.equal(r.success, true, r.message);
    assert.equal(await page.locator("#log").textContent(), "hover");
    const box = async (sel) => page.locator(sel).boundingBox();
    const [card, bin] = [await box("#card"), await box("#bin")];
    const d = await act(call, { type: "drag_drop", from: { x: card.x + 10, y: card.y + 10 }, to: { x: bin.x + 20, y: bin.y + 20 } });
    assert.equal(d.success, true, d.message);
    assert.equal(await page.locator("#bin").textContent(), "Bin: card");
    const [knob] = [await box("#knob")];
    await act(call, { type: "drag_drop", from: { x: knob.x + 5, y: knob.y + 5 }, to: { x: knob.x + 105, y: knob.y + 5 } });
    assert.equal(await page.locator("#slider-value").textContent(), "100");
  }],
];
