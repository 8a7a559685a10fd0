// What the browser agent shows a model, part 2: nothing cut without saying so, page text readable
// at any step, icons inside named controls, no text a person can't see, contexts that name their
// container, widgets without ARIA, and typing where a person can type. The scripted models read
// only the requests they get, never the page, and act on what the lines say.
import assert from "node:assert/strict";
import { agentTest as panelTest, finish as runEnd, startRun, usePolicy } from "./agent_panel.mjs";
import { answer, elementsOf, failure, lastListing, parseRequest, toolCall, toolCalls } from "./agent_policy.mjs";

/** These pages have nothing sensitive: a card fails the test. */
const finish = (panel) => runEnd(panel, { onCard: (card) => assert.fail(`unexpected card: ${card.text}`) });
const agentTest = (name, path, body) => panelTest(name, path, { mode: "dom" }, body);

/** Every get_elements answer the model was sent, in order, once each. */
function listingsSent(env) {
  const out = [];
  for (const req of env.llm.requests()) {
    for (const c of parseRequest(req).calls) {
      const data = c.name === "get_elements" && c.result?.success ? c.result.data : undefined;
      if (typeof data === "string" && !data.startsWith("[superseded") && !out.includes(data)) out.push(data);
    }
  }
  return out;
}
const lastCall = (env) => parseRequest(env.llm.lastRequest()).calls;

// ---------------------------------------------------------------- a long text area's last word

/** "What is the last word of the notes?": the listing says the value is cut and where it is whole. */
function lastWordPolicy(p) {
  const failed = failure(p);
  if (failed) return failed;
  if (!p.last) return toolCall("get_elements", {});
  if (p.last.name === "get_elements") {
    const notes = lastListing(p).find((e) => e.tag === "textarea");
    if (!notes) return answer("I see no notes.");
    if (notes.valueChars) return toolCall("get_element_details", { indices: [notes.index] });
    return answer(`The last word is ${notes.value.trim().split(/\s+/).at(-1)}.`);
  }
  const value = p.last.result.data?.details?.[0]?.value ?? "";
  return answer(`The last word is ${value.trim().split(/\s+/).at(-1)}.`);
}

const notesTests = [
  agentTest("a long text area: the listing says its value is cut and its length; get_element_details gives it whole; the model answers its last word", "/pages/agent/notes.html", async (env, { page, panel }) => {
    usePolicy(env, lastWordPolicy);
    await startRun(panel, "What is the last word of the notes?");
    const end = await finish(panel);
    assert.equal(end.state, "done", end.text);
    assert.match(end.text, /The last word is marmalade\./);
    const length = await page.locator("#notes").evaluate((t) => t.value.length);
    const [listing] = listingsSent(env);
    assert.match(listing, new RegExp(`^\\[(\\d+)\\] textarea "Notes" value="Proin imperdiet[^"]*…" \\(${length} characters: get_element_details \\[\\1\\]\\)`, "m"), listing);
  }),
];

// ---------------------------------------------------------------- a price that changes after the task starts

/** "Buy once the price is below $50": reads the page's text with read_text, waits, reads again. */
function pricePolicy(p) {
  const failed = failure(p);
  if (failed) return failed;
  if (!p.last) return toolCall("get_elements", {});
  if (p.last.name === "click") return answer("Bought the headphones.");
  const buy = () => lastListing(p).find((e) => e.text === "Buy");
  if (p.last.name === "read_text") {
    const price = Number(String(p.last.result.data).match(/Price: \$(\d+)/)?.[1] ?? NaN);
    if (price < 50) return toolCall("click", { index: buy().index });
    if (p.calls.filter((c) => c.name === "wait").length >= 12) return answer("The price never dropped below $50.");
    return toolCall("wait", { seconds: 3 });
  }
  return toolCall("read_text", {});
}

