// Effects, not words: a Save that would send a wiki page's text emptied asks first, with how
// much text goes (read from the page, whatever the button says); the page's own dialogs (confirm,
// alert, prompt, leave-page) become cards with the page's words, the user's answer reaches the
// page, and the model is told what the page asked and what the user answered. The scripted model
// reads only its requests; the tests read the page, its requests and the panel.
import assert from "node:assert/strict";
import { agentTest as panelTest, cardInfo, finish, lastCallOfRun, press, startRun, usePolicy } from "./agent_panel.mjs";
import { answer, byText, lastListing, toolCall } from "./agent_policy.mjs";

const agentTest = (name, path, body) => panelTest(name, path, { mode: "dom" }, body);
const status = (page) => page.locator("#status").textContent();

/** The card of `tool` ("click", "dialog", …) once it is shown. */
async function cardOf(panel, tool, timeout = 20_000) {
  const h = await panel.waitForFunction((t) => document.querySelector(`.confirm-card[data-tool="${t}"]`)?.dataset.step, tool, { timeout, polling: 50 });
  return cardInfo(panel, await h.jsonValue());
}

/** Presses the card's button ("approve" or "deny") and waits until the card is gone. */
async function answerCard(panel, tool, choice) {
  await press(panel, `.confirm-card[data-tool="${tool}"] button.${choice}`);
  await panel.locator(`.confirm-card[data-tool="${tool}"]`).waitFor({ state: "detached", timeout: 5000 });
}

/** Clears the wiki page's text (type "" into the textarea), then clicks Save. */
const clearAndSave = (p) => {
  if (!p.last) return toolCall("get_elements", {});
  const listed = lastListing(p);
  if (p.last.name === "get_elements") {
    const text = listed.find((e) => e.tag === "textarea");
    return text ? toolCall("type", { index: text.index, text: "", clear: true }) : answer("There is no text box.");
  }
  if (p.last.name === "type") {
    const save = byText(listed, "Save");
    return p.last.result.success && save ? toolCall("click", { index: save.index }) : answer(`Could not clear the text: ${p.last.result.error}`);
  }
  return answer(p.last.result.success ? "Saved the page empty." : `Not saved: ${p.last.result.error}`);
};

/** Lists the buttons, clicks the one named `label`, then answers with what the click's result said. */
const clickThen = (label) => (p) => {
  if (!p.last) return toolCall("get_elements", { filter: "button" });
  if (p.last.name === "get_elements") {
    const el = byText(lastListing(p), label);
    return el ? toolCall("click", { index: el.index }) : answer(`There is no "${label}".`);
  }
  const dialogs = p.last.result.data?.dialogs ?? [];
  return answer(`${p.last.result.success ? "Clicked" : "Could not click"} "${label}". ${dialogs.join(" ")}`);
};

/** The POSTs the page sent to the wiki's save URL. */
function saves(page) {
  const sent = [];
  page.on("request", (r) => r.method() === "POST" && r.url().includes("wiki-saved.html") && sent.push(r.postData() ?? ""));
  return sent;
}

/** The dialog note the model's last request carried for its last call. */
const dialogNotes = (env) => lastCallOfRun(env).result.data?.dialogs ?? [];

/** The fixture page's dialogs are left to Dusk: Playwright would otherwise dismiss them itself. */
const leaveDialogsToDusk = (page) => page.on("dialog", () => {});

