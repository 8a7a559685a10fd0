// What the browser agent shows a model of widgets a page draws itself, and how it edits text:
// toolbar buttons that show only an image, custom drop-downs over hidden selects, rows whose
// first cell is a control, file inputs opened through a button or label, a submenu that opens
// late, and text put at a place the model names or where a click put the caret. The scripted
// models read only the requests they get, never the page, and act on what the lines say.
import assert from "node:assert/strict";
import { agentTest as panelTest, decide, finish as runEnd, nextCard, startRun, usePolicy } from "./agent_panel.mjs";
import { answer, elementsOf, failure, lastListing, parseRequest, toolCall, toolCalls } from "./agent_policy.mjs";

const finish = (panel) => runEnd(panel, { onCard: (card) => assert.fail(`unexpected card: ${card.text}`) });
const agentTest = (name, path, body) => panelTest(name, path, { mode: "dom" }, body);
const calls = (env) => parseRequest(env.llm.lastRequest()).calls;
const listing = (env) => String(calls(env).find((c) => c.name === "get_elements")?.result?.data ?? "");
const named = (e) => e.text || e.icon || "";

// ---------------------------------------------------------------- an editor's toolbar of images

function toolbarPolicy(p) {
  const failed = failure(p);
  if (failed) return failed;
  if (!p.last) return toolCall("get_elements", {});
  if (p.last.name === "get_elements") {
    const h2 = lastListing(p).find((e) => e.tag === "button" && named(e) === "h2");
    return h2 ? toolCall("click", { index: h2.index }) : answer("I see no h2 button.");
  }
  return answer("Inserted a headline.");
}

/** "Add a line after X and fix Teh, then save": reads the lines of the text area's value, places the text by them. */
function editPolicy(p) {
  const failed = failure(p);
  if (failed) return failed;
  if (!p.last) return toolCall("get_elements", {});
  if (p.last.name !== "get_elements") return answer("Edited and saved.");
  const list = lastListing(p);
  const text = list.find((e) => e.tag === "textarea");
  const save = list.find((e) => e.text === "Save");
  if (!text || !save) return answer("I see no editor.");
  const lines = text.value.split("\n");
  if (!lines.includes("Second paragraph.")) return answer(`No such line in: ${JSON.stringify(lines)}`);
  const typo = lines.map((l) => l.match(/\bTeh\b/)?.[0]).find(Boolean);
  return toolCalls(
    ["type", { index: text.index, text: "See also: [[start]]", after_line: "Second paragraph." }],
    ["type", { index: text.index, text: "The", replace: typo }],
    ["click", { index: save.index }],
  );
}

/** "Click into the page name and type -draft there": a click, then typing with no place. */
function caretPolicy(p) {
  const failed = failure(p);
  if (failed) return failed;
  if (!p.last) return toolCall("get_elements", {});
  if (p.last.name !== "get_elements") return answer("Typed where I clicked.");
  const field = lastListing(p).find((e) => e.text === "Page name");
  return field ? toolCalls(["click", { index: field.index }], ["type", { index: field.index, text: "-draft", clear: false }]) : answer("No page name field.");
}

const toolbarTests = [
  agentTest("an editor's toolbar: each image button is one line named by its title, its image's alt or title, else its icon's file; no image has a line", "/pages/agent/widgets/toolbar.html", async (env, { page, panel }) => {
    usePolicy(env, toolbarPolicy);
    await startRun(panel, "Insert a level 2 headline with the toolbar.");
    const end = await finish(panel);
    assert.equal(end.state, "done", end.text);
    const lines = listing(env);
    for (const line of ['button "Bold Text [B]"', 'button "Italic Text [I]"', 'button "Internal Link"', 'button icon="h2"', 'button "Ordered List Item"']) {
      const [tag, name] = [line.slice(0, line.indexOf(" ")), line.slice(line.indexOf(" ") + 1)];
      assert.match(lines, new RegExp(`^\\[\\d+\\] ${tag} type=button ${name.replace(/[[\]]/g, "\\$&")}$`, "m"), lines);
    }
    assert.doesNotMatch(lines, /^\[\d+\] img/m, lines);
    assert.match(await page.locator("#wiki__text").inputValue(), /^== Level 2 Headline ==\n/);
  }),
  agentTest("a text area's value shows its line breaks; type puts text after a line the model names and over a piece it names", "/pages/agent/widgets/toolbar.html", async (env, { page, panel }) => {
    usePolicy(env, editPolicy);
    await startRun(panel, "Add the line 'See also: [[start]]' after 'Second paragraph.', fix the typo Teh, and save.");
    const end = await finish(panel);
    assert.equal(end.state, "done", end.text);
    assert.match(listing(env), /textarea "wikitext" value="First paragraph\.\\nSecond paragraph\.\\nTeh last line\."|textarea value="First paragraph\.\\nSecond paragraph\.\\nTeh last line\."/, listing(env));
    assert.equal(await page.locator("#saved").textContent(), `Saved: ${JSON.stringify("First paragraph.\nSecond paragraph.\nSee also: [[start]]\nThe last line.")}`);
  }),
  agentTest("a click in a field puts the caret where it lands; type with no place inserts there", "/pages/agent/widgets/toolbar.html", async (env, { page, panel }) => {
    usePolicy(env, caretPolicy);
    await startRun(panel, "Click into the page name and type -draft there.");
    const end = await finish(panel);
    assert.equal(end.state, "done", end.text);
    const value = await page.locator("#pagename").inputValue();
    const at = value.indexOf("-draft");
    assert.ok(at > 0 && at < value.length - 6, `inserted inside, not at an end: ${value}`);
    // The click lands on the field's centre: the caret goes to the character boundary nearest it.
    const off = await page.locator("#pagename").evaluate((el, at) => {
      const r = el.getBoundingClientRect(), cs = getComputedStyle(el), c = document.createElement("canvas").getContext("2d");
      c.font = `${cs.fontSize} ${cs.fontFamily}`;
      const left = r.left + parseFloat(cs.borderLeftWidth) + parseFloat(cs.paddingLeft);
      return Math.abs(left + c.measureText(el.value.slice(0, at)).width - (r.left + r.width / 2));
    }, at);
    assert.ok(off <= 9, `the caret is ${off.toFixed(1)} px from where the click landed (${value})`);
  }),
];