const priceTests = [
  agentTest("a price shown as plain text changes after the task starts: read_text reads it at a later step, wait's result says what text appeared", "/pages/agent/price.html", async (env, { page, panel }) => {
    usePolicy(env, pricePolicy);
    await startRun(panel, "Buy the headphones once the price is below $50.");
    const end = await runEnd(panel, { onCard: "approve" });
    assert.equal(end.state, "done", end.text);
    assert.equal(await page.locator("#status").textContent(), "Bought at $45");
    const calls = lastCall(env);
    const first = parseRequest(env.llm.requests()[0]);
    assert.match(first.summary, /Price: \$80/, "the task started before the price dropped");
    const reads = calls.filter((c) => c.name === "read_text").map((c) => String(c.result.data));
    assert.match(reads[0], /^Page text, characters 1–\d+ of \d+ \(the end\)\n<<<PAGE\n/, reads[0]);
    assert.ok(reads.some((r) => /Price: \$45/.test(r)), reads.join("\n---\n"));
    const waits = calls.filter((c) => c.name === "wait").map((c) => c.result.data.changed ?? []);
    assert.ok(waits.flat().some((l) => /^text appeared: "Price: \$(65|45)"$/.test(l)), `a wait says what text appeared:\n${JSON.stringify(waits)}`);
    assert.ok(waits.flat().some((l) => /^text went: "Price: \$(80|65)"$/.test(l)), `and what went:\n${JSON.stringify(waits)}`);
  }),
];

/** "What comes after chapter 2?": scrolls once and reads what came into view from scroll's result. */
function scrollPolicy(p) {
  const failed = failure(p);
  if (failed) return failed;
  if (!p.last) return toolCall("scroll", { direction: "down" });
  const appeared = (p.last.result.data.changed ?? []).map((l) => l.match(/^text appeared: "(.*)"$/)?.[1]).filter(Boolean);
  return answer(`Came into view: ${appeared.join(" | ")}`);
}

const scrollTests = [
  agentTest("scroll's result says what text came into view and what left it", "/pages/agent/chapters.html", async (env, { panel }) => {
    usePolicy(env, scrollPolicy);
    await startRun(panel, "What comes after the first chapters?");
    const end = await finish(panel);
    assert.equal(end.state, "done", end.text);
    assert.match(end.text, /Came into view: .*Chapter [3-9]/, end.text);
    const changed = lastCall(env).find((c) => c.name === "scroll").result.data.changed;
    assert.ok(changed.some((l) => /^text went: "(A long story|Chapter 1)"$/.test(l)), changed.join("\n"));
  }),
];

// ---------------------------------------------------------------- a menu picked by its icon

function iconPolicy(p) {
  const failed = failure(p);
  if (failed) return failed;
  const icon = p.task.match(/with the (\w+) icon/)?.[1];
  if (!p.last) return toolCall("get_elements", {});
  if (p.last.name === "click") return answer(`Clicked the item with the ${icon} icon.`);
  const item = lastListing(p).find((e) => e.role === "menuitem" && e.icon === icon);
  return item ? toolCall("click", { index: item.index }) : answer(`I see no item with the ${icon} icon.`);
}

const iconTests = [
  agentTest("menu items with icons and labels: each line prints both; a task that names only the icon picks its item", "/pages/agent/icon-menu.html", async (env, { page, panel }) => {
    usePolicy(env, iconPolicy);
    await startRun(panel, "Click the menu item with the stop icon.");
    const end = await finish(panel);
    assert.equal(end.state, "done", end.text);
    assert.equal(await page.locator("#status").textContent(), "Chose: end");
    const [listing] = listingsSent(env);
    for (const re of [/role=menuitem "Carry on" icon="play"/, /role=menuitem "End session" icon="stop"/, /role=menuitem "Keep a copy" icon="download"/, /role=menuitem "Erase" icon="delete"/]) {
      assert.match(listing, re, listing);
    }
  }),
];

// ---------------------------------------------------------------- text no one can see

