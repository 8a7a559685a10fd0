// Benchmark (not a test): what the interfaces a dark-mode batch touches cost the first time in a
// frame, against the same call repeated in a loop. Runs in an isolated world, as a content script
// does, on a blank page with 70 <style> sheets and on the busy rules page (tests/fixtures/busy).
// Each figure: µs per call, the mean over FRAMES frames (one call each) or over a hot loop.
// Usage: [FRAMES=120] node tests/bench/first_touch.mjs
import { chromium } from "playwright-core";
import { startFixtureServer } from "../e2e/fixture-server.mjs";

const FRAMES = Number(process.env.FRAMES ?? 120);

// Evaluated in the isolated world: per-frame and hot costs of each touch.
async function measure(frames) {
  const o = document.body.appendChild(document.createElement("div"));
  if (document.styleSheets.length < 70) for (let i = 0; i < 70; i++) { const s = document.createElement("style"); s.textContent = `.q${i} { color: #123 }`; document.head.append(s); }
  const lists = new WeakMap();
  const listOf = (s) => { let l = lists.get(s); if (!l) { let rules = null; try { rules = s.cssRules; } catch {} lists.set(s, (l = { rules, media: s.media })); } return l; };
  const walk = () => { const all = document.styleSheets; let x = 0; for (let k = 0; k < all.length; k++) { const s = all[k], l = listOf(s); x += (l.rules ? l.rules.length : 0) + (s.disabled ? 1 : 0) + l.media.length; } return x; };
  const out = {};
  const frame = () => new Promise(requestAnimationFrame);
  async function perFrame(name, f, prep = () => {}) {
    let total = 0;
    for (let k = 0; k < frames; k++) { await frame(); const arg = prep(k); const t0 = performance.now(); f(arg); total += performance.now() - t0; }
    out[`${name}, first in a frame`] = +((total / frames) * 1000).toFixed(1);
  }
  function hot(name, f, n = 2000) {
    f();
    const t0 = performance.now();
    for (let k = 0; k < n; k++) f();
    out[`${name}, hot`] = +(((performance.now() - t0) / n) * 1000).toFixed(2);
  }
  await perFrame("nothing", () => {});
  await perFrame(`listing ${document.styleSheets.length} sheets`, walk, () => o.append(document.createElement("i")));
  hot(`listing ${document.styleSheets.length} sheets`, walk);
  await perFrame("reading adoptedStyleSheets", () => document.adoptedStyleSheets);
  hot("reading adoptedStyleSheets", () => document.adoptedStyleSheets);
  const own = new CSSStyleSheet();
  await perFrame("adopting a new sheet", (s) => { document.adoptedStyleSheets = [...document.adoptedStyleSheets.filter((x) => x !== own), s]; }, (k) => { const s = new CSSStyleSheet(); s.replaceSync(`.n${k} { color: #fff }`); return s; });
  document.adoptedStyleSheets = [];
  const sheet = document.styleSheets[document.styleSheets.length - 1];
  await perFrame("a rule's first cssText", (r) => r.cssText, (k) => { sheet.insertRule(`.f${k} { background: #abc; color: #1d1d1d; border-left: 4px solid #fed; padding: 4px }`, sheet.cssRules.length); return sheet.cssRules[sheet.cssRules.length - 1]; });
  const last = sheet.cssRules[sheet.cssRules.length - 1];
  hot("the same rule's cssText", () => last.cssText);
  // What a batch touches beyond listing, reading and adopting: its clock, the tab's visibility,
  // its microtask, a string from WebAssembly (wasm-bindgen decodes each one), its new sheet.
  const bytes = new TextEncoder().encode(".c1 { background-color: rgb(24, 26, 27) !important; color: rgb(232, 230, 227) !important }");
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  const touches = {
    "performance.now()": () => performance.now(),
    "document.hidden": () => document.hidden,
    "queueMicrotask": () => queueMicrotask(() => {}),
    "a node's ownerDocument": () => o.ownerDocument,
    "TextDecoder.decode (100 bytes)": () => decoder.decode(bytes),
    "new CSSStyleSheet + replaceSync (1 rule)": () => new CSSStyleSheet().replaceSync(".z { color: #eee }"),
  };
  for (const [name, f] of Object.entries(touches)) {
    await perFrame(name, f);
    hot(name, f, 500);
  }
  return out;
}

const fixtures = await startFixtureServer();
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium", args: ["--headless=new"] });
const page = await browser.newPage();
const cdp = await page.context().newCDPSession(page);
for (const [name, url] of [["70 sheets, blank page", "about:blank"], ["busy rules page", `${fixtures.url}/busy/rules.html`]]) {
  await page.goto(url);
  if (url === "about:blank") await page.setContent("<!doctype html><title>t</title><body></body>");
  await page.waitForTimeout(500);
  const { frameTree } = await cdp.send("Page.getFrameTree");
  const { executionContextId } = await cdp.send("Page.createIsolatedWorld", { frameId: frameTree.frame.id, worldName: "first-touch" });
  const r = await cdp.send("Runtime.evaluate", { expression: `(${measure})(${FRAMES})`, contextId: executionContextId, awaitPromise: true, returnByValue: true });
  if (r.exceptionDetails) throw new Error(r.exceptionDetails.exception?.description ?? r.exceptionDetails.text);
  console.log(`${name} (µs per call):`);
  for (const [k, v] of Object.entries(r.result.value)) console.log(`  ${k.padEnd(56)} ${v}`);
}
await browser.close();
await fixtures.close();
