// Text and values a page can hold that a reader must survive: a character from each of the 17
// planes, lone and reversed surrogate halves, NUL, CRLF, a BOM and bidi marks (in text nodes and
// in a textarea's value), and a megabyte textarea. Lone halves can't cross into Rust: they come
// back as U+FFFD, and everything else as written.
import assert from "node:assert/strict";
import { openPage, elements, byText, act } from "./page-helpers.mjs";

const strange = (page) => page.evaluate(() => globalThis.strange);
const valueOf = (page, id) => page.evaluate((id) => document.getElementById(id).value, id);
// What a reader can be given: lone halves as U+FFFD, as the page's own toWellFormed() gives them.
const wellFormed = (s) => s.toWellFormed();

export const tests = [
  ["a textarea holding every plane, lone surrogates, NUL and CRLF is listed and read whole: lone halves as U+FFFD", async (env) => {
    const { page, call } = await openPage(env, "/pages/strange-text.html");
    const list = await elements(call);
    const notes = byText(list, "Notes");
    assert.equal(notes.tag, "textarea");
    const d = await call({ type: "get_element_details", indices: [notes.index] });
    assert.equal(d.type, "element_details", JSON.stringify(d));
    const held = await valueOf(page, "notes");
    assert.ok(held.includes("\ud800 high"), "the page really holds a lone surrogate");
    assert.equal(d.details[0].value, wellFormed(held));
    assert.ok(d.details[0].value.includes("\u0000") && d.details[0].value.includes("\n"), "NUL and the line break come through");
    const { PLANES } = await strange(page);
    assert.ok(d.details[0].value.startsWith(PLANES), "all 17 planes as written");
  }],

  ["page text, the snapshot and screen text read text nodes with every plane and lone surrogates", async (env) => {
    const { page, call } = await openPage(env, "/pages/strange-text.html");
    const { PLANES, BROKEN } = await strange(page);
    const text = await call({ type: "page_text", headings: "h1" });
    assert.equal(text.type, "page_text", JSON.stringify(text).slice(0, 300));
    assert.ok(text.text.includes(PLANES), text.text.slice(0, 400));
    assert.ok(wellFormed(text.text).includes("lone \ufffd high, \ufffd low, \ufffd\ufffd reversed"), text.text.slice(0, 400));
    const snap = await call({ type: "text_snapshot" });
    assert.equal(snap.type, "text_snapshot", JSON.stringify(snap).slice(0, 300));
    const snapText = snap.sections.map((x) => x.text).join("\n");
    assert.ok(snapText.includes(PLANES), snapText.slice(0, 400));
    assert.ok(snapText.includes("lone \ufffd high"), snapText.slice(0, 400));
    const screen = await call({ type: "screen_text", text_limit: 4000 });
    assert.ok(screen.text.includes(PLANES), screen.text.slice(0, 400));
    const summary = await call({ type: "page_summary" });
    assert.equal(summary.type, "page_summary");
    assert.ok(summary.text.includes("Strange text"));
    assert.ok(BROKEN.length > 0);
  }],

  ["type_text types every plane, CRLF and NUL into a textarea as typed", async (env) => {
    const { page, call } = await openPage(env, "/pages/strange-text.html");
    const { PLANES } = await strange(page);
    const typed = byText(await elements(call), "Typed");
    const text = `${PLANES}\r\nline two \u0000 after nul 👩‍👩‍👧`;
    const r = await act(call, { type: "type_text", index: typed.index, text });
    assert.equal(r.success, true, r.message);
    // A textarea's value keeps line breaks as LF.
    assert.equal(await valueOf(page, "typed"), text.replace(/\r\n/g, "\n"));
    const d = await call({ type: "get_element_details", indices: [typed.index] });
    assert.equal(d.details[0].value, text.replace(/\r\n/g, "\n"));
  }],

  ["a megabyte textarea is listed, read in its first 4,000 characters, and typed into at its end", async (env) => {
    const { page, call } = await openPage(env, "/pages/strange-text.html");
    const huge = byText(await elements(call), "Huge");
    const d = await call({ type: "get_element_details", indices: [huge.index] });
    assert.equal([...d.details[0].value].length, 4000);
    assert.ok(d.details[0].value.startsWith("0123456789"));
    const started = Date.now();
    const r = await act(call, { type: "type_text", index: huge.index, text: " appended" });
    assert.equal(r.success, true, r.message);
    const held = await valueOf(page, "huge");
    assert.ok(held.endsWith("the last line appended"), held.slice(-40));
    assert.equal(held.length, 100 * 10485 + "the last line appended".length);
    assert.ok(Date.now() - started < 10_000, `typing took ${Date.now() - started} ms`);
  }],
];
