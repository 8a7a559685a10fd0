// What a scripted model reads: the replies it can give and a parse of the request the LLM server
// received (the task, the page summary, its own earlier tool calls and their results).

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
