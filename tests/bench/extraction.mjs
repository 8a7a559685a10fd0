// Benchmark (not a test, not in tests/run.sh): how much of a page's main text the chat sends the model,
// and how much else, against trafilatura and Mozilla Readability on the same HTML. The corpus is
// tests/fixtures/extraction (one folder per page, main.txt marked by hand); scoring is
// extraction_score.mjs (4-token shingles, precision and recall per page, averaged per kind).
// Dusk's text is the <page> block of the request the scripted model receives in a real chat through
// the built extension (dist/) in headless Chromium, pages served from 127.0.0.1. A block's outline
// part is everything from the first line matching DUSK_OUTLINE (default below) on; it is scored with
// the block but its tokens are also counted on their own.
// Needs: ./build.sh (dist/), npm ci (@mozilla/readability, jsdom), and trafilatura for the peer:
//   python3 -m pip install -r tests/bench/requirements-extraction.txt   (TRAFILATURA_PYTHON=… for a venv)
// Run: node tests/bench/extraction.mjs [folder-substring ...]   (--pages prints every page's row,
//   --peers-only skips Dusk)
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Readability } from "@mozilla/readability";
import { JSDOM, VirtualConsole } from "jsdom";
import { launch } from "../e2e/env.mjs";
import { answerText, ask } from "../e2e/chat_panel.mjs";
import { benchProvider } from "./chat_panel.mjs";
import { corpus, root } from "../fixtures/extraction/corpus.mjs";
import { score, tokens } from "./extraction_score.mjs";

const args = process.argv.slice(2);
const filters = args.filter((a) => !a.startsWith("--"));
const pages = corpus().filter((p) => !filters.length || filters.some((f) => p.name.includes(f)));
// The outline's first line as the block writes it ("The rest of the page, outlined (…):"); a page's
// own "Outline" heading must not split its main content, so no looser default.
const OUTLINE = new RegExp(process.env.DUSK_OUTLINE || String.raw`^The rest of the page, outlined\b`, "m");
const out = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../.artifacts/extraction");
mkdirSync(out, { recursive: true });
const htmlOf = (p) => path.join(root, p.name, p.page);

/** The page block's text as the model received it: between `<page …>` and `</page>`. */
function pageBlock(request) {
  const user = request.body.messages.filter((m) => m.role === "user").map((m) => (typeof m.content === "string" ? m.content : m.content.map((c) => c.text || "").join(""))).join("\n");
  const m = user.match(/<page [^>]*>\n([^]*?)\n<\/page>/);
  return m ? m[1] : "";
}

/** Pages whose chat did not complete, with why: reported apart from pages Dusk read nothing of. */
const failed = {};

/** Dusk: one real chat question per page, the request read back from the scripted server. */
async function dusk() {
  const env = await launch();
  await env.ctx.route((u) => /^(https?|wss?):$/.test(u.protocol) && !["127.0.0.1", "localhost"].includes(u.hostname), (r) => r.abort());
  await benchProvider(env);
  const texts = {};
  for (const p of pages) {
    const before = env.llm.requests().length;
    const page = await env.open(`${env.base}/extraction/${p.name}/${p.page}`);
    const panel = await env.open(env.extUrl("sidepanel.html"));
    try {
      await page.waitForTimeout(500);
      // The tab as the browser lists it now: a page's script may have moved its URL since load.
      const tabId = await (await env.extPage()).evaluate(async (path) => (await chrome.tabs.query({})).find((t) => t.url?.startsWith("http") && new URL(t.url).pathname === path)?.id, new URL(page.url()).pathname);
      await panel.locator("#tab-picker input").first().waitFor({ state: "attached" });
      await panel.locator("details.picker summary").click();
      await panel.locator(`#tab-picker input[data-tab-id="${tabId}"]`).check();
      await ask(panel, "What is this page about?");
      await answerText(panel);
      const req = env.llm.requests().slice(before).find((r) => r.body?.messages);
      texts[p.name] = req ? pageBlock(req) : "";
    } catch (e) {
      texts[p.name] = "";
      failed[p.name] = e.message.split("\n")[0];
      process.stderr.write(`  ${p.name}: no chat (${e.message.split("\n")[0]})\n`);
    }
    process.stderr.write(`  ${p.name}: ${tokens(texts[p.name]).length} tokens sent\n`);
    await panel.close();
    await page.close();
  }
  await env.close();
  return texts;
}