// ---------------------------------------------------------------- custom drop-downs over hidden selects

function orderPolicy(p) {
  const failed = failure(p);
  if (failed) return failed;
  if (!p.last) return toolCall("get_elements", {});
  if (p.last.name !== "get_elements") return answer("Ordered.");
  const list = lastListing(p);
  const want = { Fruit: "Banana", Country: "Portugal", Colour: "Green" };
  const picks = Object.entries(want).map(([name, text]) => [list.find((e) => e.role === "combobox" && e.text === name), text]);
  const missing = picks.find(([e]) => !e);
  if (missing) return answer(`I see no drop-down for ${missing[1]}.`);
  const order = list.find((e) => e.text === "Continue");
  return toolCalls(...picks.map(([e, text]) => ["select", { index: e.index, text }]), ["click", { index: order.index }]);
}

const selectTests = [
  agentTest("jQuery selectric, Select2 and Choices.js: each is one combobox line with its value, no focus helper is a field, and select picks by option text", "/pages/agent/widgets/selects.html", async (env, { page, panel }) => {
    await page.waitForSelector(".selectric-wrapper .selectric, .select2-container, .choices");
    usePolicy(env, orderPolicy);
    await startRun(panel, "Order a Banana to Portugal, in Green.");
    const end = await finish(panel);
    assert.equal(end.state, "done", end.text);
    const lines = listing(env);
    const list = elementsOf(calls(env).find((c) => c.name === "get_elements"));
    for (const [name, value] of [["Fruit", "Apple"], ["Country", "France"], ["Colour", "Red"]]) {
      assert.equal(list.filter((e) => e.text === name || e.value === value).length, 1, `one line for ${name}:\n${lines}`);
      assert.ok(list.some((e) => e.role === "combobox" && e.text === name && e.value === value), `${name} is a combobox showing ${value}:\n${lines}`);
    }
    assert.deepEqual(list.filter((e) => e.tag === "input" || e.tag === "select" || e.role === "textbox" || e.role === "option").map((e) => e.line), [], lines);
    assert.equal(list.filter((e) => !named(e)).length, 0, `every line is named:\n${lines}`);
    // The page writes its order after the widgets' own change handlers have run.
    await page.waitForFunction(() => document.querySelector("#result").textContent !== "", null, { timeout: 3000 }).catch(() => {});
    assert.equal(await page.locator("#result").textContent(), "Ordered: Banana, pt, green");
    const shown = await page.evaluate(() => [".selectric .label", "#select2-country-container", ".choices__list--single"].map((s) => document.querySelector(s).textContent.trim()));
    assert.deepEqual(shown, ["Banana", "Portugal", "Green"], "each widget shows the option a person would have clicked");
  }),
];

// ---------------------------------------------------------------- rows whose first cell is a control

function removePolicy(p) {
  const failed = failure(p);
  if (failed) return failed;
  if (!p.last) return toolCall("get_elements", {});
  if (p.last.name !== "get_elements") return answer("Removed Bob.");
  const remove = lastListing(p).find((e) => e.text === "Remove" && /\bBob\b/.test(e.row ?? ""));
  return remove ? toolCall("click", { index: remove.index }) : answer("I can't tell the rows apart.");
}

