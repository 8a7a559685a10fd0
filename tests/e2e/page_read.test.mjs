// Page layer, reading: summary, stable indices across re-renders, shadow DOM, frames, details, inspect.
import assert from "node:assert/strict";
import { openPage, elements, byText, act } from "./page-helpers.mjs";

export const tests = [
  ["page_summary reports counts, text and viewport", async (env) => {
    const { call, url } = await openPage(env, "/pages/app.html");
    const s = await call({ type: "page_summary" });
    assert.equal(s.type, "page_summary");
    assert.equal(s.url, url);
    assert.equal(s.title, "Dusk test app");
    assert.ok(s.viewport.width > 0 && s.viewport.height > 0);
    assert.ok(s.page.height > s.viewport.height, "the page scrolls");
    assert.equal(s.counts.forms, 2);
    assert.equal(s.counts.selects, 1);
    // name, password, 2 checkboxes, search, contenteditable, shadow input, frame input
    assert.equal(s.counts.inputs, 8, JSON.stringify(s.counts));
    assert.ok(s.counts.buttons >= 11, JSON.stringify(s.counts));
    assert.equal(s.counts.links, 2);
    assert.match(s.text, /Account settings/);
    assert.match(s.text, /Nothing happened yet\./);
    assert.doesNotMatch(s.text, /Invisible/, "hidden text is not visible text");
    const short = await call({ type: "page_summary", text_limit: 20 });
    assert.ok(short.text_truncated && short.text.length <= 21, short.text);
  }],

  ["reading and acting work under a default-src 'none' CSP", async (env) => {
    const { page, call } = await openPage(env, "/pages/app.html?csp=strict");
    const s = await call({ type: "page_summary" });
    assert.equal(s.counts.forms, 2);
    const list = await elements(call);
    assert.equal(byText(list, "Shadow action").context, "shadow");
    const r = await act(call, { type: "click", index: byText(list, "Shadow action").index });
    assert.equal(r.success, true, r.message);
    assert.equal(await page.locator("#status").textContent(), "shadow button clicked");
  }],

  ["get_elements finds shadow roots however the page made them: by script, or declared in its HTML", async (env) => {
    const { call } = await openPage(env, "/pages/shadow-kinds.html");
    const buttons = await elements(call, "button");
    for (const text of ["Declared on a div", "Declared on a custom element", "Scripted on a span"]) assert.equal(byText(buttons, text).context, "shadow");
    assert.equal(buttons.length, 3, JSON.stringify(buttons.map((e) => e.text)));
    const summary = await call({ type: "page_summary" });
    assert.equal(summary.counts.buttons, 3, JSON.stringify(summary.counts));
  }],

  ["shadow roots found while the layer loads are not trusted once the page has changed since", async (env) => {
    const { page, url, call } = await openPage(env, "/pages/shadow-kinds.html");
    const [worker] = env.ctx.serviceWorkers();
    // The worker's hint on a first walking RPC, then the page adds a shadow host before the layer asks.
    await worker.evaluate(async (tabId) => chrome.tabs.sendMessage(tabId, { type: "find_shadow_roots" }, { frameId: 0 }), await env.tabIdFor(url));
    await page.evaluate(() => {
      const host = document.body.appendChild(document.createElement("section"));
      host.attachShadow({ mode: "open" }).innerHTML = "<button>Added after the hint</button>";
    });
    const buttons = await elements(call, "button");
    assert.equal(byText(buttons, "Added after the hint").context, "shadow");
    assert.equal(byText(buttons, "Scripted on a span").context, "shadow");
    assert.equal(buttons.length, 4, JSON.stringify(buttons.map((e) => e.text)));
  }],

  ["the chat's text_snapshot reads a page without loading the page layer, and sees it as it is now", async (env) => {
    const { page, url, call } = await openPage(env, "/pages/app.html?csp=strict");
    const snap = await call({ type: "text_snapshot", token_budget: 4000 });
    assert.equal(snap.title, "Dusk test app");
    assert.ok(snap.sections.some((s) => s.heading && s.text.includes("Nothing happened yet.")), JSON.stringify(snap.sections));
    await page.evaluate(() => document.body.append("Written just now"));
    const again = await call({ type: "text_snapshot", token_budget: 4000 });
    assert.match(again.block, /Written just now/);
    const [worker] = env.ctx.serviceWorkers();
    const pong = await worker.evaluate(async (tabId) => chrome.tabs.sendMessage(tabId, { type: "ping" }, { frameId: 0 }), await env.tabIdFor(url));
    assert.deepEqual(pong.layers, [], "no layer was injected");
  }],

  ["an anchor without href that HTML wraps round the text after it is not read as a link", async (env) => {
    const { page, url } = await openPage(env, "/pages/app.html");
    // `<a id=…/>` is no self-closing tag in HTML: the parser carries the anchor into the paragraphs after it.
    await page.evaluate(() => {
      document.body.innerHTML = '<section class="chapter"><h2><a id="net"/>5.2. Network setup</h2>' +
        '<p>Network interfaces are typically initialized by the networking service at boot.</p>' +
        '<p>See <a href="#more">the manual page</a> for every option it takes.</p></section>';
    });
    const [worker] = env.ctx.serviceWorkers();
    const read = await worker.evaluate(async (tabId) => chrome.tabs.sendMessage(tabId, { type: "page_text", blocks: true, max_chars: 4000 }, { frameId: 0 }), await env.tabIdFor(url));
    // Fields at their default are left out of the reply: core reads them as 0.
    const block = (start) => ({ links: 0, link_chars: 0, ...read.blocks.find((b) => b.text?.trim().startsWith(start)) });
    assert.equal(await page.locator("p a[id=net]").count(), 2, "the parser wrapped both paragraphs in the anchor");
    assert.deepEqual([block("Network interfaces").links, block("Network interfaces").link_chars], [0, 0], JSON.stringify(read.blocks));
    assert.deepEqual([block("See").links, block("See").link_chars], [1, "the manual page".length], JSON.stringify(read.blocks));
  }],

  ["get_elements lists controls with labels, shadow DOM and frames", async (env) => {
    const { call } = await openPage(env, "/pages/app.html");
    const list = await elements(call);
    const name = byText(list, "Full name");
    assert.equal(name.tag, "input");
    assert.equal(name.placeholder, "Your name");
    assert.equal(name.visible, true);
    assert.equal(byText(list, "Newsletter").checked, false);
    assert.equal(byText(list, "Delete account").enabled, false);
    assert.equal(byText(list, "Invisible").visible, false);
    assert.equal(byText(list, "Shadow action").context, "shadow");
    const frameBtn = byText(list, "Frame button");
    assert.equal(frameBtn.context, "iframe");
    const frameBox = byText(list, "Same-origin frame").rect;
    assert.ok(frameBtn.rect.x >= frameBox.x && frameBtn.rect.y >= frameBox.y, "frame elements are in top-frame coordinates");
    assert.equal(byText(list, "Cross-origin frame").context, "cross_origin_iframe");
    assert.ok(byText(list, "Home").href.endsWith("#home"));
    const buttons = await elements(call, "button");
    assert.ok(buttons.every((e) => e.tag === "button" || e.role === "button"), JSON.stringify(buttons.map((b) => b.tag)));
    const visible = await elements(call, "all", true);
    assert.ok(!visible.some((e) => e.text === "Invisible"));
  }],

  ["indices stay with their elements across a re-render; new ones are marked", async (env) => {
    const { page, call } = await openPage(env, "/pages/app.html");
    const before = await elements(call);
    const beta = byText(before, "Beta");
    assert.ok(before.every((e) => !e.new), "a first listing marks nothing new: new is since an earlier listing of this page");
    await act(call, { type: "click", index: byText(before, "Shuffle items").index });
    const after = await elements(call);
    assert.equal(byText(after, "Beta").index, beta.index, "Beta keeps its index though it moved");
    assert.equal(byText(after, "Delta").new, true);
    assert.equal(byText(after, "Alpha").new, false);
    const clicked = await act(call, { type: "click", index: beta.index });
    assert.equal(clicked.success, true, clicked.message);
    assert.equal(await page.locator("#status").textContent(), "item Beta clicked");

    await act(call, { type: "click", index: byText(after, "Replace items").index });
    const stale = await act(call, { type: "click", index: beta.index });
    assert.equal(stale.success, false);
    assert.equal(stale.reason, "stale");
    assert.match(stale.message, /no longer on the page/);
    const fresh = await elements(call);
    assert.notEqual(byText(fresh, "Beta").index, beta.index, "a replaced element gets a new index");
    assert.equal(byText(fresh, "Beta").new, true);
  }],

  ["boxes stay right after the content script's memory grows (wasm2js typed-array views)", async (env) => {
    const { call } = await openPage(env, "/bench/big.html");
    const big = await call({ type: "get_elements", limit: 5000 });
    assert.ok(big.total > 1500 && big.elements.length === big.total, `${big.elements.length}/${big.total}`);
    await call({ type: "page_summary", text_limit: 20000 });
    const again = await elements(call, "button");
    assert.equal(again.length, 300, "the default window is 300 elements");
    assert.ok(again.every((e) => e.rect.width > 0), JSON.stringify(again.find((e) => !(e.rect.width > 0))));
    assert.ok(again[0].visible && !again.at(-1).visible, "visible means on screen now: the last of 300 is below the fold");
    const windowed = await call({ type: "get_elements", filter: "button", offset: 10, limit: 5 });
    assert.deepEqual(windowed.elements.map((e) => e.index), again.slice(10, 15).map((e) => e.index));
    assert.equal(windowed.truncated, true);
  }],

  ["get_element_details gives a selector that round-trips and an xpath", async (env) => {
    const { page, call } = await openPage(env, "/pages/app.html");
    const list = await elements(call);
    const picks = ["Full name", "Beta", "Save", "Shadow action", "Frame button"].map((t) => byText(list, t).index);
    const r = await call({ type: "get_element_details", indices: [...picks, 99999] });
    assert.equal(r.type, "element_details");
    assert.deepEqual(r.missing, [99999]);
    const [name, beta, save, shadow, frame] = r.details;
    assert.equal(name.attributes.placeholder, "Your name");
    assert.equal(name.selector, "#name");
    assert.equal(await page.evaluate((s) => document.querySelector(s)?.textContent, beta.selector), "Beta");
    assert.equal(await page.evaluate((s) => document.querySelector(s)?.id, save.selector), "save");
    assert.equal(await page.evaluate((x) => document.evaluate(x, document, null, 9).singleNodeValue?.textContent, beta.xpath), "Beta");
    assert.match(beta.parent_text, /Beta/);
    assert.equal(save.child_count, 0);
    assert.deepEqual(shadow.host_selectors, ["#shadow-host"]);
    assert.equal(await page.evaluate(([h, s]) => document.querySelector(h).shadowRoot.querySelector(s)?.textContent, [shadow.host_selectors[0], shadow.selector]), "Shadow action");
    assert.deepEqual(frame.host_selectors, ["#same"]);
  }],

  ["inspect reports computed styles and boxes", async (env) => {
    const { call } = await openPage(env, "/pages/app.html");
    const r = await call({ type: "inspect", selector: ".site-header, h1" });
    assert.equal(r.type, "inspected");
    assert.equal(r.total, 2);
    const header = r.elements.find((e) => e.tag === "header");
    assert.equal(header.style.background_color, "rgb(20, 40, 80)");
    assert.equal(header.style.display, "block");
    assert.ok(header.rect.width > 100);
    const h1 = r.elements.find((e) => e.tag === "h1");
    assert.equal(h1.style.font_weight, "700");
    assert.equal(h1.text, "Account settings");
    const one = await call({ type: "inspect", selector: "li", limit: 1 });
    assert.equal(one.elements.length, 1);
    assert.equal(one.total, 3);
    const bad = await call({ type: "inspect", selector: "li[" });
    assert.equal(bad.type, "error");
  }],
];