/** trafilatura through its Python package, every page in one process. */
function trafilatura() {
  const py = process.env.TRAFILATURA_PYTHON || "python3";
  const r = spawnSync(py, [path.join(path.dirname(fileURLToPath(import.meta.url)), "extraction_trafilatura.py")], {
    input: JSON.stringify(pages.map((p) => [p.name, htmlOf(p)])),
    maxBuffer: 1 << 28,
    encoding: "utf8",
  });
  if (r.status !== 0) {
    console.error(`trafilatura did not run (${py}): ${r.stderr.trim().split("\n").pop()}\n  install: python3 -m pip install -r tests/bench/requirements-extraction.txt`);
    return { version: "not run", texts: {} };
  }
  return JSON.parse(r.stdout);
}

/** Block elements end a line, so words of two paragraphs never run together. */
function textOf(html) {
  const doc = new JSDOM(`<body>${html}</body>`).window.document;
  for (const el of doc.querySelectorAll("p,div,section,article,li,tr,td,th,h1,h2,h3,h4,h5,h6,pre,blockquote,br,dt,dd,figcaption,table")) el.append(doc.createTextNode("\n"));
  return doc.body.textContent.replace(/\n\s*\n+/g, "\n\n").trim();
}

/** Mozilla Readability on the page's HTML (jsdom, no scripts run, as Firefox's reader view gets it). */
function readability(p) {
  const virtualConsole = new VirtualConsole();
  const dom = new JSDOM(readFileSync(htmlOf(p)), { url: `http://127.0.0.1/extraction/${p.name}/${p.page}`, virtualConsole });
  const article = new Readability(dom.window.document).parse();
  return article ? `${article.title || ""}\n\n${textOf(article.content || "")}` : "";
}

// A page whose main text is longer than the tab's budget can only be sent in part: its recall is
// also scored against the main text's start that fits the budget after the outline and the line
// saying it continues (Dusk's estimate, four characters a token), when the block says it continues.
const BUDGET = 12000;
function budgetRecall(block, at, main) {
  const more = block.match(/^\[The main content continues[^\n]*$/m);
  if (!more) return null;
  const est = (t) => Math.ceil([...t].length / 4);
  const room = 4 * (BUDGET - (at >= 0 ? est(block.slice(at)) : 0) - est(more[0]));
  const cut = main.slice(0, room);
  return score(at >= 0 ? block.slice(0, at) : block, cut.slice(0, Math.max(cut.lastIndexOf(" "), 0))).recall;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};
const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
const f2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : "–");

console.error(`extraction bench: ${pages.length} pages`);
// --peers-only skips the browser (the peers' columns alone, while dist/ is not built).
const peersOnly = args.includes("--peers-only");
const duskTexts = peersOnly ? {} : await dusk();
const traf = trafilatura();
const rows = pages.map((p) => {
  const block = duskTexts[p.name] || "";
  const at = block.search(OUTLINE);
  const outline = at >= 0 ? block.slice(at) : "";
  const main = tokens(p.main).length;
  const texts = { dusk: block, trafilatura: traf.texts[p.name] ?? "", readability: readability(p) };
  for (const [tool, t] of Object.entries(texts)) if (tool !== "dusk" || !peersOnly) writeFileSync(path.join(out, `${p.name}.${tool}.txt`), t);
  return {
    ...p,
    mainTokens: main,
    sent: tokens(block).length,
    mainPart: tokens(at >= 0 ? block.slice(0, at) : block).length,
    outline: tokens(outline).length,
    hasOutline: at >= 0,
    duskMainPart: score(at >= 0 ? block.slice(0, at) : block, p.main),
    budgetRecall: budgetRecall(block, at, p.main),
    scores: Object.fromEntries(Object.entries(texts).map(([tool, t]) => [tool, score(t, p.main)])),
  };
});

