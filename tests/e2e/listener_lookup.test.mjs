// The debugger's listener lookup (issue 44): a listing of an unchanged page sends Chrome no
// debugger command at all; what the page adds since is looked up alone, and still listed.
import assert from "node:assert/strict";
import { openPage, elements } from "./page-helpers.mjs";

/** Records the debugger commands the worker sends from now on (method names, in order). */
async function recordCommands(env) {
  const worker = await env.serviceWorker();
  await worker.evaluate(() => {
    self.duskCommands = [];
    if (!self.duskSend) {
      self.duskSend = chrome.debugger.sendCommand;
      chrome.debugger.sendCommand = function (target, method, ...rest) {
        self.duskCommands.push(method);
        return self.duskSend.call(this, target, method, ...rest);
      };
    }
  });
  return { take: () => worker.evaluate(() => self.duskCommands.splice(0)) };
}

const texts = (list) => list.map((e) => e.text);

export const tests = [
  ["a listing of an unchanged page sends no debugger command; an added card is looked up and listed", async (env) => {
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
    // Something was added: the debugger is asked again (the whole page, see content_rpc::changed).
    assert.ok((await commands.take()).includes("DOMDebugger.getEventListeners"), "the additions were looked up");

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
];
