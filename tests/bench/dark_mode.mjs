// Benchmark (not a test): the corpus pages unthemed, with Dark Reader (npm build, Dynamic mode,
// injected into the page) and with Dusk (the real extension), side by side in one Chromium.
// Usage: [TRIALS=5] [REGIONS=n] node tests/bench/dark_mode.mjs [substring[,substring…]]   (build dist/ first with ./build.sh)
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launch } from "../e2e/env.mjs";
import { startFixtureServer } from "../e2e/fixture-server.mjs";
import { aaReport, layoutSnapshot } from "../lib/wcag.mjs";
import { imageStats, brightCells } from "../lib/pixels.mjs";
import { aaByPixels } from "../lib/aa_pixels.mjs";
import { framesDuring } from "../lib/frames.mjs";
import { installProbe } from "./settle.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const darkreader = path.join(root, "node_modules/darkreader/darkreader.js");
const PAGES = [
  "python-docs/python3.11-doc/html/index.html",
  "python-docs/python3.11-doc/html/tutorial/introduction.html",
  "python-docs/python3.11-doc/html/library/stdtypes.html",
  "git-docs/git-doc/git-commit.html",
  "git-docs/git-doc/user-manual.html",
  "sphinx-docs/sphinx-doc/html/index.html",
  "sphinx-docs/sphinx-doc/html/usage/quickstart.html",
  "node-docs/nodejs/api/index.html",
  "node-docs/nodejs/api/fs.html",
  "readability/bbc-1/index.html",
  "readability/lwn-1/index.html",
  "readability/medium-1/index.html",
  "readability/mozilla-1/index.html",
  "readability/wikipedia/index.html",
  // From Debian's rust-doc and postgresql-doc-15, pages the engine was not tuned on.
  "rust-docs/rust-doc/html/std/iter/trait.Iterator.html",
  "rust-docs/rust-doc/html/std/vec/struct.Vec.html",
  "postgres-docs/postgresql-doc-15/html/functions-info.html",
  // Our own: a news article with a masthead logo the width of the page, and modern pages that
  // ship their own dark design (light-dark(), a palette with a dark set, <picture>) or media.
  "modern/news-article.html",
  "modern/light-dark.html",
  "modern/palette.html",
  "modern/media.html",
  // App-like pages made by the real tools (tests/fixtures/corpus/apps/README.md says which and how).
  "apps/coverage/textwrap.html",
  "apps/coverage/index.html",
  "apps/pytest/report.html",
  "apps/furo/index.html",
  "apps/pydata/index.html",
  "apps/mkdocs/index.html",
  "apps/notebook/shop.html",
  "apps/doxygen/shop_8h.html",
  "apps/doxygen/shop_8h_source.html",
  "apps/javadoc/org/example/shop/Shop.html",
  "apps/adminlte/index3.html",
].filter((p) => !process.argv[2] || process.argv[2].split(",").some((f) => p.includes(f)));
const QUIET_MS = 500, MAX_MS = 8000;
const TRIALS = Number(process.env.TRIALS ?? 5);
const median = (xs) => { const v = [...xs].sort((a, b) => a - b); return v[Math.floor(v.length / 2)]; };
const VIEWPORT = { width: 1280, height: 900 };

const env = await launch();
// Corpus pages link to their real sites; nothing may leave this machine.
await env.ctx.route(/^(https?|wss?):\/\/(?!127\.0\.0\.1[:/])/, (r) => r.abort());
const ext = await env.extPage();
const setDusk = async (tabId, on) => env.sendToWorker({ type: "dark_set_site", tab_id: tabId, on });
await ext.evaluate(() => chrome.storage.local.remove(["dark_sites", "dark_auto"]));

async function openPage(url) {
  const page = await env.ctx.newPage();
  await page.setViewportSize(VIEWPORT);
  await page.goto(url, { waitUntil: "load" });
  await page.waitForTimeout(200);
  return page;
}

