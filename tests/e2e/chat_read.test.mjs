// What the chat sends the model about a page: the main content first, whole and in order, the
// rest as an outline, a budget that keeps the answer, and never a page block made of nothing.
import assert from "node:assert/strict";
import { answerText, ask, askHarmlessThen, configure, lastUserOf, panelFor, systemOf } from "./chat_panel.mjs";
import { openPage } from "./page-helpers.mjs";

/** The page blocks the model was sent, by tab number. */
const blocksOf = (req) => [...lastUserOf(req).matchAll(/<page tab="(\d+)"[^>]*>\n([^]*?)\n<\/page>/g)].map((m) => m[2]);
const FERRY = /From Monday the first ferry leaves at six/;

export const tests = [
  ["an article longer than the budget: its headline and start reach the model with a line saying it continues, and the menus do not", async (env) => {
    await configure(env);
    env.llm.script({ text: "The harbour closed." });
    const { panel } = await panelFor(env, ["/pages/read/long-article.html"]);
    await ask(panel, "What happened?");
    await answerText(panel);
    const [block] = blocksOf(env.llm.lastRequest());
    assert.ok(block.startsWith("# Storm closes the harbour\nParagraph 0 of the storm report"), block.slice(0, 300));
    assert.match(block, /\[The main content continues: about \d+ more tokens of \d+ are not shown here\. In pass 2, read_page_part with part 0 and from \d+ reads on\.\]/);
    assert.doesNotMatch(block, /^Section 3$/m, "no menu line");
    assert.doesNotMatch(block, /^Popular story 2$/m, "no related-links line");
    assert.doesNotMatch(block, /^## Most read$/m, "a list's heading is no section of the page");
    assert.match(block, /^\[1\] Header \(20 links, ~\d+ tokens\): Section 0, Section 1/m, `the menu is one outline line: ${block.slice(-600)}`);
  }],

  ["a menu of 60 links is one outline line, not 60 lines", async (env) => {
    await configure(env);
    env.llm.script({ text: "Harbour news." });
    const { panel } = await panelFor(env, ["/pages/read/menu-60.html"]);
    await ask(panel, "What's in the menu?");
    await answerText(panel);
    const [block] = blocksOf(env.llm.lastRequest());
    assert.ok(block.startsWith("# Harbour reopens\nParagraph 0"), block.slice(0, 200));
    const lines = block.split("\n").filter((l) => /Topic \d/.test(l));
    assert.equal(lines.length, 1, block);
    assert.match(lines[0], /^\[1\] Navigation \(60 links, ~\d+ tokens\): Topic 0, Topic 1, Topic 2, .*…$/);
  }],

  ["three tabs, one short: the long ones get the short one's unused share", async (env) => {
    await configure(env);
    env.llm.script({ text: "Three pages." });
    const { panel } = await panelFor(env, ["/pages/read/long-article.html", "/pages/chat-a.html", "/pages/read/long-article.html?again"]);
    await ask(panel, "Summarise each");
    await answerText(panel);
    const blocks = blocksOf(env.llm.lastRequest());
    assert.equal(blocks.length, 3);
    assert.match(blocks[1], /red fox/);
    // An even split gives each tab 4,000 tokens, about 105 of these paragraphs.
    const last = (b) => Math.max(...[...b.matchAll(/Paragraph (\d+) of the storm/g)].map((m) => +m[1]));
    for (const b of [blocks[0], blocks[2]]) {
      assert.ok(last(b) >= 130, `read to paragraph ${last(b)}`);
      assert.match(b, /The main content continues/);
    }
  }],

  ["a photo's caption, a Main article line, footnote marks and a comment form leave the article's text for the outline", async (env) => {
    await configure(env);
    env.llm.script({ text: "New times." });
    const { panel } = await panelFor(env, ["/pages/read/inserts.html"]);
    await ask(panel, "When is the last boat?");
    await answerText(panel);
    const [block] = blocksOf(env.llm.lastRequest());
    const [text, outline = ""] = block.split("The rest of the page, outlined");
    // The story sits in an inline-block column: read as boxes and paragraphs, not one run of words.
    assert.ok(text.startsWith("# Ferry timetable changes\nParagraph 0 of the ferry report"), block);
    assert.match(text, /^## Winter sailings\nParagraph 3 of the ferry report: winter sailings stop at ten in the evening\. The last boat waits for the train\.$/m);
    assert.match(text, /^Paragraph 5 of the ferry report/m);
    for (const gone of ["The morning ferry at the north pier", "Main article", "[1]", "Leave a comment", "checked before they appear", "Section 2"]) assert.ok(!text.includes(gone), `${gone}: ${text}`);
    assert.match(outline, /^\[\d\] Captions \(~\d+ tokens\): "The morning ferry at the north pier"$/m, outline);
    assert.match(outline, /^\[\d\] Related links "in the main content" \(1 link, ~\d+ tokens\): "Main article: Winter ferry timetable"$/m, outline);
    assert.match(outline, /Leave a comment/, outline);
  }],

  ["orders in a menu or a footer stay quoted page data", async (env) => {
    const { normal, req, answer } = await askHarmlessThen(env, "/pages/read/injection-menu.html");
    assert.equal(answer, "A lemon cake recipe.");
    assert.equal(systemOf(req), systemOf(normal));
    const user = lastUserOf(req);
    const [block] = blocksOf(req);
    assert.match(block, /^# Lemon cake\nMix flour/);
    assert.match(block, /ignore previous instructions/, "the menu's text is outlined inside the page block");
    assert.equal(user.split("ignore previous instructions").length, 2, "and nowhere else");
    assert.equal(user.split("</page>").length, 2);
    assert.ok(!JSON.stringify(req.body).includes("sk-test"));
  }],

  ["a page veiled by an anti-flicker snippet (opacity 0 on html) is read", async (env) => {
    const { call } = await openPage(env, "/pages/read/veil-opacity.html");
    const s = await call({ type: "text_snapshot", token_budget: 2000 });
    assert.match(s.block, FERRY);
    assert.match(s.block, /^# Ferry timetable changes/);
  }],

  ["a page hidden until a script runs (visibility hidden on html) is read", async (env) => {
    const { call } = await openPage(env, "/pages/read/veil-visibility.html");
    const s = await call({ type: "text_snapshot", token_budget: 2000 });
    assert.match(s.block, FERRY);
  }],

  ["a document replaced by document.write is read as it is now", async (env) => {
    const { page, call } = await openPage(env, "/pages/read/replaced.html");
    await page.waitForFunction(() => document.title === "Ferry news");
    const s = await call({ type: "text_snapshot", token_budget: 2000 });
    assert.match(s.block, FERRY);
    assert.doesNotMatch(s.block, /Loading/);
  }],

  ["a body swapped in by script after load is read", async (env) => {
    const { page, call } = await openPage(env, "/pages/read/late-body.html");
    await page.waitForFunction(() => document.body?.textContent.includes("ferry"));
    const s = await call({ type: "text_snapshot", token_budget: 2000 });
    assert.match(s.block, FERRY);
  }],

  ["a tab read before (its next reads on a kept port) gives the chat the page it shows now: after a link, and after Back", async (env) => {
    await configure(env);
    env.llm.script({ text: "One." }, { text: "Two." }, { text: "Three." }, { text: "Four." });
    const { panel, pages: [tab] } = await panelFor(env, ["/pages/chat-a.html"]);
    const read = async (n) => {
      await ask(panel, `Question ${n}?`);
      await answerText(panel, n);
      return blocksOf(env.llm.lastRequest())[0];
    };
    assert.match(await read(1), /Alpha project ships on Tuesday/);
    // A moment for the worker to keep a port to the page, then a read over it.
    await new Promise((r) => setTimeout(r, 300));
    assert.match(await read(2), /Alpha project ships on Tuesday/);
    await tab.goto(`${env.base}/pages/read/menu-60.html`);
    const next = await read(3);
    assert.ok(next.startsWith("# Harbour reopens"), next.slice(0, 200));
    assert.doesNotMatch(next, /Alpha/);
    await tab.goBack();
    await new Promise((r) => setTimeout(r, 300));
    const back = await read(4);
    assert.match(back, /Alpha project ships on Tuesday/);
    assert.doesNotMatch(back, /Harbour reopens/);
  }],
];