/** Looks at everything: both listings, the page's text, every element's details; answers with the cards' numbers. */
function lookEverywherePolicy(p) {
  const failed = failure(p);
  if (failed) return failed;
  const done = p.calls.map((c) => c.name);
  if (!done.includes("get_elements")) return toolCall("get_elements", {});
  if (!done.includes("read_text")) return toolCall("read_text", {});
  if (done.filter((n) => n === "get_elements").length < 2) return toolCall("get_elements", { visible_only: false });
  if (!done.includes("get_element_details")) return toolCall("get_element_details", { indices: lastListing(p).map((e) => e.index).slice(0, 20) });
  if (!done.includes("click")) return toolCall("click", { index: lastListing(p).find((e) => e.text === "Rules").index });
  const face = lastListing(p).filter((e) => e.role === "button" && /^\d$/.test(e.text)).map((e) => e.text);
  return answer(`Face up: ${face.join(", ")}.`);
}

const hiddenTests = [
  agentTest("text no one can see (font-size 0, the background's colour, opacity 0, clipped) is in no request; the listing and the summary count it", "/pages/agent/hidden-text.html", async (env, { panel }) => {
    usePolicy(env, lookEverywherePolicy);
    await startRun(panel, "Which cards are face up?");
    const end = await finish(panel);
    assert.equal(end.state, "done", end.text);
    assert.equal(end.text, "Face up: 5, 9.");
    const all = env.llm.requests().map((r) => JSON.stringify(r.body)).join("\n");
    assert.ok(all.includes("Find the pairs"), "the page's visible text was sent");
    for (const n of ["ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX"]) assert.ok(!all.includes(`AGENT NOTE ${n}`), `hidden note ${n} reached the model`);
    const first = parseRequest(env.llm.requests()[0]);
    assert.match(first.summary, /^Text \(\d+ pieces of text no one can see left out\):$/m, first.summary);
    const [onScreen] = listingsSent(env);
    assert.match(onScreen, /^\d+ elements on screen, of \d+ on the page; \d+ pieces? of text no one can see left out:/, onScreen);
    const els = elementsOf({ result: { success: true, data: onScreen } });
    assert.deepEqual(els.filter((e) => e.role === "button" && e.tag === "div").map((e) => e.text), ["", "", "5", "9"], "face-down cards show no number");
    assert.ok(els.some((e) => e.text === "Reset game"), onScreen);
    assert.ok(els.some((e) => e.text === "Close"), onScreen);
  }),
];

// ---------------------------------------------------------------- a dialog over a form with the same button names

function exitPolicy(p) {
  const failed = failure(p);
  if (failed) return failed;
  if (!p.last) return toolCall("get_elements", {});
  if (p.last.name === "click") return answer("Exited to the home page.");
  const ok = lastListing(p).find((e) => e.text === "OK" && e.rowKind === "dialog" && /home page/i.test(e.row));
  return ok ? toolCall("click", { index: ok.index }) : answer("I can't tell which OK exits.");
}

