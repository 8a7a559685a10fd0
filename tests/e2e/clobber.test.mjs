// No page can crash a read: forms whose fields are named after the members a reader uses (id,
// tagName, getAttribute, …) and named images that shadow the document's (body, forms, …), and
// every content RPC on the controls inside them; a crash forced in the layer is answered with what
// failed, and the next call works.
import assert from "node:assert/strict";
import { openPage, elements, byText, act } from "./page-helpers.mjs";

// The page shadows its own document's members: reads here go through the prototypes too.
const status = (page) => page.evaluate(() => Object.getOwnPropertyDescriptor(Node.prototype, "textContent").get.call(Document.prototype.querySelector.call(document, "#status")));
const field = (page, id) => page.evaluate((id) => Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value").get.call(Document.prototype.querySelector.call(document, "#" + id)), id);

const CONTROLS = [
  ["Search the wiki", "input", "q", "/search"],
  ["Go", "button", null, "/search"],
  ["Edit summary", "input", "summary", "/save"],
  ["Wiki text", "textarea", "wikitext", "/save"],
  ["Language", "select", "lang", "/save"],
  ["Minor edit", "input", "minor", "/save"],
  ["Attach a file", "input", "upload", "/save"],
  ["Preview", "button", null, "/save"],
  ["Formatting help", "a", null, "/save"],
];

export const tests = [
  ["the page really shadows what it says: form.id, form.tagName and document.body are elements there", async (env) => {
    const { page } = await openPage(env, "/pages/clobber.html");
    const seen = await page.evaluate(() => {
      const form = Document.prototype.getElementById.call(document, "edit");
      return [form.id?.localName, form.tagName?.localName, form.getAttribute?.localName, document.body?.localName, document.forms?.localName, document.querySelectorAll?.localName];
    });
    assert.deepEqual(seen, ["input", "input", "input", "img", "img", "img"]);
  }],

  ["reads on a clobbering page answer with each control's real tag, name, text and form", async (env) => {
    const { call, url } = await openPage(env, "/pages/clobber.html");
    const base = new URL(url).origin;
    assert.equal((await call({ type: "ping" })).type, "pong");
    const list = await elements(call);
    for (const [text, tag, name, action] of CONTROLS) {
      const el = byText(list, text);
      assert.equal(el.tag, tag, text);
      const d = await call({ type: "get_element_details", indices: [el.index] });
      assert.equal(d.type, "element_details", JSON.stringify(d));
      const [got] = d.details;
      assert.equal(got.tag, tag, text);
      assert.equal(got.text, text);
      assert.equal(got.attributes.name, name ?? undefined, text);
      assert.equal(got.form_action, action && base + action, text);
      assert.ok(got.rect.width > 0, text);
      assert.match(got.xpath, new RegExp(`^/html/body/form\\[\\d\\]/(\\w+(\\[\\d+\\])?/)?${tag}(\\[\\d+\\])?$`), got.xpath);
      const count = await call({ type: "count_elements", selector: got.selector });
      assert.equal(count.count, 1, `${text}: ${got.selector} round-trips`);
      const seen = await call({ type: "inspect", selector: got.selector });
      assert.equal(seen.type, "inspected", JSON.stringify(seen));
      assert.equal(seen.elements[0].tag, tag);
    }
    const summary = byText(list, "Edit summary");
    const parent = (await call({ type: "get_element_details", indices: [summary.index] })).details[0].parent_text;
    assert.match(parent, /Text written straight in the form/);
    // The form itself, and the document's root: both shadowed.
    const form = await call({ type: "inspect", selector: "#edit" });
    assert.equal(form.elements[0].tag, "form", JSON.stringify(form));
    assert.equal(form.elements[0].attributes?.action ?? "/save", "/save");
    assert.equal((await call({ type: "count_elements", selector: "form" })).count, 2);
    const query = await call({ type: "query_elements", description: "preview button" });
    assert.equal(query.type, "query_results", JSON.stringify(query));
    assert.ok(query.matches.some((m) => m.text === "Preview"), JSON.stringify(query.matches));
    assert.equal((await call({ type: "get_color_palette" })).type, "color_palette");
  }],

  ["the always-on script's reads on a clobbering page: summary, snapshot, screen text, page text and facts", async (env) => {
    const { call, url } = await openPage(env, "/pages/clobber.html");
    const s = await call({ type: "page_summary" });
    assert.equal(s.type, "page_summary", JSON.stringify(s));
    assert.equal(s.title, "Clobbered wiki");
    assert.equal(s.url, url);
    assert.equal(s.counts.forms, 2, JSON.stringify(s.counts));
    assert.equal(s.counts.selects, 1);
    assert.equal(s.counts.links, 1);
    assert.match(s.text, /Every form below has a field/);
    const snap = await call({ type: "text_snapshot" });
    assert.equal(snap.type, "text_snapshot", JSON.stringify(snap));
    assert.equal(snap.title, "Clobbered wiki");
    assert.match(snap.sections.map((x) => x.text).join("\n"), /Text written straight in the form/);
    const screen = await call({ type: "screen_text", text_limit: 4000 });
    assert.equal(screen.type, "page_text", JSON.stringify(screen));
    assert.match(screen.text, /Clobbered wiki/);
    const text = await call({ type: "page_text", headings: "h1,h2,h3" });
    assert.equal(text.title, "Clobbered wiki");
    assert.deepEqual(text.headings.map((h) => [h.tag, h.text]), [["H1", "Clobbered wiki"]]);
    const quiet = await call({ type: "wait_quiet", quiet_ms: 20, max_ms: 200 });
    assert.equal(quiet.type, "quiet");
  }],

  ["actions on controls inside clobbering forms do what they say", async (env) => {
    const { page, call } = await openPage(env, "/pages/clobber.html");
    const list = await elements(call);
    const at = (text) => byText(list, text).index;
    let r = await act(call, { type: "click", index: at("Preview") });
    assert.equal(r.success, true, r.message);
    assert.equal(await status(page), "previewed");
    r = await act(call, { type: "type_text", index: at("Edit summary"), text: "Fixed a typo" });
    assert.equal(r.success, true, r.message);
    assert.equal(await field(page, "summary"), "Fixed a typo");
    r = await act(call, { type: "select", index: at("Language"), text: "Deutsch" });
    assert.equal(r.success, true, r.message);
    assert.equal(await status(page), "language de");
    r = await act(call, { type: "hover", index: at("Formatting help") });
    assert.equal(r.success, true, r.message);
    assert.equal(await status(page), "hovered help");
    r = await act(call, { type: "press_key", index: at("Search the wiki"), key: "Enter" });
    assert.equal(r.success, true, r.message);
    assert.equal(await status(page), "searched");
    r = await act(call, { type: "set_files", index: at("Attach a file"), files: [{ name: "notes.txt", mime: "text/plain", base64: "aGk=" }] });
    assert.equal(r.success, true, r.message);
    assert.equal(await status(page), "attached notes.txt");
    r = await act(call, { type: "click", index: at("Minor edit") });
    assert.equal(r.success, true, r.message);
    assert.equal(await page.evaluate(() => Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "checked").get.call(Document.prototype.querySelector.call(document, "#minor"))), true);
    for (const request of [{ type: "scroll", direction: "down" }, { type: "scroll_to", y: 0 }, { type: "highlight", index: at("Go") }, { type: "drag_drop", from: { x: 20, y: 20 }, to: { x: 40, y: 40 } }]) {
      const done = await act(call, request);
      assert.equal(done.success, true, `${request.type}: ${done.message}`);
    }
    assert.equal((await call({ type: "mask", label: "Working" })).active, true);
    assert.equal((await call({ type: "heartbeat" })).type, "mask");
    assert.equal((await call({ type: "unmask" })).active, false);
    assert.equal((await call({ type: "detect_dark_mode" })).type, "dark_mode");
    assert.equal((await call({ type: "apply_css", css: "h1 { color: rgb(1, 2, 3) }", id: "t" })).type, "css_applied");
    assert.equal(await page.evaluate(() => getComputedStyle(Document.prototype.querySelector.call(document, "h1")).color), "rgb(1, 2, 3)");
    assert.equal((await call({ type: "remove_css", id: "t" })).removed, true);
    assert.equal((await call({ type: "preview_site_css", css: "" })).type, "css_applied");
    assert.equal((await call({ type: "listener_changes" })).type, "listener_changes");
    assert.equal((await call({ type: "click_listeners", paths: [] })).type, "click_listeners");
  }],

  ["a crash forced in the page layer is answered with what failed, the layer is loaded afresh, and the next call works", async (env) => {
    const { call } = await openPage(env, "/pages/clobber.html");
    const before = byText(await elements(call), "Preview");
    const crashed = await call({ type: "trap" });
    assert.equal(crashed.type, "error", JSON.stringify(crashed));
    assert.match(crashed.message, /^the page layer crashed on purpose \(a test's forced trap\) \((unreachable|.+)\); it was restarted, so list the elements again: their numbers start afresh$/, crashed.message);
    const ping = await call({ type: "ping" });
    assert.equal(ping.type, "pong");
    const gone = await call({ type: "get_element_details", indices: [before.index] });
    assert.deepEqual(gone.missing, [before.index], "a fresh layer knows no numbers yet");
    const again = byText(await elements(call), "Preview");
    const d = await call({ type: "get_element_details", indices: [again.index] });
    assert.equal(d.details[0].tag, "button");
    assert.equal(d.details[0].text, "Preview");
  }],
];
