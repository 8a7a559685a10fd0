// The approval gate fails closed on real pages: a form whose hidden fields shadow the form's own
// properties (`id`, `action`) gets the same card for a typed password as a plain form, and any
// read the gate could not make asks the user instead of letting the action through.
import assert from "node:assert/strict";
import { agentTest, decide, finish, lastCallOfRun, nextCard, startRun, usePolicy } from "./agent_panel.mjs";
import { typePolicy } from "./agent_policy.mjs";


const passwordAsks = (path) =>
  agentTest(`typing a password into ${path} shows a card; Deny leaves the field empty and tells the model`, path, {}, async (env, { page, panel }) => {
    usePolicy(env, typePolicy("Password", "hunter2"));
    await startRun(panel, "Log me in with the password hunter2.");
    const card = await nextCard(panel);
    assert.match(card.action, /type/i);
    // The card says why it asks: the password field, or that Dusk could not check the target.
    assert.match(card.text, /password field|couldn't check element/i, card.text);
    assert.equal(await page.inputValue("#pass"), "", "nothing is typed while the card waits");
    await decide(panel, card, "deny");
    const end = await finish(panel);
    assert.equal(end.state, "done", end.text);
    assert.equal(await page.inputValue("#pass"), "");
    assert.match(lastCallOfRun(env).result.error, /the user declined/);
  });

export const tests = [passwordAsks("/pages/agent/login.html"), passwordAsks("/pages/agent/login-wiki.html")];