// The screenshot's bright pixels and luminance by the element under them (by its description, so
// two engines' screenshots of the same page compare element by element).
async function regions(page, png) {
  const cells = await brightCells(ext, png);
  return page.evaluate((cells) => {
    const name = (el) => el.localName + (el.id ? `#${el.id}` : "") + [...el.classList].slice(0, 2).map((c) => `.${c}`).join("");
    const by = new Map();
    for (const c of cells) {
      const el = document.elementFromPoint(c.x, c.y);
      if (!el) continue;
      const path = [el.parentElement?.parentElement, el.parentElement, el].filter((x) => x && x !== document.documentElement).map(name).join(" > ");
      let e = by.get(path);
      if (!e) {
        const r = el.getBoundingClientRect();
        by.set(path, (e = { element: path, size: `${Math.round(r.width)}×${Math.round(r.height)}`, n: 0, lum: 0, rgb: [0, 0, 0] }));
      }
      e.rgb = e.rgb.map((v, i) => v + c.rgb[i] * c.n);
      e.n += c.n;
      e.lum += c.lum;
    }
    return [...by.values()].map((e) => ({ ...e, colour: e.n ? "#" + e.rgb.map((v) => Math.round(v / e.n).toString(16).padStart(2, "0")).join("") : "–", rgb: undefined }));
  }, cells);
}

/** The element where Dusk's screenshot has the most `key` (bright pixels "n" or luminance "lum") beyond Dark Reader's. */
function brighterRegion(dusk, dr, key) {
  return brighterRegions(dusk, dr, key, 1)[0] ?? null;
}

/** The `n` elements with the most `key` beyond Dark Reader's, most first. */
function brighterRegions(dusk, dr, key, n) {
  const theirs = new Map(dr.map((e) => [e.element, e]));
  const diff = (e) => e[key] - (theirs.get(e.element)?.[key] ?? 0);
  return [...dusk].sort((a, b) => diff(b) - diff(a)).slice(0, n).filter((e) => diff(e) > 0).map((e) => ({ ...e, theirs: theirs.get(e.element), diff: diff(e) }));
}

async function measure(page, baselineLayout) {
  const png = await page.screenshot();
  const shot = await imageStats(ext, png);
  const region = await regions(page, png);
  const layout = await page.evaluate(layoutSnapshot);
  const moved = baselineLayout ? layout.filter((r, i) => r !== baselineLayout[i]).length + Math.abs(layout.length - baselineLayout.length) : 0;
  const styles = await page.evaluate(aaReport);
  const aa = await aaByPixels(page, ext);
  return { aa: aa.share, aaStyles: styles.share, failures: aa.failures, lum: shot.luminance, bright: shot.bright, moved, region };
}

// The AA metric must catch what a reader would miss: grey text, light paint over a dark colour,
// opacity, translucent text, shadow DOM and text below the first screen (3 of 9 lines pass).
const check = await openPage(`${env.base}/bench/aa-check.html`);
const metricCheck = { pixels: (await aaByPixels(check, ext)).share, styles: (await check.evaluate(aaReport)).share };
await check.close();
const EXPECTED_AA = 3 / 9;