export const tests = [
  agentTest("emptying a 4,000-character page and clicking Save asks first with how much text goes; Deny sends nothing", "/pages/agent/wiki-edit.html", async (env, { page, panel }) => {
    const sent = saves(page);
    usePolicy(env, clearAndSave);
    await startRun(panel, "Clear the page's text and save it.");
    const card = await cardOf(panel, "click");
    assert.match(card.action, /Click “Save” on 127\.0\.0\.1\. This replaces the text of “Page text” \(4,000 characters\) with nothing/, card.action);
    assert.match(card.text, /submits “Page text” with 4000 of its 4000 characters gone/, "the card says why");
    await answerCard(panel, "click", "deny");
    const end = await finish(panel);
    assert.equal(end.state, "done");
    assert.deepEqual(sent, [], "nothing was submitted");
    assert.equal(await page.title(), "Editing start — Dusk Wiki", "the editor is still open");
    assert.match(lastCallOfRun(env).result.error, /the user declined/);
  }),

  agentTest("emptying the page and clicking Save, approved, submits the empty text", "/pages/agent/wiki-edit.html", async (env, { page, panel }) => {
    const sent = saves(page);
    usePolicy(env, clearAndSave);
    await startRun(panel, "Clear the page's text and save it.");
    await cardOf(panel, "click");
    await answerCard(panel, "click", "approve");
    const end = await finish(panel);
    assert.equal(end.state, "done", end.text);
    assert.equal(sent.length, 1, "one save");
    const form = new URLSearchParams(sent[0]);
    assert.deepEqual([form.get("wikitext"), form.get("do")], ["", "save"]);
  }),

  agentTest("a small edit of the page and Save ask nothing (the button's words are not the rule)", "/pages/agent/wiki-edit.html", async (env, { page, panel }) => {
    const sent = saves(page);
    usePolicy(env, (p) => {
      if (!p.last) return toolCall("get_elements", {});
      const listed = lastListing(p);
      if (p.last.name === "get_elements") return toolCall("type", { index: listed.find((e) => e.tag === "textarea").index, text: " Trail 4 is open again.", clear: false });
      if (p.last.name === "type") return toolCall("click", { index: byText(listed, "Save").index });
      return answer(p.last.result.success ? "Saved." : `Not saved: ${p.last.result.error}`);
    });
    await startRun(panel, "Add a line about trail 4 and save.");
    const end = await finish(panel, { onCard: () => assert.fail("no card for an edit that keeps the text") });
    assert.equal(end.state, "done", end.text);
    assert.equal(sent.length, 1);
    assert.equal(new URLSearchParams(sent[0]).get("wikitext").length, 4000 + " Trail 4 is open again.".length);
  }),

  agentTest("confirm(): the card shows the page's words, OK reaches the page, the model is told both", "/pages/agent/dialogs.html", async (env, { page, panel }) => {
    leaveDialogsToDusk(page);
    usePolicy(env, clickThen("Delete selected"));
    await startRun(panel, "Delete the selected file.");
    // The button's word asks first, as before; then the page's own question.
    await cardOf(panel, "click");
    await answerCard(panel, "click", "approve");
    const card = await cardOf(panel, "dialog");
    assert.match(card.action, /127\.0\.0\.1 asks: “Really delete selected item\(s\)\?”/, card.action);
    assert.match(card.text, /Really delete selected item\(s\)\?/);
    const labels = await panel.locator('.confirm-card[data-tool="dialog"] button:not([hidden])').allTextContents();
    assert.deepEqual(labels, ["Cancel", "OK"]);
    await answerCard(panel, "dialog", "approve");
    const end = await finish(panel);
    assert.equal(await status(page), "Deleted trail-map.png", "the page ran its OK branch");
    assert.deepEqual(dialogNotes(env), ["the page asked (confirm dialog): “Really delete selected item(s)?”; the user answered OK"]);
    assert.match(end.text, /the user answered OK/, "the model read it");
  }),

  agentTest("confirm(): Cancel reaches the page and the model is told the user cancelled", "/pages/agent/dialogs.html", async (env, { page, panel }) => {
    leaveDialogsToDusk(page);
    usePolicy(env, clickThen("Delete selected"));
    await startRun(panel, "Delete the selected file.");
    await cardOf(panel, "click");
    await answerCard(panel, "click", "approve");
    await cardOf(panel, "dialog");
    await answerCard(panel, "dialog", "deny");
    await finish(panel);
    assert.equal(await status(page), "Kept trail-map.png", "the page ran its Cancel branch");
    assert.deepEqual(dialogNotes(env), ["the page asked (confirm dialog): “Really delete selected item(s)?”; the user answered Cancel"]);
  }),

  agentTest("alert(): the card shows the notice with one button, and the page goes on once the user closes it", "/pages/agent/dialogs.html", async (env, { page, panel }) => {
    leaveDialogsToDusk(page);
    usePolicy(env, clickThen("Show notice"));
    await startRun(panel, "Show the notice.");
    const card = await cardOf(panel, "dialog");
    assert.match(card.action, /127\.0\.0\.1 says: “Your changes were saved\.”/, card.action);
    assert.deepEqual(await panel.locator('.confirm-card[data-tool="dialog"] button:not([hidden])').allTextContents(), ["OK"]);
    await answerCard(panel, "dialog", "approve");
    await finish(panel);
    assert.equal(await status(page), "Notice closed");
    assert.deepEqual(dialogNotes(env), ["the page showed an alert: “Your changes were saved.”; the user closed it"]);
  }),

  agentTest("prompt(): the user's typed answer reaches the page and the model", "/pages/agent/dialogs.html", async (env, { page, panel }) => {
    leaveDialogsToDusk(page);
    usePolicy(env, clickThen("Rename page"));
    await startRun(panel, "Rename the page.");
    const card = await cardOf(panel, "dialog");
    assert.match(card.action, /asks you to type an answer: “New name for the page\?”/, card.action);
    const box = panel.locator('.confirm-card[data-tool="dialog"] .confirm-answer input');
    assert.equal(await box.inputValue(), "start", "the page's default answer is offered");
    await box.fill("trails");
    await answerCard(panel, "dialog", "approve");
    await finish(panel);
    assert.equal(await status(page), "Renamed to trails");
    assert.deepEqual(dialogNotes(env), ["the page asked for text (prompt dialog): “New name for the page?”; the user answered “trails” (OK)"]);
  }),

  agentTest("prompt(): Cancel gives the page null", "/pages/agent/dialogs.html", async (env, { page, panel }) => {
    leaveDialogsToDusk(page);
    usePolicy(env, clickThen("Rename page"));
    await startRun(panel, "Rename the page.");
    await cardOf(panel, "dialog");
    await answerCard(panel, "dialog", "deny");
    await finish(panel);
    assert.equal(await status(page), "Rename cancelled");
    assert.match(dialogNotes(env)[0], /the user answered Cancel$/);
  }),

  agentTest("leaving a page with a typed draft: its leave-page question is the user's; Stay keeps the page and the model is told", "/pages/agent/dialogs.html", async (env, { page, panel }) => {
    leaveDialogsToDusk(page);
    // The user typed a draft: the page may now ask before it is left.
    await page.click("#draft");
    await page.keyboard.type("half a note");
    const saved = new URL("/pages/agent/wiki-saved.html", env.base).href;
    usePolicy(env, (p) => (p.last ? answer(p.last.result.success ? "Opened it." : `Not opened: ${p.last.result.error}`) : toolCall("navigate", { url: saved })));
    await startRun(panel, `Open ${saved}`);
    const card = await cardOf(panel, "dialog");
    assert.match(card.action, /127\.0\.0\.1 asks whether to leave this page \(changes may not be saved\)/, card.action);
    assert.deepEqual(await panel.locator('.confirm-card[data-tool="dialog"] button:not([hidden])').allTextContents(), ["Stay", "Leave"]);
    await answerCard(panel, "dialog", "deny");
    const end = await finish(panel);
    assert.match(page.url(), /dialogs\.html$/, "the tab stayed");
    assert.equal(await page.inputValue("#draft"), "half a note", "the draft is still there");
    assert.match(lastCallOfRun(env).result.error, /the page asked whether to leave it \(changes may not be saved\); the user chose Stay: the tab stays on this page/);
    assert.match(end.text, /the user chose Stay/);
  }),

  agentTest("leaving a page with a typed draft: Leave lets the navigation go on", "/pages/agent/dialogs.html", async (env, { page, panel, tabId }) => {
    leaveDialogsToDusk(page);
    await page.click("#draft");
    await page.keyboard.type("half a note");
    const saved = new URL("/pages/agent/wiki-saved.html", env.base).href;
    usePolicy(env, (p) => (p.last ? answer(p.last.result.success ? `Opened it. ${(p.last.result.data?.dialogs ?? []).join(" ")}` : `Not opened: ${p.last.result.error}`) : toolCall("navigate", { url: saved })));
    await startRun(panel, `Open ${saved}`);
    await cardOf(panel, "dialog");
    await answerCard(panel, "dialog", "approve");
    const end = await finish(panel);
    assert.equal(end.state, "done");
    const ext = await env.extPage();
    assert.equal(await ext.evaluate((id) => chrome.tabs.get(id).then((t) => t.url), tabId), saved, "the tab left for the saved page");
    assert.match(end.text, /the user chose Leave/, "the model was told");
  }),

  panelTest("with the debugger switched off, a step the page holds with a dialog ends saying one may be waiting", "/pages/agent/dialogs.html", { mode: "dom", use_debugger: false }, async (env, { page, panel }) => {
    let held;
    page.on("dialog", (d) => { held = d; });
    usePolicy(env, clickThen("Show notice"));
    await startRun(panel, "Show the notice.");
    // The user answers the alert in the tab once the model has been told.
    const deadline = Date.now() + 25_000;
    while (!/may be showing a dialog/.test(lastCallOfRun(env)?.result?.error ?? "") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    assert.match(lastCallOfRun(env).result.error, /^the page did not answer within 15 s: it may be showing a dialog \(alert, confirm, prompt or leave this page\) that waits for the user/);
    assert.equal(await panel.locator('.confirm-card[data-tool="dialog"]').count(), 0, "no card: Dusk did not see the dialog");
    assert.ok(held, "the page's alert was open");
    await held.accept();
    const end = await finish(panel);
    assert.equal(end.state, "done");
    assert.equal(await status(page), "Notice closed");
  }),
];