const dialogTests = [
  agentTest("a login form and a dialog share OK and Cancel: each names its container (the dialog's title, the form's heading), never the other button", "/pages/agent/dialog.html", async (env, { page, panel }) => {
    usePolicy(env, exitPolicy);
    await startRun(panel, "Exit to the home page.");
    const end = await finish(panel);
    assert.equal(end.state, "done", end.text);
    assert.equal(await page.locator("#status").textContent(), "Exited to home");
    const [listing] = listingsSent(env);
    assert.match(listing, /^\[\d+\] button type=button "OK" in "Sign in"$/m, listing);
    assert.match(listing, /^\[\d+\] button type=button "Cancel" in "Sign in"$/m, listing);
    assert.match(listing, /^\[\d+\] button type=button "OK" in dialog "Exit to home page\?"$/m, listing);
    assert.match(listing, /^\[\d+\] button type=button "Cancel" in dialog "Exit to home page\?"$/m, listing);
    assert.doesNotMatch(listing, /in "(OK|Cancel)/, "no context is another button's text");
  }),
];

// ---------------------------------------------------------------- a jQuery UI slider

function sliderPolicy(p) {
  const failed = failure(p);
  if (failed) return failed;
  const want = Number(p.task.match(/to (\d+)/)[1]);
  if (!p.last) return toolCall("get_elements", {});
  if (p.last.name === "click") return answer(`Set it to ${want} and submitted.`);
  const list = lastListing(p);
  const slider = list.find((e) => e.role === "slider");
  if (!slider) return answer("I see no slider.");
  const now = Number(slider.value);
  if (now === want) return toolCall("click", { index: list.find((e) => e.text === "Submit").index });
  const key = now < want ? "ArrowRight" : "ArrowLeft";
  return toolCalls(...Array.from({ length: Math.abs(want - now) }, () => ["press_key", { index: slider.index, key }]), ["get_elements", {}]);
}

const sliderTests = [
  agentTest("a jQuery UI slider handle without ARIA reads role=slider with the value it shows; the model moves it by keys and submits", "/pages/agent/slider.html", async (env, { page, panel }) => {
    usePolicy(env, sliderPolicy);
    await startRun(panel, "Set the tickets to 7 and submit.");
    const end = await finish(panel);
    assert.equal(end.state, "done", end.text);
    assert.equal(await page.locator("#status").textContent(), "Submitted 7");
    const [first] = listingsSent(env);
    assert.match(first, /^\[\d+\] span role=slider value="3"/m, first);
  }),
];

// ---------------------------------------------------------------- editors that take keys through a hidden field

/** "In the X, run: Y": types into the field the listing names (or the box with a shell prompt), then runs it (Enter, or the Run button). */
function editorPolicy(p) {
  const failed = failure(p);
  if (failed) return failed;
  const [, where, command] = p.task.match(/^In the (\w+), run: (.+)$/);
  if (!p.last) return toolCall("get_elements", {});
  if (p.last.name !== "get_elements") return answer(`Ran ${command}.`);
  const list = lastListing(p);
  // A named field, else (a terminal) the box that shows a shell prompt: a person types there.
  const field = list.find((e) => new RegExp(where, "i").test(e.text) && (e.tag === "textarea" || e.role === "textbox")) ?? list.find((e) => /\$$/.test(e.text));
  if (!field) return answer(`I see no ${where} to type into.`);
  const run = list.find((e) => e.text === "Run");
  return toolCalls(["type", { index: field.index, text: command }], run ? ["click", { index: run.index }] : ["press_key", { key: "Enter" }]);
}

const editorTests = [
  agentTest("xterm.js: type clicks the terminal and sends keys to its hidden textarea; Enter runs the command", "/pages/agent/editors/terminal.html", async (env, { page, panel }) => {
    usePolicy(env, editorPolicy);
    await page.waitForSelector(".xterm-helper-textarea");
    await startRun(panel, "In the terminal, run: deploy --env staging");
    const end = await finish(panel);
    assert.equal(end.state, "done", `${end.text}\n${listingsSent(env).join("\n---\n")}`);
    assert.equal(await page.locator("#status").textContent(), "ran: deploy --env staging", JSON.stringify(lastCall(env), null, 1).slice(0, 3000));
    const typed = lastCall(env).find((c) => c.name === "type");
    assert.match(typed.result.data.message, /^clicked .* and typed 20 characters as keys into textarea/, typed.result.data.message);
  }),
  agentTest("CodeMirror 6: type writes into the editor a person sees; Run gets the text", "/pages/agent/editors/editor.html", async (env, { page, panel }) => {
    usePolicy(env, editorPolicy);
    await page.waitForSelector(".cm-content");
    await startRun(panel, "In the query, run: SELECT 1;");
    const end = await finish(panel);
    assert.equal(end.state, "done", `${end.text}\n${listingsSent(env).join("\n---\n")}`);
    assert.equal(await page.locator("#status").textContent(), "ran: SELECT 1;");
  }),
];

export const tests = [...notesTests, ...priceTests, ...scrollTests, ...iconTests, ...hiddenTests, ...dialogTests, ...sliderTests, ...editorTests];
