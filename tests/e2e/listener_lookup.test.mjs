// The debugger's listener lookup: a listing of an unchanged page sends Chrome no
// debugger command at all; what the page adds since is looked up alone, and still listed.
import assert from "node:assert/strict";
import { openPage, elements } from "./page-helpers.mjs";

/** Records the debugger commands the worker sends from now on (method names, in order); with
 * `jitter`, each is held up to that many ms first, so two lookups' commands interleave. */
async function recordCommands(env, jitter = 0) {
  const worker = await env.serviceWorker();
  await worker.evaluate((jitter) => {
    self.duskCommands = [];
    self.duskJitter = jitter;
    if (!self.duskSend) {
      self.duskSend = chrome.debugger.sendCommand;
      chrome.debugger.sendCommand = function (target, method, ...rest) {
        self.duskCommands.push(method);
        if (!self.duskJitter) return self.duskSend.call(this, target, method, ...rest);
        return new Promise((r) => setTimeout(r, Math.random() * self.duskJitter)).then(() => self.duskSend.call(this, target, method, ...rest));
      };
    }
  }, jitter);
  return { take: () => worker.evaluate(() => self.duskCommands.splice(0)) };
}

const texts = (list) => list.map((e) => e.text);

export const tests = [
  ["a listing of an unchanged page sends no debugger command; an added card is looked up alone and listed", async (env) => {
    const { page, call } = await openPage(env, "/pages/listeners.html");
    const commands = await recordCommands(env);
    const first = texts(await elements(call));
    assert.ok(first.includes("Plain card") && first.includes("Shadow card"), JSON.stringify(first));
    assert.ok(!first.includes("Quiet text"), "a div without a listener is not listed");
    assert.ok((await commands.take()).includes("DOMDebugger.getEventListeners"), "the first listing asked the debugger");

    const again = texts(await elements(call));
    assert.deepEqual(again, first);
    assert.deepEqual(await commands.take(), [], "the unchanged page's listing sent debugger commands");

    await page.evaluate(() => { addCard("Late card"); addShadowCard("Late shadow card"); });
    const after = texts(await elements(call));
    for (const t of ["Plain card", "Shadow card", "Late card", "Late shadow card"]) assert.ok(after.includes(t), `${t} in ${JSON.stringify(after)}`);
    const sent = await commands.take();
    // Two added subtrees, asked about one each; not the whole page's roots again.
    assert.equal(sent.filter((m) => m === "DOMDebugger.getEventListeners").length, 2, JSON.stringify(sent));
    assert.ok(!sent.includes("Runtime.evaluate"), `the whole page was looked at: ${JSON.stringify(sent)}`);

    // A removal adds nothing to look up: the card is gone from the list, with no command.
    await page.evaluate(() => document.getElementById("plain").remove());
    const removed = texts(await elements(call));
    assert.ok(!removed.includes("Plain card") && removed.includes("Late card"), JSON.stringify(removed));
    assert.deepEqual(await commands.take(), []);
  }],

  ["a new shadow root brings a whole-page lookup, and its card is listed", async (env) => {
    const { page, call } = await openPage(env, "/pages/listeners.html");
    await elements(call);
    const commands = await recordCommands(env);
    await page.evaluate(() => addHost("Hosted card"));
    const list = texts(await elements(call));
    assert.ok(list.includes("Hosted card") && list.includes("Plain card"), JSON.stringify(list));
    assert.ok((await commands.take()).includes("Runtime.evaluate"), "the new shadow root was found by a whole-page lookup");
  }],

  // An agent's page_summary starts a whole-page lookup in the background, and its first listing
  // follows at once: two lookups at the same time released each other's objects, and the
  // subtree lookup then found no listeners (a MiniWoB inbox's re-made rows, 3 runs of 4).
  ["a listing made while another lookup runs still finds the rows the page re-made", async (env) => {
    const { page, call } = await openPage(env, "/pages/listeners.html");
    await elements(call);
    const commands = await recordCommands(env, 15);
    try {
      for (let round = 1; round <= 4; round++) {
        const rows = [`Row ${round}a`, `Row ${round}b`];
        await page.evaluate((rows) => { document.getElementById("list").replaceChildren(); rows.forEach(addCard); }, rows);
        const [, list] = await Promise.all([call({ type: "page_summary", text_limit: 0 }), elements(call)]);
        for (const t of [...rows, "Plain card", "Shadow card"]) assert.ok(texts(list).includes(t), `round ${round}: ${t} in ${JSON.stringify(texts(list))}`);
        const again = texts(await elements(call));
        for (const t of rows) assert.ok(again.includes(t), `round ${round}, listed again: ${t} in ${JSON.stringify(again)}`);
      }
    } finally {
      await (await env.serviceWorker()).evaluate(() => (self.duskJitter = 0));
      await commands.take();
    }
  }],
];