const rowTests = [
  agentTest("a table row's context is its text less the control's name, for every control in it, the first cell's included", "/pages/agent/widgets/rows.html", async (env, { page, panel }) => {
    usePolicy(env, removePolicy);
    await startRun(panel, "Remove Bob.");
    const end = await finish(panel);
    assert.equal(end.state, "done", end.text);
    const lines = listing(env);
    const list = elementsOf(calls(env).find((c) => c.name === "get_elements"));
    for (const [who, role] of [["Alice", "admin"], ["Bob", "editor"], ["Carol", "viewer"]]) {
      const inRow = list.filter((e) => (e.row ?? "").includes(who));
      assert.deepEqual(inRow.map((e) => e.type === "checkbox" ? "checkbox" : e.text).sort(), ["Edit", "Remove", "checkbox"], `${who}'s row:\n${lines}`);
      for (const e of inRow) {
        assert.ok(e.row.includes(role), `${e.line}`);
        assert.ok(!e.text || !e.row.includes(e.text), `a control's context holds not its own name: ${e.line}`);
      }
    }
    assert.equal(await page.locator("#status").textContent(), "Removed Bob");
    assert.deepEqual(await page.locator("#users td:nth-child(2)").allTextContents().then((t) => t.map((s) => s.trim())), ["Edit Alice", "Edit Carol"]);
  }),
];

// ---------------------------------------------------------------- file inputs a person opens through something else

const uploadPolicy = (name) => (p) => {
  if (!p.last) return toolCall("get_elements", {});
  if (p.last.name === "get_elements") {
    const picker = lastListing(p).find((e) => e.type === "file" && e.text === name);
    return picker ? toolCall("upload_file", { index: picker.index }) : answer(`I see no ${name}.`);
  }
  return answer(p.last.result.success ? "Uploaded." : `Not uploaded: ${p.last.result.error}`);
};

async function upload(env, panel, name) {
  usePolicy(env, uploadPolicy(name));
  await startRun(panel, `Upload a file with "${name}".`);
  const card = await nextCard(panel);
  await panel.setInputFiles(`.confirm-card[data-step="${card.step}"] input[type="file"]`, { name: "photo.txt", mimeType: "text/plain", buffer: Buffer.from("pixels") });
  await decide(panel, card, "approve");
  return runEnd(panel);
}

const fileTests = [
  agentTest("a see-through file input over a button is listed on screen, named by what it shows; upload_file fills it", "/pages/agent/widgets/files.html", async (env, { page, panel }) => {
    const end = await upload(env, panel, "Select files…");
    assert.equal(end.state, "done", end.text);
    assert.equal(end.text, "Uploaded.");
    assert.match(listing(env), /^\[\d+\] input type=file "Select files…"$/m, listing(env));
    assert.deepEqual(await page.locator("#done li").allTextContents(), ["qqfile: photo.txt"]);
  }),
  agentTest("a label that opens a hidden file input is listed as type=file in its place; upload_file on it fills the input", "/pages/agent/widgets/files.html", async (env, { page, panel }) => {
    const end = await upload(env, panel, "Choose an avatar");
    assert.equal(end.state, "done", end.text);
    const lines = listing(env);
    assert.match(lines, /^\[\d+\] label type=file "Choose an avatar"$/m, lines);
    assert.equal(lines.split("\n").filter((l) => /type=file/.test(l)).length, 2, `each picker once:\n${lines}`);
    assert.deepEqual(await page.locator("#done li").allTextContents(), ["avatar: photo.txt"]);
  }),
];

// ---------------------------------------------------------------- a submenu that opens late

function menuPolicy(p) {
  const failed = failure(p);
  if (failed) return failed;
  if (!p.last) return toolCall("get_elements", {});
  if (p.last.name === "get_elements") {
    const products = lastListing(p).find((e) => e.text.startsWith("Products"));
    return products ? toolCall("hover", { index: products.index }) : answer("No Products menu.");
  }
  if (p.last.name === "hover") {
    // What the hover brought into sight: new elements, or ones it showed (`shown now: [5] a "Phones"`).
    const shown = (p.last.result.data.changed ?? []).filter((l) => l.startsWith("shown now: ")).flatMap((l) => [...l.matchAll(/\[(\d+)\] (\S+) "([^"]*)"/g)].map((m) => ({ index: Number(m[1]), tag: m[2], text: m[3] })));
    const phones = [...elementsOf(p.last), ...shown].filter((e) => e.text === "Phones").sort((a, b) => (b.tag === "a") - (a.tag === "a"))[0];
    return phones ? toolCall("click", { index: phones.index }) : answer(`The menu showed nothing: ${JSON.stringify(p.last.result.data)}`);
  }
  return answer("Opened Phones.");
}

const hoverTests = [
  agentTest("hover waits for a submenu that opens 300 ms later and reports what appeared", "/pages/agent/widgets/hover.html", async (env, { page, panel }) => {
    usePolicy(env, menuPolicy);
    await startRun(panel, "Open Phones from the Products menu.");
    const end = await finish(panel);
    assert.equal(end.state, "done", end.text);
    assert.equal(await page.locator("#status").textContent(), "Opened Phones");
    const hover = calls(env).find((c) => c.name === "hover").result.data;
    assert.ok(hover.changed.some((l) => /^shown now: .*"Laptops".*"Phones"/.test(l)), JSON.stringify(hover));
    assert.ok(!(hover.changed ?? []).includes("nothing on the page changed"), JSON.stringify(hover));
  }),
];

export const tests = [...toolbarTests, ...selectTests, ...rowTests, ...fileTests, ...hoverTests];
