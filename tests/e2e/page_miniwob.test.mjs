// MiniWoB++ tasks solved through the content RPCs alone, each by a small scripted policy (no LLM).
// The harness only seeds and starts episodes and reads the score in the page's main world.
import assert from "node:assert/strict";
import { rpc } from "./page-helpers.mjs";

const SEEDS = ["dusk-1", "dusk-2", "dusk-3"];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** What the policy may use: RPCs to the task's tab, nothing else. */
function agent(env, url) {
  const call = (request) => rpc(env, url, request);
  return {
    call,
    async instruction() {
      const r = await call({ type: "inspect", selector: "#query" });
      assert.equal(r.type, "inspected", JSON.stringify(r));
      return r.elements[0].text;
    },
    async elements(filter = "all") {
      const r = await call({ type: "get_elements", filter, visible_only: true });
      return r.elements;
    },
    async act(request) {
      const r = await call(request);
      assert.equal(r.type, "action", JSON.stringify(r));
      assert.equal(r.success, true, `${JSON.stringify(request)}: ${r.message}`);
      return r;
    },
    async clickText(text, filter = "button") {
      const el = (await this.elements(filter)).find((e) => e.text === text);
      assert.ok(el, `no ${filter} "${text}"`);
      return this.act({ type: "click", index: el.index });
    },
    /** Clicks the visible element whose own text is exactly `text`, found by semantic query. */
    async clickPhrase(text, hint = "") {
      const r = await call({ type: "query_elements", description: `${hint} "${text}"`, limit: 5 });
      assert.equal(r.type, "query_results", JSON.stringify(r));
      const hit = r.matches.find((m) => m.text === text);
      if (!hit) return false;
      await this.act({ type: "click", selector: hit.selector });
      return true;
    },
  };
}

const quoted = (s) => [...s.matchAll(/"([^"]*)"/g)].map((m) => m[1]);

const policies = {
  "click-button": async (a) => {
    const [label] = quoted(await a.instruction());
    await a.clickText(label);
  },
  "enter-text": async (a) => {
    const [text] = quoted(await a.instruction());
    const input = (await a.elements("input"))[0];
    await a.act({ type: "type_text", index: input.index, text });
    await a.clickText("Submit");
  },
  "click-checkboxes": async (a) => {
    const q = await a.instruction();
    const names = q.replace(/^Select /, "").replace(/ and click Submit\.$/, "").split(", ").filter((n) => n !== "nothing");
    for (const box of (await a.elements("input")).filter((e) => e.type === "checkbox")) {
      if (names.includes(box.text) !== box.checked) await a.act({ type: "click", index: box.index });
    }
    await a.clickText("Submit");
  },
  "choose-list": async (a) => {
    const item = (await a.instruction()).match(/^Select (.*) from the list/)[1];
    const select = (await a.elements("select"))[0];
    await a.act({ type: "select", index: select.index, text: item });
    await a.clickText("Submit");
  },
  "click-tab-2": async (a) => {
    const [word] = quoted(await a.instruction());
    for (const tab of (await a.elements("link")).filter((e) => /^Tab #\d$/.test(e.text))) {
      await a.act({ type: "click", index: tab.index });
      if (await a.clickPhrase(word)) return;
    }
    assert.fail(`no tab shows the link "${word}"`);
  },
  "use-autocomplete": async (a) => {
    const [start, end = ""] = quoted(await a.instruction());
    const field = (await a.elements("input"))[0];
    await a.act({ type: "type_text", index: field.index, text: start });
    await sleep(500);
    for (let i = 0; i < 40; i++) {
      await a.act({ type: "press_key", key: "ArrowDown" });
      const value = (await a.elements("input"))[0].value;
      if (value.startsWith(start) && value.endsWith(end)) break;
    }
    await a.act({ type: "press_key", key: "Enter" });
    await a.clickText("Submit");
  },
  "login-user": async (a) => {
    const [user, password] = quoted(await a.instruction());
    const inputs = await a.elements("input");
    await a.act({ type: "type_text", index: inputs.find((e) => e.text === "Username").index, text: user });
    await a.act({ type: "type_text", index: inputs.find((e) => e.text === "Password").index, text: password });
    await a.clickText("Login");
  },
  "click-dialog": async (a) => {
    const close = (await a.elements("button")).find((e) => /^(close|x|×)$/i.test(e.text));
    assert.ok(close, "the dialog has a close button");
    await a.act({ type: "click", index: close.index });
  },
  "enter-password": async (a) => {
    const [password] = quoted(await a.instruction());
    for (const field of (await a.elements("input")).filter((e) => e.type === "password")) {
      await a.act({ type: "type_text", index: field.index, text: password });
    }
    await a.clickText("Submit");
  },
  "enter-date": async (a) => {
    const date = (await a.instruction()).match(/\d{2}\/\d{2}\/\d{4}/)[0];
    const field = (await a.elements("input"))[0];
    // A date input takes its value whole; the page layer converts the human spelling.
    await a.act({ type: "type_text", index: field.index, text: date });
    await a.clickText("Submit");
  },
  "enter-time": async (a) => {
    const time = (await a.instruction()).match(/^Enter (.*) as the time/)[1];
    const field = (await a.elements("input"))[0];
    await a.act({ type: "type_text", index: field.index, text: time });
    await a.clickText("Submit");
  },
  "click-option": async (a) => {
    const choice = (await a.instruction()).match(/^Select (.*) and click Submit\.$/)[1];
    const radio = (await a.elements("input")).find((e) => e.type === "radio" && e.text === choice);
    assert.ok(radio, `no option "${choice}"`);
    await a.act({ type: "click", index: radio.index });
    await a.clickText("Submit");
  },
  "click-collapsible": async (a) => {
    const header = (await a.elements("button")).find((e) => e.role === "tab");
    assert.ok(header, "the section has a header to expand");
    await a.act({ type: "click", index: header.index });
    await a.clickText("Submit");
  },
  "click-collapsible-2": async (a) => {
    const [word] = quoted(await a.instruction());
    for (const header of (await a.elements("button")).filter((e) => e.role === "tab")) {
      await a.act({ type: "click", index: header.index });
      await sleep(300);
      if (await a.clickPhrase(word, "link")) return;
    }
    assert.fail(`no section shows the link "${word}"`);
  },
  "click-link": async (a) => {
    const [word] = quoted(await a.instruction());
    assert.ok(await a.clickPhrase(word, "link"), `no link "${word}"`);
  },
};

async function runTask(env, task) {
  const url = `${env.base}/miniwob/miniwob/${task}.html`;
  const page = await env.open(url);
  await page.waitForFunction(() => typeof core === "object" && document.getElementById("sync-task-cover"));
  const a = agent(env, url);
  const rewards = [];
  for (const seed of SEEDS) {
    await page.evaluate((s) => {
      Math.seedrandom(s);
      core.EPISODE_MAX_TIME = 60000;
      core.startEpisodeReal();
    }, seed);
    await policies[task](a);
    await page.waitForFunction(() => WOB_DONE_GLOBAL === true, null, { timeout: 5000 });
    const reward = await page.evaluate(() => WOB_RAW_REWARD_GLOBAL);
    rewards.push(reward);
    assert.ok(reward > 0, `${task} seed ${seed}: reward ${reward} (${await page.evaluate(() => WOB_REWARD_REASON)})`);
  }
  return rewards;
}

export const tests = Object.keys(policies).map((task) => [`MiniWoB ${task}: 3 seeded episodes, reward > 0 each`, (env) => runTask(env, task)]);
