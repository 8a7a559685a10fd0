// Scripted models that are policies: each reads only the request the LLM server received (the
// task and page summary of the first user message, its own earlier tool calls and their results)
// and answers with the next tool call(s) or a final answer. Nothing here looks at the page.
// Use as `env.llm.setDefault((req) => policies[task](parseRequest(req)))`.

// ---------------------------------------------------------------- replies

/** One tool call: `{ toolCalls: [{ name, args }] }`. */
export const toolCall = (name, args = {}) => ({ toolCalls: [{ name, args }] });

/** Several tool calls in one turn, run in order: `toolCalls(["type", {…}], ["click", {…}])`. */
export const toolCalls = (...calls) => ({
  toolCalls: calls.map((c) => (Array.isArray(c) ? { name: c[0], args: c[1] ?? {} } : { name: c.name, args: c.args ?? {} })),
});

/** A final answer: no tool call. */
export const answer = (text) => ({ text });

// ---------------------------------------------------------------- reading a request

/** Text of a message content: a string, or the text parts/blocks of an array. */
function textOf(content) {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((p) => (typeof p === "string" ? p : p?.type === "text" || (p && "text" in p && !p.type) ? p.text ?? "" : ""))
      .filter(Boolean)
      .join("\n");
  }
  return "";
}

function parseArgs(args) {
  if (typeof args !== "string") return args ?? {};
  try {
    return JSON.parse(args || "{}");
  } catch {
    return args;
  }
}