const rows = [];
// Each site folder is its own origin's root, as on the web: their root-relative links and
// @imports (python docs' classic.css) resolve.
const sites = new Map();
for (const rel of PAGES) {
  const site = rel.split("/")[0];
  if (!sites.has(site)) sites.set(site, await startFixtureServer(`corpus/${site}`));
}
for (const rel of PAGES) {
  const [site, ...rest] = rel.split("/");
  const url = `${sites.get(site).url}/${rest.join("/")}`;
  const name = rel.startsWith("apps/") ? rel.split("/")[1] + (rel.endsWith("/index.html") ? "" : `/${rel.replace(/^.*\//, "").replace(/\.html$/, "")}`) : rel.replace(/\/index\.html$/, "").replace(/^.*\//, "").replace(/\.html$/, "") || rel;
  const row = { page: name };

  // Unthemed.
  let page = await openPage(url);
  // The page's own activity with nothing switched on: a page that keeps changing by itself
  // (scripts, carousels) bounds every engine's settle time from below.
  const ownStart = await page.evaluate(() => performance.timeOrigin + performance.now());
  await page.evaluate(installProbe);
  const own = await page.evaluate(([q, m]) => window.__settle(q, m), [QUIET_MS, MAX_MS]);
  row.none = { ...(await measure(page, null)), own: own.last ? own.last - ownStart : 0 };
  await page.close();

  // Settle times are the median of TRIALS fresh loads per engine; quality is read on the first.
  const drSettles = [], duskSettles = [], floors = [];
  let duskCss = null, themeSize = null, ownDesign = null;
  for (let trial = 0; trial < TRIALS; trial++) {
    const first = trial === 0;
    // Dark Reader, Dynamic mode, in the page.
    page = await openPage(url);
    await page.addScriptTag({ path: darkreader });
    const drBefore = first ? await page.evaluate(layoutSnapshot) : null;
    await page.evaluate(installProbe);
    const drStart = await page.evaluate(() => {
      if (!window.__noFetch) DarkReader.setFetchMethod(window.fetch);
      const t = performance.timeOrigin + performance.now();
      DarkReader.enable({ brightness: 100, contrast: 100, sepia: 0 });
      return t;
    });
    const dr = await page.evaluate(([q, m]) => window.__settle(q, m), [QUIET_MS, MAX_MS]);
    drSettles.push(dr.last ? dr.last - drStart : 0);
    if (first) row.dr = await measure(page, drBefore);
    await page.close();

    // Dusk, switched on for the site as the popup does.
    page = await openPage(url);
    const duskBefore = first ? await page.evaluate(layoutSnapshot) : null;
    await page.evaluate(installProbe);
    // A page may have changed its own URL by then (pytest-html's report adds its filters to it).
    const tabId = await env.tabIdFor(page.url());
    // As in real use: the popup opens (asking the tab's state, opening its port to the page),
    // then the user clicks the switch.
    await env.sendToWorker({ type: "dark_get_state", tab_id: tabId });
    await ext.evaluate((id) => { window.darkPort = chrome.tabs.connect(id, { name: "dark", frameId: 0 }); }, tabId);
    await page.waitForTimeout(400);
    const duskStart = await ext.evaluate((id) => {
      const t = performance.timeOrigin + performance.now();
      // What the popup's switch does: tell the page at once, and the worker to remember it.
      window.darkPort.postMessage({ type: "dark_switch", on: true });
      chrome.runtime.sendMessage({ type: "dark_set_site", tab_id: id, on: true });
      return t;
    }, tabId);
    const dusk = await page.evaluate(([q, m]) => window.__settle(q, m), [QUIET_MS, MAX_MS]);
    duskSettles.push(dusk.last ? dusk.last - duskStart : 0);
    // Dusk's finished theme as CSS text, for the browser-only floor below; where Dusk shows the
    // site's own dark design, also its raise marks (by element index) and that it switched the
    // page's own dark-scheme conditions on in place.
    duskCss ??= await page.evaluate(() => document.adoptedStyleSheets.map((s) => [...s.cssRules].map((r) => r.cssText).join("\n")));
    ownDesign ??= await page.evaluate(() => {
      const lists = [];
      const visit = (rules) => { for (const r of rules) { if (r.media) lists.push(r.media.mediaText); if (r.cssRules) visit(r.cssRules); } };
      for (const s of document.styleSheets) { try { visit(s.cssRules); } catch {} }
      const marks = [...document.querySelectorAll("*")].map((el, i) => [i, el.getAttribute("data-dusk-aa")]).filter(([, v]) => v);
      // light-dark() colours resolved by the forced dark scheme are the site's own design too.
      let lightDark = false;
      for (const s of document.styleSheets) { try { lightDark ||= [...s.cssRules].some((r) => r.cssText.includes("light-dark(")); } catch {} }
      return { inPlace: lists.some((t) => /\(prefers-color-scheme\)/.test(t)), lightDark, marks };
    });
    // The theme's cost drivers: style rules (nested ones counted) and bytes.
    themeSize ??= await page.evaluate(() => {
      const count = (rules) => [...rules].reduce((n, r) => n + (r instanceof CSSStyleRule ? 1 : 0) + (r.cssRules ? count(r.cssRules) : 0), 0);
      return { rules: document.adoptedStyleSheets.reduce((n, s) => n + count(s.cssRules), 0) };
    });
    if (process.env.DUMP_CSS && first) (await import("node:fs")).writeFileSync(`${process.env.DUMP_CSS}/${name}.css`, duskCss.join("\n/* sheet */\n"));
    if (first) {
      // Where Dusk shows the site's own dark design, the boxes to keep are the browser's own under
      // its dark scheme (which may differ from the light page's: furo swaps its theme icons).
      let boxes = duskBefore;
      if (ownDesign.inPlace) {
        const ref = await env.ctx.newPage();
        await ref.setViewportSize(VIEWPORT);
        await ref.emulateMedia({ colorScheme: "dark" });
        await ref.goto(url, { waitUntil: "load" });
        await ref.waitForTimeout(200);
        boxes = await ref.evaluate(layoutSnapshot);
        await ref.close();
        row.page = `${name} (own design)`;
      }
      row.own = ownDesign.inPlace || ownDesign.lightDark;
      if (ownDesign.lightDark && !ownDesign.inPlace) row.page = `${name} (own design)`;
      row.dusk = await measure(page, boxes);
      // Reload with dark mode remembered: the first painted frame and the brightest one.
      const frames = await framesDuring(env.ctx, page, () => page.reload({ waitUntil: "load" }));
      const lums = [];
      for (const f of frames) lums.push((await imageStats(ext, f)).luminance);
      row.dusk.firstFrame = lums[0] ?? NaN;
      row.dusk.maxFrame = lums.length ? Math.max(...lums) : NaN;
    }
    await setDusk(tabId, false);
    await ext.evaluate(() => window.darkPort.disconnect());
    await page.close();
    await ext.evaluate(() => chrome.storage.local.remove(["dark_sites", "dark_auto"]));
  }
  // The floor: the same CSS adopted by the page's own script, so only the browser's restyle,
  // layout and paint remain (no extension messaging, no engine).
  for (let trial = 0; trial < TRIALS; trial++) {
    page = await openPage(url);
    // The page's own transitions off beforehand, as Dusk's switch holds them off: no animation is timed.
    await page.evaluate(() => new Promise((done) => {
      const still = new CSSStyleSheet();
      still.replaceSync("*,*::before,*::after{transition:none!important}");
      document.adoptedStyleSheets = [...document.adoptedStyleSheets, still];
      requestAnimationFrame(() => setTimeout(done, 50));
    }));
    await page.evaluate(installProbe);
    const start = await page.evaluate(([sheets, own]) => {
      // The site's own design: its dark-scheme conditions found beforehand (Dusk finds them when the popup opens).
      const lists = [];
      const visit = (rules) => { for (const r of rules) { if (r.media && r.media.mediaText.includes("prefers-color-scheme")) lists.push(r.media); if (r.cssRules) visit(r.cssRules); } };
      if (own.inPlace) for (const s of document.styleSheets) { try { visit(s.cssRules); } catch {} }
      const all = own.marks.length ? document.querySelectorAll("*") : [];
      const t = performance.timeOrigin + performance.now();
      for (const m of lists) m.mediaText = m.mediaText.replace(/\(prefers-color-scheme: dark\)/g, "(prefers-color-scheme)").replace(/\(prefers-color-scheme: light\)/g, "(max-width: -1px)");
      for (const [i, v] of own.marks) all[i]?.setAttribute("data-dusk-aa", v);
      document.adoptedStyleSheets = [...document.adoptedStyleSheets, ...sheets.map((css) => { const s = new CSSStyleSheet(); s.replaceSync(css); return s; })];
      return t;
    }, [duskCss, ownDesign]);
    const done = await page.evaluate(([q, m]) => window.__settle(q, m), [QUIET_MS, MAX_MS]);
    floors.push(done.last ? done.last - start : 0);
    await page.close();
  }
  row.dusk.floor = median(floors);
  row.dusk.rules = themeSize.rules;
  row.dusk.bytes = duskCss.reduce((n, css) => n + Buffer.byteLength(css), 0);
  row.dr.settle = median(drSettles);
  row.dusk.settle = median(duskSettles);
  row.dr.trials = drSettles;
  row.dusk.trials = duskSettles;
  rows.push(row);
  process.stderr.write(`${name}: DR aa ${row.dr.aa.toFixed(3)} (styles ${row.dr.aaStyles.toFixed(3)}) settle ${row.dr.settle.toFixed(0)} | Dusk aa ${row.dusk.aa.toFixed(3)} (styles ${row.dusk.aaStyles.toFixed(3)}) settle ${row.dusk.settle.toFixed(0)} floor ${row.dusk.floor.toFixed(0)} rules ${row.dusk.rules} bytes ${row.dusk.bytes} [DR ${row.dr.trials.map((x) => x.toFixed(0))} | Dusk ${row.dusk.trials.map((x) => x.toFixed(0))}] first ${row.dusk.firstFrame.toFixed(3)}\n`);
  if (process.env.VERBOSE && row.dusk.failures.length) process.stderr.write(`  dusk failures: ${JSON.stringify(row.dusk.failures.slice(0, 5))}\n`);
  if (process.env.VERBOSE && row.dr.failures.length) process.stderr.write(`  dr failures: ${JSON.stringify(row.dr.failures.slice(0, 5))}\n`);
}
await env.close();
for (const s of sites.values()) await s.close();

const f3 = (x) => (Number.isFinite(x) ? x.toFixed(3) : "–");
// Per-page brightness is compared with Dark Reader to the fourth decimal.
const f4 = (x) => (Number.isFinite(x) ? x.toFixed(4) : "–");
const f0 = (x) => (Number.isFinite(x) ? x.toFixed(0) : "–");
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const header = ["page", "own activity ms", "AA none", "AA DR", "AA Dusk", "lum DR", "lum Dusk", "bright DR", "bright Dusk", "shift DR (boxes moved)", "shift Dusk (own design: vs the browser's dark scheme)", "settle DR ms", "settle Dusk ms", "browser floor ms", "theme rules", "theme KB", "reload 1st frame", "reload max frame"];
const line = (cells) => `| ${cells.join(" | ")} |`;
console.log(line(header));
console.log(line(header.map(() => "---")));
for (const r of rows) {
  console.log(line([r.page, f0(r.none.own), f3(r.none.aa), f3(r.dr.aa), f3(r.dusk.aa), f4(r.dr.lum), f4(r.dusk.lum), f4(r.dr.bright), f4(r.dusk.bright), r.dr.moved, r.dusk.moved, f0(r.dr.settle), f0(r.dusk.settle), f0(r.dusk.floor), r.dusk.rules, (r.dusk.bytes / 1024).toFixed(1), f3(r.dusk.firstFrame), f3(r.dusk.maxFrame)]));
}
const m = (f) => mean(rows.map(f));
console.log(line(["**mean**", f0(m((r) => r.none.own)), f3(m((r) => r.none.aa)), f3(m((r) => r.dr.aa)), f3(m((r) => r.dusk.aa)), f4(m((r) => r.dr.lum)), f4(m((r) => r.dusk.lum)), f4(m((r) => r.dr.bright)), f4(m((r) => r.dusk.bright)), f0(m((r) => r.dr.moved)), f0(m((r) => r.dusk.moved)), f0(m((r) => r.dr.settle)), f0(m((r) => r.dusk.settle)), f0(m((r) => r.dusk.floor)), f0(m((r) => r.dusk.rules)), (m((r) => r.dusk.bytes) / 1024).toFixed(1), f3(m((r) => r.dusk.firstFrame)), f3(m((r) => r.dusk.maxFrame))]));

const checks = [
  ["AA mean ≥ 0.995", m((r) => r.dusk.aa) >= 0.995],
  ["AA every page ≥ 0.98", rows.every((r) => r.dusk.aa >= 0.98)],
  ["luminance ≤ Dark Reader (mean)", m((r) => r.dusk.lum) <= m((r) => r.dr.lum)],
  ["bright share ≤ Dark Reader (mean)", m((r) => r.dusk.bright) <= m((r) => r.dr.bright)],
  ["zero layout shift", rows.every((r) => r.dusk.moved === 0)],
  ["settle ≤ 0.5 × Dark Reader on every page", rows.every((r) => r.dusk.settle <= 0.5 * r.dr.settle)],
  ["settle ≤ 0.5 × Dark Reader on every page that is quiet by itself", rows.every((r) => r.none.own > 0 || r.dusk.settle <= 0.5 * r.dr.settle)],
  [`settle ≤ 0.5 × Dark Reader on every page, or ≤ 1.1 × the browser's own restyle of Dusk's CSS where that floor is above 0.5 × Dark Reader (floor above on: ${rows.filter((r) => r.dusk.floor > 0.5 * r.dr.settle).map((r) => r.page).join(", ") || "none"})`, rows.every((r) => r.dusk.settle <= 0.5 * r.dr.settle || (r.dusk.floor > 0.5 * r.dr.settle && r.dusk.settle <= 1.1 * r.dusk.floor))],
  ["settle mean ≤ 0.5 × Dark Reader mean", m((r) => r.dusk.settle) <= 0.5 * m((r) => r.dr.settle)],
  ["reload first frame dark (≤ 0.1)", rows.every((r) => r.dusk.firstFrame <= 0.1)],
  [`AA metric check page: ${f3(metricCheck.pixels)}, expected ${f3(EXPECTED_AA)} (computed styles alone: ${f3(metricCheck.styles)})`, Math.abs(metricCheck.pixels - EXPECTED_AA) < 0.01],
];
console.log("");
for (const [what, ok] of checks) console.log(`${ok ? "PASS" : "MISS"}  ${what}`);
// Per page: where Dusk is brighter, the element under the most bright pixels names the cause.
// A site's own dark design is shown as the browser shows it and needn't be dimmer than Dark
// Reader's recolouring: those pages are listed, not counted.
for (const [what, key] of [["luminance", "lum"], ["bright share", "bright"]]) {
  const higher = rows.filter((r) => !r.own && r.dusk[key] > r.dr[key]);
  const counted = rows.filter((r) => !r.own).length;
  const own = rows.filter((r) => r.own && r.dusk[key] > r.dr[key]);
  console.log(`${higher.length ? "MISS" : "PASS"}  ${what} ≤ Dark Reader on every page Dusk recolours: ${counted - higher.length} of ${counted}${higher.length ? ` (higher: ${higher.map((r) => `${r.page} ${r.dusk[key].toFixed(4)} vs ${r.dr[key].toFixed(4)}`).join(", ")})` : ""}`);
  if (own.length) console.log(`INFO  ${what} of the sites' own designs above Dark Reader's recolouring: ${own.map((r) => `${r.page} ${r.dusk[key].toFixed(4)} vs ${r.dr[key].toFixed(4)}`).join(", ")}`);
}
const px = (e) => (e ? `${e.n} bright px${e.n ? ` (${e.colour})` : ""}, luminance sum ${e.lum.toFixed(0)}` : "absent");
for (const r of rows) {
  for (const [what, key, cell] of [["luminance", "lum", "lum"], ["bright share", "bright", "n"]]) {
    if (r.dusk[key] <= r.dr[key]) continue;
    const g = brighterRegion(r.dusk.region, r.dr.region, cell);
    console.log(`      ${r.page}, ${what}: ${g ? `most above Dark Reader under ${g.element} (${g.size} px): Dusk ${px(g)}; Dark Reader ${px(g.theirs)}` : "no single element"}`);
    // REGIONS=n lists the next elements too, when one element doesn't explain the difference.
    for (const e of brighterRegions(r.dusk.region, r.dr.region, cell, Number(process.env.REGIONS ?? 1)).slice(1)) {
      console.log(`        then ${e.element} (${e.size} px): Dusk ${px(e)}; Dark Reader ${px(e.theirs)}`);
    }
  }
}