// A peer that did not run gets no column rather than zeros.
const tools = [...(peersOnly ? [] : ["dusk"]), ...(traf.version === "not run" ? [] : ["trafilatura"]), "readability"];
const kinds = [...new Set(rows.map((r) => r.kind))].sort();
const line = (cells) => `| ${cells.join(" | ")} |`;
console.log(`\nPrecision / recall / F1 of 4-token shingles against the hand-marked main text, mean per kind (trafilatura ${traf.version}, @mozilla/readability ${JSON.parse(readFileSync(new URL("../../node_modules/@mozilla/readability/package.json", import.meta.url))).version}).`);
console.log("Dusk's tokens sent ÷ main text's tokens (word tokens), median / mean; outline tokens median / max over the pages whose block has one.\n");
const duskCols = peersOnly ? [] : ["Dusk main part P / R", "Dusk sent ÷ main, median / mean", "Dusk main part ÷ main, median / mean", "Dusk outline tokens"];
console.log(line(["kind (pages)", ...tools.map((t) => `${t} P / R / F1`), ...duskCols]));
console.log(line(Array(1 + tools.length + duskCols.length).fill("---")));
for (const kind of [...kinds, "all"]) {
  const rs = rows.filter((r) => kind === "all" || r.kind === kind);
  const cell = (tool) => ["precision", "recall", "f1"].map((k) => f2(mean(rs.map((r) => r.scores[tool][k])))).join(" / ");
  const ratios = rs.map((r) => r.sent / Math.max(1, r.mainTokens));
  const partRatios = rs.map((r) => r.mainPart / Math.max(1, r.mainTokens));
  const withOutline = rs.filter((r) => r.hasOutline).map((r) => r.outline);
  console.log(line([
    `${kind} (${rs.length})`,
    ...tools.map(cell),
    ...(peersOnly ? [] : [
      `${f2(mean(rs.map((r) => r.duskMainPart.precision)))} / ${f2(mean(rs.map((r) => r.duskMainPart.recall)))}`,
      `${f2(median(ratios))} / ${f2(mean(ratios))}`,
      `${f2(median(partRatios))} / ${f2(mean(partRatios))}`,
      withOutline.length ? `${median(withOutline)} / ${Math.max(...withOutline)} (${withOutline.length} pages)` : "no outline part",
    ]),
  ]));
}
const nothing = peersOnly ? [] : rows.filter((r) => r.scores.dusk.recall < 0.05 && !failed[r.name]);
for (const [name, why] of Object.entries(failed)) console.log(`Chat did not complete on ${name}: ${why}`);
if (!peersOnly) console.log(`\nPages where Dusk sent (almost) none of the main text (recall < 0.05): ${nothing.length ? nothing.map((r) => `${r.name} (recall ${r.scores.dusk.recall.toFixed(3)}, ${r.sent} tokens sent)`).join(", ") : "none"}`);
if (args.includes("--pages")) {
  const part = peersOnly ? [] : ["Dusk main part P / R"];
  console.log(`\n${line(["page", "kind", "main tokens", "Dusk sent", "outline", ...part, ...tools.map((t) => `${t} P / R`)])}`);
  console.log(line(Array(5 + part.length + tools.length).fill("---")));
  for (const r of rows) console.log(line([r.name, r.kind, r.mainTokens, r.sent, r.outline, ...(peersOnly ? [] : [`${f2(r.duskMainPart.precision)} / ${f2(r.duskMainPart.recall)}`]), ...tools.map((t) => `${f2(r.scores[t].precision)} / ${f2(r.scores[t].recall)}`)]));
  const cut = rows.filter((r) => r.budgetRecall !== null && r.budgetRecall !== undefined);
  if (cut.length) console.log(`\nMain text over the budget (recall of the main part against the whole main text / against its start that fits the budget): ${cut.map((r) => `${r.name} ${f2(r.duskMainPart.recall)} / ${f2(r.budgetRecall)}`).join(", ")}`);
}
console.log(`\nTexts: ${path.relative(process.cwd(), out)}/<page>.<tool>.txt`);
