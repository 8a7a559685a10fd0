// Benchmark helper (not a test): the extraction bench's Dusk column without a chat, for tuning
// core's page reader. `--read` saves what the always-on script measures of each corpus page (its
// boxes and blocks, read as the chat reads them for a 12,000-token tab) to
// tests/.artifacts/extraction/<page>.blocks.json through the built extension; without it, core's
// text_snapshot runs natively on those saved reads (examples/page_block.rs) and the page blocks are
// scored as extraction.mjs scores them, per kind, with the even-numbered pages (by name, from 1)
// and the odd-numbered ones apart: tune on the even ones, the odd ones are held out.
// Run: node tests/bench/extraction_reader.mjs --read   (once per content.js change)
//      node tests/bench/extraction_reader.mjs [--pages] [folder-substring ...]
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { corpus } from "../fixtures/extraction/corpus.mjs";
import { score, tokens } from "./extraction_score.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.resolve(here, "../.artifacts/extraction");
mkdirSync(out, { recursive: true });
const args = process.argv.slice(2);
const filters = args.filter((a) => !a.startsWith("--"));
const all = corpus().map((p, i) => ({ ...p, held: i % 2 === 0 }));
const pages = all.filter((p) => !filters.length || filters.some((f) => p.name.includes(f)));
const OUTLINE = /^The rest of the page, outlined\b/m;
// What the chat asks for one tab: snapshot_chars(12,000) characters and the heading selector.
const READ = { type: "page_text", blocks: true, max_chars: 48000, headings: "h1,h2,h3,h4,h5,h6,[role=heading]" };

if (args.includes("--read")) {
  const { launch } = await import("../e2e/env.mjs");
  const env = await launch();
  await env.ctx.route((u) => /^(https?|wss?):$/.test(u.protocol) && !["127.0.0.1", "localhost"].includes(u.hostname), (r) => r.abort());
  const ext = await env.extPage();
  for (const p of pages) {
    const page = await env.open(`${env.base}/extraction/${p.name}/${p.page}`);
    await page.waitForTimeout(500);
    const read = await ext.evaluate(async ({ path, read }) => {
      const tab = (await chrome.tabs.query({})).find((t) => t.url?.startsWith("http") && new URL(t.url).pathname === path);
      return chrome.tabs.sendMessage(tab.id, read);
    }, { path: new URL(page.url()).pathname, read: READ });
    writeFileSync(path.join(out, `${p.name}.blocks.json`), JSON.stringify(read));
    process.stderr.write(`  ${p.name}: ${read.boxes?.length ?? 0} boxes, ${read.blocks?.length ?? 0} blocks\n`);
    await page.close();
  }
  await env.close();
  process.exit(0);
}

const files = pages.map((p) => path.join(out, `${p.name}.blocks.json`)).filter(existsSync);
const run = spawnSync("cargo", ["run", "-q", "--release", "-p", "dusk-core", "--example", "page_block", "--", ...files], { encoding: "utf8", maxBuffer: 1 << 28, stdio: ["ignore", "pipe", "inherit"] });
if (run.status !== 0) process.exit(run.status ?? 1);
const blocks = JSON.parse(run.stdout);
const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};
const f2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : "–");
const rows = pages.filter((p) => blocks[path.join(out, `${p.name}.blocks.json`)] !== undefined).map((p) => {
  const block = blocks[path.join(out, `${p.name}.blocks.json`)];
  writeFileSync(path.join(out, `${p.name}.native.txt`), block);
  const at = block.search(OUTLINE);
  const mainPart = at >= 0 ? block.slice(0, at) : block;
  return { ...p, mainTokens: tokens(p.main).length, sent: tokens(block).length, outline: at >= 0 ? tokens(block.slice(at)).length : 0, whole: score(block, p.main), part: score(mainPart, p.main) };
});
const line = (cells) => console.log(`| ${cells.join(" | ")} |`);
for (const [title, set] of [["tuned on (even)", rows.filter((r) => !r.held)], ["held out (odd)", rows.filter((r) => r.held)], ["all", rows]]) {
  if (!set.length) continue;
  console.log(`\n${title}`);
  line(["kind (pages)", "main part P / R", "whole P / R", "sent ÷ main median / mean", "outline median / max"]);
  for (const kind of [...new Set(set.map((r) => r.kind))].sort()) {
    const rs = set.filter((r) => r.kind === kind);
    const ratios = rs.map((r) => r.sent / Math.max(1, r.mainTokens));
    const ol = rs.map((r) => r.outline).filter((n) => n > 0);
    line([`${kind} (${rs.length})`, `${f2(mean(rs.map((r) => r.part.precision)))} / ${f2(mean(rs.map((r) => r.part.recall)))}`, `${f2(mean(rs.map((r) => r.whole.precision)))} / ${f2(mean(rs.map((r) => r.whole.recall)))}`, `${f2(median(ratios))} / ${f2(mean(ratios))}`, ol.length ? `${median(ol)} / ${Math.max(...ol)}` : "–"]);
  }
}
if (args.includes("--pages")) {
  console.log("");
  line(["page", "held out", "main", "sent", "outline", "main part P / R", "whole P / R"]);
  for (const r of rows) line([r.name, r.held ? "yes" : "", r.mainTokens, r.sent, r.outline, `${f2(r.part.precision)} / ${f2(r.part.recall)}`, `${f2(r.whole.precision)} / ${f2(r.whole.recall)}`]);
}