/** Index just past the first balanced `{…}` that starts at `start` (strings and escapes respected), or -1. */
function balancedEnd(s, start) {
  let depth = 0;
  let inString = false;
  for (let i = start; i < s.length; i++) {
    const c = s[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i + 1;
  }
  return -1;
}

/**
 * A tool message's text → `{ success, data, error, tool, timestamp, note, raw }`: the first
 * balanced JSON object, `note` = whatever follows it (runtime notes such as
 * `[screenshot from step 3]` or a repeat warning), `raw` = the whole text. Text that holds no JSON
 * object becomes `{ success: false, error: <text> }`.
 */
export function parseResult(text) {
  const raw = String(text ?? "");
  let from = raw.indexOf("{");
  while (from >= 0) {
    const end = balancedEnd(raw, from);
    if (end < 0) break;
    try {
      const json = JSON.parse(raw.slice(from, end));
      if (json && typeof json === "object" && !Array.isArray(json)) return { ...json, note: raw.slice(end).trim(), raw };
    } catch {
      // not JSON after all: look for the next object
    }
    from = raw.indexOf("{", from + 1);
  }
  return { success: false, error: raw, note: "", raw };
}

/** The conversation as a flat list: `user {text}`, `call {id, name, args, turn}`, `result {id, name, text, isError}`. */
function events(provider, body) {
  const out = [];
  let system = "";
  let turn = 0;
  if (provider === "anthropic") {
    system = typeof body.system === "string" ? body.system : textOf(body.system ?? []);
    for (const m of body.messages ?? []) {
      const blocks = typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content ?? [];
      if (m.role === "assistant") {
        turn++;
        for (const b of blocks) if (b.type === "tool_use") out.push({ kind: "call", id: b.id, name: b.name, args: parseArgs(b.input), turn });
        const said = blocks.filter((b) => b.type === "text").map((b) => b.text).join("\n");
        if (said) out.push({ kind: "said", text: said, turn });
        continue;
      }
      const text = blocks.filter((b) => b.type === "text").map((b) => b.text).join("\n");
      for (const b of blocks) {
        if (b.type === "tool_result") out.push({ kind: "result", id: b.tool_use_id, text: textOf(b.content), isError: Boolean(b.is_error) });
      }
      if (text) out.push({ kind: "user", text });
    }
  } else if (provider === "gemini") {
    system = textOf(body.systemInstruction?.parts ?? []);
    let n = 0;
    for (const c of body.contents ?? []) {
      const parts = c.parts ?? [];
      if (c.role === "model") {
        turn++;
        for (const p of parts) if (p.functionCall) out.push({ kind: "call", id: `gemini-${n++}`, name: p.functionCall.name, args: parseArgs(p.functionCall.args), turn });
        const said = parts.filter((p) => typeof p.text === "string").map((p) => p.text).join("\n");
        if (said) out.push({ kind: "said", text: said, turn });
        continue;
      }
      for (const p of parts) {
        if (!p.functionResponse) continue;
        // Gemini has no call ids: a response answers the oldest unanswered call of its name.
        const answered = new Set(out.filter((e) => e.kind === "result").map((e) => e.id));
        const call = out.find((e) => e.kind === "call" && e.name === p.functionResponse.name && !answered.has(e.id));
        const r = p.functionResponse.response ?? {};
        const text = typeof r.content === "string" ? r.content : typeof r.error === "string" ? r.error : JSON.stringify(r);
        out.push({ kind: "result", id: call?.id, name: p.functionResponse.name, text, isError: "error" in r });
      }
      const text = parts.filter((p) => typeof p.text === "string").map((p) => p.text).join("\n");
      if (text) out.push({ kind: "user", text });
    }
  } else {
    for (const m of body.messages ?? []) {
      if (m.role === "system" || m.role === "developer") system += (system ? "\n\n" : "") + textOf(m.content);
      else if (m.role === "user") out.push({ kind: "user", text: textOf(m.content) });
      else if (m.role === "assistant") {
        turn++;
        for (const c of m.tool_calls ?? []) out.push({ kind: "call", id: c.id, name: c.function?.name, args: parseArgs(c.function?.arguments), turn });
        if (textOf(m.content)) out.push({ kind: "said", text: textOf(m.content), turn });
      } else if (m.role === "tool") out.push({ kind: "result", id: m.tool_call_id, text: textOf(m.content) });
    }
  }
  return { system, list: out, turns: turn };
}

/** `URL:`, `Title:` and the `Text:` part of a page summary block. */
function pageOf(summary) {
  const line = (key) => summary.match(new RegExp(`^${key}: ?(.*)$`, "m"))?.[1] ?? "";
  const at = summary.search(/^Text:/m);
  return { url: line("URL"), title: line("Title"), text: at < 0 ? "" : summary.slice(at).replace(/^Text:[ \t]*\n?/, "") };
}

/**
 * Reads a request the way a model would: `{ provider, system, task, summary, page: {url, title,
 * text}, calls: [{ id, name, args, result, turn }], last, turn, said }`. `said`: the texts of the
 * model's own earlier turns, in order (what a model writes down to remember). `calls` are the assistant's
 * tool calls in order, each with its parsed result (see parseResult; undefined while unanswered);
 * `last` is the last call; `turn` is the number of this model turn (1 for the first request).
 * Takes the object script.next receives (`{ provider, body, … }`) or a recorded request.
 */
export function parseRequest(req) {
  const body = req?.body && typeof req.body === "object" ? req.body : {};
  const provider = req?.provider ?? (body.contents ? "gemini" : typeof body.system !== "undefined" ? "anthropic" : "openai");
  const { system, list, turns } = events(provider, body);
  const first = list.find((e) => e.kind === "user")?.text ?? "";
  const firstLine = first.split("\n", 1)[0];
  const task = firstLine.startsWith("Task: ") ? firstLine.slice(6).trim() : firstLine.replace(/^Task:\s*/, "").trim();
  const block = first.match(/^<<<PAGE[ \t]*\n([\s\S]*?)\n?^PAGE>>>/m);
  const summary = block ? block[1] : "";
  const results = new Map(list.filter((e) => e.kind === "result").map((e) => [e.id, e]));
  const calls = list
    .filter((e) => e.kind === "call")
    .map((c) => {
      const r = results.get(c.id);
      let result;
      if (r) {
        result = parseResult(r.text);
        if (r.isError && !("success" in result)) result.success = false;
      }
      return { id: c.id, name: c.name, args: c.args, result, turn: c.turn };
    });
  const said = list.filter((e) => e.kind === "said").map((e) => e.text);
  return { provider, system, task, summary, page: pageOf(summary), calls, last: calls.at(-1), turn: turns + 1, firstMessage: first, said };
}

// ---------------------------------------------------------------- element lines

function readQuoted(s, i) {
  // s[i] is the opening quote; returns [value, index after the closing quote]
  let out = "";
  for (let j = i + 1; j < s.length; j++) {
    const c = s[j];
    if (c === "\\" && j + 1 < s.length) {
      const n = s[++j];
      out += n === "n" ? "\n" : n === "t" ? "\t" : n;
    } else if (c === '"') return [out, j + 1];
    else out += c;
  }
  return [out, s.length];
}

/** One `[index] tag …` line → element, or null for headers and notes. */
export function parseElementLine(line) {
  const m = String(line).match(/^\[(\d+)\]\s+(\S+)/);
  if (!m) return null;
  const e = {
    index: Number(m[1]), tag: m[2], text: "", type: undefined, role: undefined, placeholder: undefined, value: undefined,
    checked: undefined, href: undefined, disabled: false, offscreen: false, isNew: false, context: undefined,
    icon: undefined, container: undefined, row: undefined, line: String(line),
  };
  const s = String(line);
  let i = m[0].length, last = null;
  const keyed = { "placeholder=": "placeholder", "value=": "value", "href=": "href", "icon=": "icon", 'in ': "row" };
  while (i < s.length) {
    while (s[i] === " ") i++;
    if (i >= s.length) break;
    const rest = s.slice(i);
    const key = Object.keys(keyed).find((k) => rest.startsWith(`${k}"`));
    const cut = rest.match(/^\((\d+) characters: get_element_details \[\d+\]\)/);
    if (cut) {
      e[last === "value" ? "valueChars" : "textChars"] = Number(cut[1]);
      i += cut[0].length;
    } else if (s[i] === '"') {
      [e.text, i] = readQuoted(s, i);
      last = "text";
    } else if (rest.startsWith('in dialog "')) {
      [e.row, i] = readQuoted(s, i + 10);
      e.rowKind = "dialog";
    } else if (key) {
      [e[keyed[key]], i] = readQuoted(s, i + key.length);
      last = keyed[key];
    } else if (/^in \[\d+\]/.test(rest)) {
      const n = rest.match(/^in \[(\d+)\]/)[0];
      e.container = Number(n.slice(4, -1));
      i += n.length;
    } else if (rest.startsWith("(in ")) {
      const close = s.indexOf(")", i);
      e.context = s.slice(i + 4, close < 0 ? s.length : close);
      i = close < 0 ? s.length : close + 1;
    } else {
      const word = rest.match(/^\S+/)[0];
      i += word.length;
      if (word.startsWith("role=")) e.role = word.slice(5);
      else if (word.startsWith("type=")) e.type = word.slice(5);
      else if (word === "checked") e.checked = true;
      else if (word === "unchecked") e.checked = false;
      else if (word === "disabled") e.disabled = true;
      else if (word === "offscreen") e.offscreen = true;
      else if (word === "new") e.isNew = true;
    }
  }
  return e;
}

/**
 * What a listing says it left out: `[{ kind: "box", index, tag, name, below, above, right, left }]`
 * for `… 5 more below in [7] div "Results": scroll it`, and `{ kind: "page", px, direction, count }`
 * for `… the page continues 2,400 px below (31 more elements): scroll down`.
 */
export function leftOut(text) {
  const out = [];
  for (const line of String(text ?? "").split("\n")) {
    const box = line.match(/^… (.*) in \[(\d+)\] (\S+)(?: (".*"))?: scroll it$/);
    if (box) {
      const count = (w) => Number(box[1].match(new RegExp(`(\\d+) more ${w}`))?.[1] ?? 0);
      const name = box[4] ? readQuoted(box[4], 0)[0] : "";
      out.push({ kind: "box", index: Number(box[2]), tag: box[3], name, below: count("below"), above: count("above"), right: count("to the right"), left: count("to the left") });
      continue;
    }
    const page = line.match(/^… the page continues ([\d,]+) px (below|above)(?: \((\d+) more elements?\))?/);
    if (page) out.push({ kind: "page", px: Number(page[1].replace(/,/g, "")), direction: page[2], count: Number(page[3] ?? 0) });
  }
  return out;
}

/** Element-list text (get_elements' data, or an action's new_elements) → elements, in order. */
export function parseElements(text) {
  return String(text ?? "").split("\n").map(parseElementLine).filter(Boolean);
}

/** The elements a call's result shows: get_elements' list, or an action's `new_elements`. */
export function elementsOf(call) {
  const data = call?.result?.success ? call.result.data : undefined;
  if (typeof data === "string") return parseElements(data);
  if (data && typeof data === "object" && typeof data.new_elements === "string") return parseElements(data.new_elements);
  return [];
}

/** Everything the calls so far showed, by index (later sightings win), minus indices reported stale. */
export function knownElements(parsed) {
  const known = new Map();
  for (const c of parsed.calls) {
    for (const e of elementsOf(c)) known.set(e.index, e);
    for (const i of c.result?.data?.stale ?? []) known.delete(i);
  }
  return [...known.values()];
}

// ---------------------------------------------------------------- policy helpers

/** The first line of the page text that matches `re` (its match), else null. */
export function instruction(parsed, re) {
  for (const line of parsed.page.text.split("\n")) {
    const m = line.trim().match(re);
    if (m) return m;
  }
  return parsed.summary.match(re);
}

/** The calls of the last assistant turn. */
export const lastTurn = (parsed) => parsed.calls.filter((c) => c.turn === parsed.last?.turn);

/** The elements of the latest successful get_elements call. */
export function lastListing(parsed) {
  const c = parsed.calls.findLast((x) => x.name === "get_elements" && x.result?.success);
  return c ? elementsOf(c) : [];
}

const norm = (s) => String(s ?? "").replace(/\s+/g, " ").trim().toLowerCase();
/** The first element with exactly this text, else the first whose text matches ignoring case and spacing. */
export function byText(list, text, pred = () => true) {
  return list.find((e) => pred(e) && e.text === text) ?? list.find((e) => pred(e) && norm(e.text) === norm(text));
}

const TEXT_TYPES = new Set([undefined, "", "text", "search", "email", "tel", "url", "number"]);
const isTextField = (e) => (e.tag === "input" && TEXT_TYPES.has(e.type)) || e.tag === "textarea";
const isButton = (e) => e.tag === "button" || e.role === "button" || (e.tag === "input" && ["submit", "button"].includes(e.type));

/** A final answer if any call of the last turn failed (declined, blocked, stale, …), else null. */
export function failure(parsed) {
  const bad = lastTurn(parsed).find((c) => c.result && c.result.success === false);
  if (!bad) return null;
  const why = bad.result.error ?? "it failed";
  if (/the user declined/i.test(why)) return answer(`You declined \`${bad.name}\`, so I stopped there.`);
  return answer(`I could not finish: \`${bad.name}\` failed (${why}).`);
}

const lost = (what) => answer(`I could not find ${what} on the page, so I stopped.`);

// ---------------------------------------------------------------- MiniWoB policies

/**
 * The common shape: list the page, plan every action from the listing, run them in one turn, then
 * answer. `plan(listing, parsed)` returns an array of [tool, args] or a reply (when it gives up).
 */
function listThenAct(re, listArgs, plan, done) {
  return (parsed) => {
    const m = instruction(parsed, re);
    if (!m) return answer("I could not find the page's instructions.");
    const failed = failure(parsed);
    if (failed) return failed;
    if (!parsed.last) return toolCall("get_elements", listArgs);
    if (parsed.last.name === "get_elements") {
      const steps = plan(m, lastListing(parsed), parsed);
      return Array.isArray(steps) ? toolCalls(...steps) : steps;
    }
    return answer(done(m));
  };
}

const submitOf = (list, label = "Submit") => byText(list, label, isButton);

/** List inputs, type `text` into the field labelled `label`, answer with how it went. */
export const typePolicy = (label, text) => (p) => {
  if (!p.last) return toolCall("get_elements", { filter: "input" });
  if (p.last.name === "get_elements") {
    const el = byText(lastListing(p), label);
    return el ? toolCall("type", { index: el.index, text }) : answer(`There is no "${label}" field.`);
  }
  return answer(p.last.result.success ? `Typed into "${label}".` : `Could not type: ${p.last.result.error}`);
};

export const policies = {
  "click-button": listThenAct(
    /Click on the "(.*)" button/,
    { filter: "button" },
    ([, label], list) => {
      const b = byText(list, label, isButton);
      return b ? [["click", { index: b.index }]] : lost(`a "${label}" button`);
    },
    ([, label]) => `Clicked the "${label}" button.`,
  ),

  "enter-text": listThenAct(
    /Enter "(.*)" into the text field/,
    {},
    ([, text], list) => {
      const field = list.find(isTextField);
      const submit = submitOf(list);
      if (!field || !submit) return lost("the text field and its Submit button");
      return [["type", { index: field.index, text }], ["click", { index: submit.index }]];
    },
    ([, text]) => `Entered "${text}" and pressed Submit.`,
  ),

  "click-checkboxes": listThenAct(
    /^Select (.*) and click Submit\.?$/,
    {},
    ([, names], list) => {
      const wanted = names === "nothing" ? [] : names.split(", ").map((n) => n.trim());
      const boxes = list.filter((e) => e.type === "checkbox");
      const submit = submitOf(list);
      if (!submit) return lost("the Submit button");
      const missing = wanted.filter((n) => !boxes.some((b) => b.text === n));
      if (missing.length) return lost(`the checkbox${missing.length > 1 ? "es" : ""} ${missing.join(", ")}`);
      const toggles = boxes.filter((b) => wanted.includes(b.text) !== Boolean(b.checked));
      return [...toggles.map((b) => ["click", { index: b.index }]), ["click", { index: submit.index }]];
    },
    ([, names]) => `Selected ${names} and clicked Submit.`,
  ),

  "choose-list": listThenAct(
    /^Select (.*) from the list and click Submit/,
    {},
    ([, item], list) => {
      const select = list.find((e) => e.tag === "select");
      const submit = submitOf(list);
      if (!select || !submit) return lost("the list and its Submit button");
      return [["select", { index: select.index, text: item }], ["click", { index: submit.index }]];
    },
    ([, item]) => `Selected ${item} and clicked Submit.`,
  ),

  /** The link may be on any tab: look at the open one, else open the next tab and list again in the same turn. */
  "click-tab-2": (parsed) => {
    const m = instruction(parsed, /click on the link "(.*)"/i);
    if (!m) return answer("I could not find the page's instructions.");
    const word = m[1];
    const failed = failure(parsed);
    if (failed) return failed;
    if (!parsed.last) return toolCall("get_elements", {});
    const isTab = (e) => /^Tab #\d+$/.test(e.text);
    const tabs = knownElements(parsed).filter((e) => isTab(e) && e.tag === "a");
    const tabIndices = new Set(knownElements(parsed).filter(isTab).map((e) => e.index));
    const last = parsed.last;
    if (last.name === "click" && !tabIndices.has(last.args.index)) return answer(`Clicked the link "${word}".`);
    const link = byText(lastListing(parsed), word, (e) => !isTab(e) && !e.offscreen);
    if (link) return toolCall("click", { index: link.index });
    // The first tab is open at the start; after that, each tab this policy opened.
    const seen = new Set(["Tab #1", ...parsed.calls.filter((c) => c.name === "click").map((c) => tabs.find((t) => t.index === c.args.index)?.text)]);
    const next = [...tabs].sort((a, b) => a.text.localeCompare(b.text)).find((t) => !seen.has(t.text));
    if (!next) return lost(`the link "${word}" on any tab`);
    return toolCalls(["click", { index: next.index }], ["get_elements", {}]);
  },

  /** Type the start, give the drop-down time to open (wait answers with what appeared), click a matching item, Submit. */
  "use-autocomplete": (parsed) => {
    const m = instruction(parsed, /starts with "(.*?)"(?: and ends with "(.*?)")?/);
    if (!m) return answer("I could not find the page's instructions.");
    const [, start, end = ""] = m;
    const failed = failure(parsed);
    if (failed) return failed;
    if (!parsed.last) return toolCall("get_elements", {});
    const first = elementsOf(parsed.calls.find((c) => c.name === "get_elements"));
    const field = first.find(isTextField);
    const submit = submitOf(first);
    if (!field || !submit) return lost("the text field and its Submit button");
    const clicks = parsed.calls.filter((c) => c.name === "click");
    if (clicks.some((c) => c.args.index === submit.index)) return answer(`Entered an item that starts with "${start}"${end ? ` and ends with "${end}"` : ""}.`);
    if (!parsed.calls.some((c) => c.name === "type")) return toolCalls(["type", { index: field.index, text: start }], ["wait", { seconds: 0.6 }]);
    const fits = (e) => !["ul", "ol", "input", "button", "select"].includes(e.tag) && e.text.startsWith(start) && e.text.endsWith(end) && e.text.length < 60;
    const shortest = (list) => list.filter(fits).sort((a, b) => a.text.length - b.text.length)[0];
    const item = shortest(elementsOf(parsed.last)) ?? shortest(knownElements(parsed));
    if (item) return toolCalls(["click", { index: item.index }], ["click", { index: submit.index }]);
    const waits = parsed.calls.filter((c) => c.name === "wait").length;
    if (waits >= 4) return lost(`a suggestion that starts with "${start}"`);
    return toolCall("wait", { seconds: 0.5 + waits * 0.5 });
  },

  "login-user": listThenAct(
    /username "(.*)" and the password "(.*)"/,
    {},
    ([, user, password], list) => {
      const name = byText(list, "Username", isTextField) ?? list.find(isTextField);
      const secret = byText(list, "Password", (e) => e.type === "password") ?? list.find((e) => e.type === "password");
      const login = byText(list, "Login", isButton) ?? list.find(isButton);
      if (!name || !secret || !login) return lost("the login form");
      return [["type", { index: name.index, text: user }], ["type", { index: secret.index, text: password }], ["click", { index: login.index }]];
    },
    ([, user]) => `Logged in as ${user}.`,
  ),

  "click-dialog": listThenAct(
    /Close the dialog/,
    { filter: "button" },
    (_m, list) => {
      const close = list.find((e) => /^(close|x|×|✕)$/i.test(e.text.trim()));
      return close ? [["click", { index: close.index }]] : lost("the dialog's close button");
    },
    () => "Closed the dialog.",
  ),

  "enter-password": listThenAct(
    /password "(.*)" into both/,
    {},
    ([, password], list) => {
      const fields = list.filter((e) => e.type === "password");
      const submit = submitOf(list);
      if (fields.length < 2 || !submit) return lost("both password fields and the Submit button");
      return [...fields.map((f) => ["type", { index: f.index, text: password }]), ["click", { index: submit.index }]];
    },
    () => "Entered the password twice and pressed Submit.",
  ),

  /** The link words are script-clickable spans; if the on-screen list lacks it, list the whole page once. */
  "click-link": (parsed) => {
    const m = instruction(parsed, /Click on the link "(.*)"/);
    if (!m) return answer("I could not find the page's instructions.");
    const word = m[1];
    const failed = failure(parsed);
    if (failed) return failed;
    if (!parsed.last) return toolCall("get_elements", {});
    if (parsed.last.name === "click") return answer(`Clicked the link "${word}".`);
    const link = byText(lastListing(parsed), word);
    if (link) return toolCall("click", { index: link.index });
    if (parsed.calls.filter((c) => c.name === "get_elements").length < 2) return toolCall("get_elements", { visible_only: false });
    return lost(`the link "${word}"`);
  },
};
